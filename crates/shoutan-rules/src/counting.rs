//! Counting a finished position (Art. 9, 11, 21.2, 24; spec §5): area,
//! territory or stones only, with group tax, komi, handicap compensation and
//! warnings, and the owner of every point so a UI can draw the count.
//!
//! All amounts are [`Score`]s in half points, where a margin of 1 子 is two
//! points: a warning or a group tax of 1 子 moves the margin (black minus
//! white) by two points, exactly as when only one side is counted against
//! half the board.

use serde::{Deserialize, Serialize};

use crate::board::CellSet;
use crate::{
    Board, BoardSize, ByColor, Color, Counting, GameResult, HandicapCompensation, Point,
    PointIndex, PointSet, Ruleset, Score, ScoreUnit,
};

/// What a point counts for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Owner {
    /// Black's: a living black stone, or black's area or territory.
    Black,
    /// White's.
    White,
    /// Shared half and half (dame and seki points under area counting).
    Shared,
    /// Nobody's (dame and seki under territory counting; empty points when
    /// only stones count).
    Neutral,
}

/// Everything besides the board that a count needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CountSettings {
    /// The rules: counting method, group tax, tie.
    pub ruleset: Ruleset,
    /// Komi of this game.
    pub komi: Score,
    /// Handicap stones black received.
    pub handicap: u8,
    /// Prisoners taken during play.
    pub prisoners: ByColor<u32>,
    /// Warnings received (Art. 24: each costs 1 子).
    pub warnings: ByColor<u8>,
}

/// One side's part of a count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Living stones on the board.
    pub stones: u32,
    /// Points surrounded by this side alone (including those of dead stones).
    pub territory: u32,
    /// Points shared with the opponent, each worth half (area counting).
    pub shared: u32,
    /// Prisoners: captured during play plus dead stones removed at the end.
    pub prisoners: u32,
    /// Separate living groups (for the group tax).
    pub groups: u32,
    /// Warnings received.
    pub warnings: u8,
    /// The side's count before deductions: area (stones + territory + half
    /// the shared points), territory + prisoners, or stones.
    pub count: Score,
    /// 还棋头: group tax deducted.
    pub tax: Score,
    /// Warnings deducted.
    pub penalty: Score,
}

impl Tally {
    /// The count after deductions.
    #[must_use]
    pub fn net(&self) -> Score {
        self.count - self.tax - self.penalty
    }
}

/// A counted position.
///
/// ```
/// use shoutan_rules::{count, Board, ByColor, Color, CountSettings, PointSet, Ruleset};
/// // A 5×5 game: black owns two columns and a half, white the rest.
/// let board: Board = "
///     . X O . .
///     . X O . .
///     . X O . .
///     . X O . .
///     . X O . .".parse().unwrap();
/// let settings = CountSettings {
///     ruleset: Ruleset::CHINESE,
///     komi: "0.5".parse().unwrap(),
///     handicap: 0,
///     prisoners: ByColor::new(0, 0),
///     warnings: ByColor::new(0, 0),
/// };
/// let c = count(&board, &PointSet::new(board.size()), &settings);
/// assert_eq!(c.black.count.to_string(), "10");
/// assert_eq!(c.white.count.to_string(), "15");
/// assert_eq!(c.result().international(), "W+5.5");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Count {
    /// The counting method used.
    pub counting: Counting,
    /// What each point counts for, row by row from the top left.
    pub owners: Vec<Owner>,
    /// The stones taken off as dead.
    pub dead: PointSet,
    /// Empty points in seki (territory counting gives them to nobody).
    pub seki: PointSet,
    /// Black's part.
    pub black: Tally,
    /// White's part.
    pub white: Tally,
    /// Komi.
    pub komi: Score,
    /// White's compensation for the handicap.
    pub handicap_compensation: Score,
    /// Black's lead: black's net − white's net − komi − compensation.
    pub margin: Score,
    /// Who wins an exact tie.
    pub tie: crate::Tie,
    /// The board's size.
    pub size: BoardSize,
}

impl Count {
    /// The tally of one side.
    #[must_use]
    pub fn tally(&self, c: Color) -> &Tally {
        match c {
            Color::Black => &self.black,
            Color::White => &self.white,
        }
    }

    /// The owner of `p`.
    #[must_use]
    pub fn owner(&self, p: Point) -> Owner {
        self.owners[self.size.offset(p)]
    }

    /// The result the count gives.
    #[must_use]
    pub fn result(&self) -> GameResult {
        GameResult::by_count(self.margin, ScoreUnit::of(self.counting), self.tie)
    }

