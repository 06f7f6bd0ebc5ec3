//! The network's judgement of a position without search (形势判断, the
//! dead stones at the end of a game, `final_status_list`): the position
//! evaluated under all eight symmetries and the answers averaged, so that
//! the same position always gets the same judgement and no symmetry's
//! quirk decides a group's fate. Ownership and lead are the network's with
//! the player to move; a group is dead only when it is dead with either
//! player to move, so that a group whose fate hangs on who plays next (a
//! capturing race in atari, an unsettled corner) is never taken off the
//! board. Two forward passes of eight: tens of milliseconds on 19×19.

use shoutan_nn::{Network, Position, Scratch, Symmetry};
use shoutan_rules::{Color, Game};

use crate::endgame::{self, FinalStatus};

/// What the network sees in a position.
#[derive(Clone, Debug, PartialEq)]
pub struct Judgement {
    /// Who was to move.
    pub to_move: Color,
    /// Ownership of each point row by row from the top left: +1 black's,
    /// −1 white's.
    pub ownership: Vec<f32>,
    /// Black's chance to win.
    pub black_winrate: f32,
    /// Black's lead in points, komi included (negative: white leads).
    pub black_lead: f32,
    /// The stones it sees dead, and those in seki.
    pub status: FinalStatus,
}

/// Judges `game`'s position with `network`, in any phase (a finished
/// game's final position too), with the game's player to move.
#[must_use]
pub fn judge(network: &Network, game: &Game) -> Judgement {
    let position = Position::from_game(game);
    let other = position.with_to_move(game.to_move().opponent());
    let mut scratch = Scratch::default();
    let (ownership, winrate, lead) = averaged(network, &position, &mut scratch);
    let (other_ownership, _, _) = averaged(network, &other, &mut scratch);
    let mut status = endgame::final_status(game.board(), &ownership);
    let other_status = endgame::final_status(game.board(), &other_ownership);
    let alive_somehow: Vec<_> = status
        .dead
        .iter()
        .filter(|&p| !other_status.dead.contains(p))
        .collect();
    for p in alive_somehow {
        status.dead.remove(p);
    }
    Judgement {
        to_move: game.to_move(),
        ownership,
        black_winrate: winrate,
        black_lead: lead,
        status,
    }
}

/// Black's ownership, win rate and lead in `position`, averaged over the
/// eight symmetries.
fn averaged(network: &Network, position: &Position, scratch: &mut Scratch) -> (Vec<f32>, f32, f32) {
    let batch: Vec<(&Position, Symmetry)> = Symmetry::ALL.iter().map(|&s| (position, s)).collect();
    let evaluations = network.evaluate(&batch, scratch);
    let n = evaluations.len().max(1) as f32;
    let mut ownership = vec![0.0f32; position.size().area()];
    let (mut winrate, mut lead) = (0.0f32, 0.0f32);
    for e in &evaluations {
        for (o, w) in ownership.iter_mut().zip(&e.white_ownership) {
            *o -= w / n;
        }
        winrate += e.winrate(Color::Black) / n;
        lead += e.lead(Color::Black) / n;
    }
    (ownership, winrate, lead)
}
