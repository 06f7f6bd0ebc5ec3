//! What clients are shown: the game's state after each event, its clock,
//! and the whole game at once for a client that joins.

use serde::Serialize;
use shoutan_clock::{Arrival, Instant, Reading, Status};
use shoutan_rules::{ByColor, Color, Handicap, Phase, Point, Ruleset, Vertex};
use shoutan_store::UserId;

use super::event::ChatChannel;
use super::state::{ChatLine, LiveState, Offers};
use crate::result_view::ResultView;
use crate::settings::{ColorDecision, Partners, Seat};

/// Both clocks at an instant.
#[derive(Clone, Debug, Serialize)]
pub struct ClockView {
    /// Black's clock.
    pub black: Reading,
    /// White's clock.
    pub white: Reading,
    /// Whose time runs.
    pub running: Option<Color>,
    /// When the reading was taken (ms since the Unix epoch).
    pub at: u64,
}

/// The counting phase: the marks and what they give.
#[derive(Clone, Debug, Serialize)]
pub struct CountingView {
    /// Stones marked dead.
    pub dead: Vec<Vertex>,
    /// Who has accepted the marking.
    pub accepted: ByColor<bool>,
    /// The result the marking gives.
    pub result: ResultView,
}

/// The game's state after an event.
#[derive(Clone, Debug, Serialize)]
pub struct StateView {
    /// `live`, `finished` or `cancelled`.
    pub status: &'static str,
    /// `setup`, `play`, `counting` or `finished`.
    pub phase: Phase,
    /// Who is to move (in setup and play).
    pub to_move: Option<Color>,
    /// Turns played.
    pub moves: usize,
    /// Stones each player has captured.
    pub captures: ByColor<u32>,
    /// Requests waiting for an answer.
    pub offers: Offers,
    /// The marks, in the counting phase.
    pub counting: Option<CountingView>,
    /// The result, once there is one.
    pub result: Option<ResultView>,
    /// The dead stones both players agreed on, in a game that ended by that
    /// count: with the board, they give back its territory and count after
    /// any reload or restart.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agreed_dead: Option<Vec<Vertex>>,
    /// An arbiter's warnings to each player (Art. 24: each −1 子 at
    /// counting, the second loses).
    pub warnings: ByColor<u8>,
    /// In rengo, the player whose turn it is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub player_to_move: Option<UserId>,
    /// While an event's game waits for its players (Art. 22): who has sat
    /// down (opened the game). No move is taken before both have.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seated: Option<ByColor<bool>>,
    /// In an event's game where a player sat down late: how late each was
    /// and what his clock was charged for it, so that the clock can say so.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub late: Option<ByColor<Option<Arrival>>>,
}

/// Points by their GTP names.
pub(super) fn points(
    size: shoutan_rules::BoardSize,
    ps: impl IntoIterator<Item = Point>,
) -> Vec<Vertex> {
    ps.into_iter().map(|p| Vertex::of(p, size)).collect()
}

impl LiveState {
    /// Both clocks at `at`.
    #[must_use]
    pub fn clock_view(&self, at: Instant) -> ClockView {
        ClockView {
            black: self.clock.reading(Color::Black, at),
            white: self.clock.reading(Color::White, at),
            running: self.running(),
            at: at.as_millis(),
        }
    }

    /// `live`, `finished` or `cancelled`.
    #[must_use]
    pub fn status(&self) -> &'static str {
        match (self.is_over(), self.cancelled) {
            (false, _) => "live",
            (true, false) => "finished",
            (true, true) => "cancelled",
        }
    }

    /// The state now.
    #[must_use]
    pub fn state_view(&self) -> StateView {
        let phase = self.game.phase();
        let size = self.game.size();
        let counting = (phase == Phase::Counting).then(|| CountingView {
            dead: points(size, self.game.dead_stones().iter()),
            accepted: self.game.accepted(),
            result: self.game.count().result().into(),
        });
        StateView {
            status: self.status(),
            phase,
            to_move: matches!(phase, Phase::Setup | Phase::Play).then(|| self.game.to_move()),
            moves: self.game.turns().len(),
            captures: ByColor::of(|c| self.game.board().captures(c)),
            offers: self.offers,
            counting,
            result: if self.cancelled {
                None
            } else {
                self.game.result().map(ResultView::from)
            },
            agreed_dead: self
                .game
                .agreed_dead()
                .map(|dead| points(size, dead.iter())),
            warnings: self.game.warnings(),
            player_to_move: self.partner_to_move().map(|s| s.id),
            seated: match self.clock.status() {
                Status::AwaitingPlayers { seated, .. } if !self.is_over() => {
                    Some(seated.map(|s| s.is_some()))
                }
                _ => None,
            },
            late: (self.late.black.is_some() || self.late.white.is_some()).then_some(self.late),
        }
    }

    /// The board, one string per row from the top: `X` black, `O` white,
    /// `.` empty.
    #[must_use]
    pub fn board_rows(&self) -> Vec<String> {
        let size = self.game.size();
        let board = self.game.board();
        (0..size.get())
            .map(|row| {
                (0..size.get())
                    .map(
                        |col| match size.point(col, row).and_then(|p| board.get(p)) {
                            Some(Color::Black) => 'X',
                            Some(Color::White) => 'O',
                            None => '.',
                        },
                    )
                    .collect()
            })
            .collect()
    }
}