    /// Black's count in 子 as the Chinese arbiter announces it (黑185子):
    /// half the board plus half of black's lead before komi and
    /// compensation, so that black wins by this minus (half the board + komi
    /// in 子 + compensation in 子).
    #[must_use]
    pub fn black_zi(&self) -> Score {
        let half_board = Score::from_half_points(self.size.area() as i32);
        let lead = self.margin + self.komi + self.handicap_compensation;
        Score::from_half_points(half_board.half_points() + lead.half_points() / 2)
    }
}

/// Counts `board` with the stones in `dead` taken off.
///
/// Regions of empty points (and dead stones) touching living stones of one
/// colour only belong to that colour; regions touching both are shared.
/// Under territory counting, an empty point in a shared region where
/// neither side can play without putting its own stones in atari (or
/// taking two or more stones left alive in atari, a hane seki) is a seki
/// point: the stones next to it are in seki and their eyes count for nobody.
#[must_use]
pub fn count(board: &Board, dead: &PointSet, settings: &CountSettings) -> Count {
    let size = board.size();
    let alive = |p: Point| board.get(p).filter(|_| !dead.contains(p));
    let mut owners = vec![Owner::Neutral; size.area()];
    let regions = regions(board, dead);

    let counting = settings.ruleset.counting;
    let seki = if counting == Counting::Territory {
        seki_in(board, dead, &regions)
    } else {
        PointSet::new(size)
    };

    let mut tallies = ByColor::<Tally>::default();
    for p in size.points() {
        if let Some(c) = alive(p) {
            owners[size.offset(p)] = if c == Color::Black {
                Owner::Black
            } else {
                Owner::White
            };
            tallies[c].stones += 1;
        } else if let Some(c) = board.get(p) {
            tallies[c.opponent()].prisoners += 1;
        }
    }
    for region in &regions {
        let owner = match region.borders {
            ByColor {
                black: true,
                white: false,
            } => Some(Color::Black),
            ByColor {
                black: false,
                white: true,
            } => Some(Color::White),
            _ => None,
        };
        let in_seki = region.points.iter().any(|&q| seki.contains(q));
        for &q in &region.points {
            owners[size.offset(q)] = match (owner, counting) {
                (_, Counting::StonesOnly) => Owner::Neutral,
                (Some(_), Counting::Territory) if in_seki => Owner::Neutral,
                (Some(Color::Black), _) => Owner::Black,
                (Some(Color::White), _) => Owner::White,
                (None, Counting::Area) => Owner::Shared,
                (None, _) => Owner::Neutral,
            };
        }
        match (owners[size.offset(region.points[0])], owner) {
            (Owner::Black, _) => tallies.black.territory += region.points.len() as u32,
            (Owner::White, _) => tallies.white.territory += region.points.len() as u32,
            (Owner::Shared, _) => {
                tallies.black.shared += region.points.len() as u32;
                tallies.white.shared += region.points.len() as u32;
            }
            (Owner::Neutral, _) => {}
        }
    }

    let groups = count_groups(size, &owners, alive);
    let rules = &settings.ruleset;
    for c in Color::ALL {
        let t = &mut tallies[c];
        t.prisoners += settings.prisoners[c];
        t.groups = groups[c];
        t.warnings = settings.warnings[c];
        t.count = match counting {
            Counting::Area => {
                Score::from_half_points((2 * (t.stones + t.territory) + t.shared) as i32)
            }
            Counting::Territory => Score::from_points((t.territory + t.prisoners) as i32),
            Counting::StonesOnly => Score::from_points(t.stones as i32),
        };
        t.tax = rules.group_tax * t.groups as i32;
        t.penalty = Score::from_zi(1) * i32::from(t.warnings);
    }
    let ByColor { black, white } = tallies;
    let compensation = if settings.handicap >= 2 {
        rules.handicap_compensation.for_stones(settings.handicap)
    } else {
        HandicapCompensation::None.for_stones(0)
    };
    let margin = black.net() - white.net() - settings.komi - compensation;
    Count {
        counting,
        owners,
        dead: dead.clone(),
        seki,
        black,
        white,
        komi: settings.komi,
        handicap_compensation: compensation,
        margin,
        tie: rules.tie,
        size,
    }
}

