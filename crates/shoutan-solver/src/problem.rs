//! A life-and-death problem: the position, the target group, where moves
//! may be played, whose aim the player to move has, and the rules that
//! decide which moves are legal. Checked once, here, so the search never
//! meets a malformed problem.

use shoutan_rules::{Board, Color, Point, PointIndex, PointSet, Ruleset, Suicide, pass_alive};

/// The aim of the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Goal {
    /// Capture the target (the player to move is the attacker).
    Kill,
    /// Keep the target on the board (the player to move owns it).
    Live,
}

/// Why a problem cannot be posed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProblemError {
    /// The target point is off the board or holds no stone.
    #[error("there is no stone at the target point (column {}, row {})", .0.col() + 1, .0.row() + 1)]
    NoStone(Point),
    /// The region does not hold every stone of the target group.
    #[error("the region does not contain the whole target group")]
    RegionMissesTarget,
    /// The region is a set of points of another board size.
    #[error("the region is for a board of another size")]
    RegionSize,
    /// The goal does not fit the player to move and the target's colour.
    #[error("goal {goal:?} does not fit {to_move:?} to move against a {target:?} target")]
    GoalMismatch {
        /// The goal asked for.
        goal: Goal,
        /// The player to move.
        to_move: Color,
        /// The target's colour.
        target: Color,
    },
}

/// A checked problem: build one with [`Problem::builder`].
#[derive(Clone, Debug)]
pub struct Problem {
    board: Board,
    to_move: Color,
    target: Point,
    region: PointSet,
    goal: Goal,
    suicide: Suicide,
}

/// Builds a [`Problem`]; the region is found unless given.
#[derive(Clone, Debug)]
pub struct ProblemBuilder {
    board: Board,
    to_move: Color,
    target: Point,
    goal: Goal,
    region: Option<PointSet>,
    margin: u8,
    suicide: Suicide,
}

impl Problem {
    /// Starts a problem: `to_move` plays first on `board` with `goal`
    /// against (or for) the group at `target`. By default the region is
    /// found with a margin of 1 and suicide is forbidden.
    #[must_use]
    pub fn builder(board: Board, to_move: Color, target: Point, goal: Goal) -> ProblemBuilder {
        ProblemBuilder {
            board,
            to_move,
            target,
            goal,
            region: None,
            margin: 1,
            suicide: Suicide::Forbidden,
        }
    }

    /// The position.
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The player to move first.
    #[must_use]
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// A stone of the target group.
    #[must_use]
    pub fn target(&self) -> Point {
        self.target
    }

    /// The owner of the target.
    #[must_use]
    pub fn defender(&self) -> Color {
        match self.goal {
            Goal::Kill => self.to_move.opponent(),
            Goal::Live => self.to_move,
        }
    }

    /// The side that wants the target captured.
    #[must_use]
    pub fn attacker(&self) -> Color {
        self.defender().opponent()
    }

    /// The points where moves may be played (stones in it may be captured).
    #[must_use]
    pub fn region(&self) -> &PointSet {
        &self.region
    }

    /// The aim of the player to move.
    #[must_use]
    pub fn goal(&self) -> Goal {
        self.goal
    }

    /// The suicide rule the search plays by.
    #[must_use]
    pub fn suicide(&self) -> Suicide {
        self.suicide
    }

    /// The same fight in a later position: `board` (after moves inside the
    /// region) with `to_move` to play, the same target, region and rules;
    /// `None` once the target has been captured.
    #[must_use]
    pub fn next(&self, board: Board, to_move: Color) -> Option<Problem> {
        let goal = if board.get(self.target)? == to_move {
            Goal::Live
        } else {
            Goal::Kill
        };
        Some(Problem {
            board,
            to_move,
            target: self.target,
            region: self.region.clone(),
            goal,
            suicide: self.suicide,
        })
    }

    /// The region's points as board cells, for the search's move loop.
    pub(crate) fn region_cells(&self) -> Vec<PointIndex> {
        self.region.iter().map(|p| self.board.index(p)).collect()
    }
}