/// The settings as shown.
#[derive(Serialize)]
pub struct SettingsView {
    /// Board size.
    pub size: u8,
    /// The preset's name, or `custom`.
    pub ruleset_name: String,
    /// The ruleset's dimensions.
    pub ruleset: Ruleset,
    /// Komi in points.
    pub komi: f64,
    /// The handicap.
    pub handicap: Handicap,
    /// The clock, as text that parses back.
    pub time_control: String,
    /// The clock in Chinese.
    pub time_control_zh: String,
    /// Art. 22.5's option.
    pub time_out: shoutan_clock::TimeOutRule,
    /// Rated or casual.
    pub rated: bool,
    /// How the colours were decided.
    pub colors: ColorDecision,
}

/// A move as listed.
#[derive(Serialize)]
pub struct MoveView {
    /// Who.
    pub color: Color,
    /// Where; `null` for a pass.
    pub point: Option<String>,
}

/// The whole game, for a client that joins (or `GET /api/games/{id}`).
#[derive(Serialize)]
pub struct GameView {
    /// The game's id.
    pub id: i64,
    /// When it began (ms since the Unix epoch).
    pub created_at: i64,
    /// Black.
    pub black: Seat,
    /// White.
    pub white: Seat,
    /// In rengo, each team's second player.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub partners: Option<Partners>,
    /// The simul this game is a board of.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub simul: Option<i64>,
    /// The settings.
    pub settings: SettingsView,
    /// The version of the last event.
    pub version: u64,
    /// The position, row by row from the top.
    pub board: Vec<String>,
    /// The turns played.
    pub moves: Vec<MoveView>,
    /// The state.
    pub state: StateView,
    /// The clocks now.
    pub clock: ClockView,
    /// The chat this viewer may see.
    pub chat: Vec<ChatLine>,
    /// A rated game's rating changes, once recorded after its end (only
    /// in `GET /api/games/{id}`; the end itself is told on the socket
    /// before the ratings are written).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ratings: Option<serde_json::Value>,
}

impl LiveState {
    /// The whole game as `viewer_is_player` may see it, at `at`.
    #[must_use]
    pub fn game_view(
        &self,
        id: i64,
        created_at: i64,
        at: Instant,
        viewer_is_player: bool,
    ) -> GameView {
        let s = &self.settings;
        let hide_spectators = viewer_is_player && !self.is_over();
        GameView {
            id,
            created_at,
            black: s.black.clone(),
            white: s.white.clone(),
            partners: s.partners.clone(),
            simul: s.simul,
            settings: SettingsView {
                size: s.size.get(),
                ruleset_name: s.ruleset.to_string(),
                ruleset: s.ruleset,
                komi: s.komi.points(),
                handicap: s.handicap.clone(),
                time_control: s.time_control.to_string(),
                time_control_zh: s.time_control.text_zh(),
                time_out: s.time_out,
                rated: s.rated,
                colors: s.colors,
            },
            version: self.version,
            board: self.board_rows(),
            moves: self
                .moves()
                .into_iter()
                .map(|(color, point)| MoveView { color, point })
                .collect(),
            state: self.state_view(),
            clock: self.clock_view(at),
            chat: self
                .chat
                .iter()
                .filter(|line| !(hide_spectators && line.channel == ChatChannel::Spectators))
                .cloned()
                .collect(),
            ratings: None,
        }
    }
}