/// The regions of empty points and dead stones, with the colours of the
/// living stones around each.
fn regions(board: &Board, dead: &PointSet) -> Vec<Region> {
    let size = board.size();
    let alive = |p: Point| board.get(p).filter(|_| !dead.contains(p));
    let mut seen = PointSet::new(size);
    let mut regions = Vec::new();
    for p in size.points() {
        if alive(p).is_some() || !seen.insert(p) {
            continue;
        }
        let mut region = Region::default();
        let mut stack = vec![p];
        while let Some(q) = stack.pop() {
            region.points.push(q);
            for n in q.neighbors(size) {
                match alive(n) {
                    Some(c) => region.borders[c] = true,
                    None => {
                        if seen.insert(n) {
                            stack.push(n);
                        }
                    }
                }
            }
        }
        regions.push(region);
    }
    regions
}

#[derive(Default)]
struct Region {
    points: Vec<Point>,
    /// Whether living stones of each colour touch the region.
    borders: ByColor<bool>,
}

/// Seki points of `board` with `dead` taken off: empty points of shared
/// regions where every colour touching them would put its own stones in
/// atari (capturing nothing) or take living stones (hane seki), and the
/// eyes of the stones next to them.
pub(crate) fn seki_points(board: &Board, dead: &PointSet) -> PointSet {
    seki_in(board, dead, &regions(board, dead))
}

fn seki_in(board: &Board, dead: &PointSet, regions: &[Region]) -> PointSet {
    let size = board.size();
    let mut seki = PointSet::new(size);
    let mut clean = board.clone();
    if clean.set_stones(dead.iter().map(|p| (p, None))).is_err() {
        return seki;
    }
    for region in regions.iter().filter(|r| r.borders.all(|&b| b)) {
        for &p in &region.points {
            let i = clean.index(p);
            let touching: Vec<Color> = Color::ALL
                .into_iter()
                .filter(|&c| neighbors_of_color(&clean, i, c))
                .collect();
            if !touching.is_empty() && touching.iter().all(|&c| unfillable(&clean, i, c)) {
                seki.insert(p);
            }
        }
    }
    // The eyes of stones in seki are seki too: mark every one-colour region
    // touching a chain that touches a seki point.
    let mut seki_chains = CellSet::default();
    for p in seki.iter().collect::<Vec<_>>() {
        let i = clean.index(p);
        for n in clean.neighbors(i) {
            if clean.stone(n).is_some() {
                for s in clean.chain(n) {
                    seki_chains.insert(s);
                }
            }
        }
    }
    for region in regions.iter().filter(|r| !r.borders.all(|&b| b)) {
        let touches = region.points.iter().any(|&q| {
            q.neighbors(size).any(|n| {
                let i = clean.index(n);
                clean.stone(i).is_some() && seki_chains.contains(i)
            })
        });
        if touches {
            seki.extend(region.points.iter().copied());
        }
    }
    seki
}

fn neighbors_of_color(board: &Board, i: PointIndex, c: Color) -> bool {
    board
        .neighbors(i)
        .iter()
        .any(|&n| board.stone(n) == Some(c))
}

/// Whether `c` cannot fill empty `i` as a dame: the move is illegal, or it
/// captures nothing and is left with at most one liberty, or it captures
/// two or more stones that the players agreed are alive.
///
/// Living stones left in atari at the end are a hane seki (Sensei's
/// Library, "Hanezeki"): taking them would lose the capturing race that
/// follows, so both sides leave the point, as at any seki point. A single
/// stone is not enough: it may be an open ko, where taking gains nothing.
fn unfillable(board: &Board, i: PointIndex, c: Color) -> bool {
    let mut after = board.clone();
    match after.play(i, c, crate::Suicide::Forbidden) {
        Err(_) => true,
        Ok(captured) => captured >= 2 || (captured == 0 && after.liberty_count(i) <= 1),
    }
}

/// Living groups per colour: stones of a colour connected through each
/// other and through points that count for that colour (an eye space joins
/// the chains around it into one group).
fn count_groups(
    size: crate::BoardSize,
    owners: &[Owner],
    alive: impl Fn(Point) -> Option<Color>,
) -> ByColor<u32> {
    let mut seen = vec![false; size.area()];
    let mut groups = ByColor::new(0, 0);
    for p in size.points() {
        let Some(c) = alive(p) else { continue };
        if seen[size.offset(p)] {
            continue;
        }
        groups[c] += 1;
        let mine = if c == Color::Black {
            Owner::Black
        } else {
            Owner::White
        };
        let mut stack = vec![p];
        seen[size.offset(p)] = true;
        while let Some(q) = stack.pop() {
            for n in q.neighbors(size) {
                let o = size.offset(n);
                if !seen[o] && owners[o] == mine {
                    seen[o] = true;
                    stack.push(n);
                }
            }
        }
    }
    groups
}