impl ProblemBuilder {
    /// Plays by `ruleset`'s suicide rule. Its repetition rule is not used:
    /// the search applies the simple-ko ban and treats longer cycles as the
    /// target surviving (see the crate's notes).
    #[must_use]
    pub fn ruleset(mut self, ruleset: &Ruleset) -> Self {
        self.suicide = ruleset.suicide;
        self
    }

    /// Moves may be played only on these points.
    #[must_use]
    pub fn region(mut self, region: PointSet) -> Self {
        self.region = Some(region);
        self
    }

    /// The found region reaches `margin` points beyond the target group's
    /// bounding box (ignored when a region is given).
    #[must_use]
    pub fn margin(mut self, margin: u8) -> Self {
        self.margin = margin;
        self
    }

    /// Checks the problem.
    ///
    /// ```
    /// use shoutan_rules::{Board, Color, Point};
    /// use shoutan_solver::{Goal, Problem, ProblemError};
    /// let board: Board = "
    ///     . . .
    ///     . O .
    ///     . . .".parse().unwrap();
    /// let size = board.size();
    /// let at = |s| Point::from_gtp(s, size).unwrap();
    /// let empty = Problem::builder(board.clone(), Color::Black, at("A1"), Goal::Kill).build();
    /// assert!(matches!(empty, Err(ProblemError::NoStone(_))));
    /// let own = Problem::builder(board, Color::White, at("B2"), Goal::Kill).build();
    /// assert!(matches!(own, Err(ProblemError::GoalMismatch { .. })));
    /// ```
    pub fn build(self) -> Result<Problem, ProblemError> {
        let size = self.board.size();
        let target_color = if size.contains(self.target) {
            self.board.get(self.target)
        } else {
            None
        };
        let Some(target_color) = target_color else {
            return Err(ProblemError::NoStone(self.target));
        };
        let fits = match self.goal {
            Goal::Kill => target_color != self.to_move,
            Goal::Live => target_color == self.to_move,
        };
        if !fits {
            return Err(ProblemError::GoalMismatch {
                goal: self.goal,
                to_move: self.to_move,
                target: target_color,
            });
        }
        let region = match self.region {
            Some(region) if region.size() != size => return Err(ProblemError::RegionSize),
            Some(region) => region,
            None => found_region(&self.board, self.target, self.margin),
        };
        let t = self.board.index(self.target);
        if self
            .board
            .chain(t)
            .any(|s| !region.contains(self.board.point(s)))
        {
            return Err(ProblemError::RegionMissesTarget);
        }
        Ok(Problem {
            board: self.board,
            to_move: self.to_move,
            target: self.target,
            region,
            goal: self.goal,
            suicide: self.suicide,
        })
    }
}

/// The points connected to the target inside its bounding box grown by
/// `margin`, not crossing the opponent's unconditionally alive walls (no
/// move can change them, and what lies behind them is another fight).
fn found_region(board: &Board, target: Point, margin: u8) -> PointSet {
    let size = board.size();
    let t = board.index(target);
    let stones: Vec<Point> = board.chain(t).map(|s| board.point(s)).collect();
    let grow = |v: u8, up: bool| {
        if up {
            v.saturating_add(margin).min(size.get() - 1)
        } else {
            v.saturating_sub(margin)
        }
    };
    let (mut c0, mut c1, mut r0, mut r1) = (u8::MAX, 0, u8::MAX, 0);
    for p in &stones {
        c0 = c0.min(p.col());
        c1 = c1.max(p.col());
        r0 = r0.min(p.row());
        r1 = r1.max(p.row());
    }
    let (c0, c1, r0, r1) = (
        grow(c0, false),
        grow(c1, true),
        grow(r0, false),
        grow(r1, true),
    );
    let in_box = |p: Point| (c0..=c1).contains(&p.col()) && (r0..=r1).contains(&p.row());
    let walls = board.get(target).map_or_else(
        || PointSet::new(size),
        |c| pass_alive(board, c.opponent()).stones,
    );
    let mut region = PointSet::new(size);
    let mut stack = vec![target];
    region.insert(target);
    while let Some(p) = stack.pop() {
        for n in p.neighbors(size) {
            if in_box(n) && !walls.contains(n) && region.insert(n) {
                stack.push(n);
            }
        }
    }
    region
}
