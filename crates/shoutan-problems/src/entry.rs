//! One problem of a set: the position, who plays, the group at stake, the
//! part of the board that matters, and the recorded correct first moves.

use shoutan_rules::{Board, Color, Move, Point, PointSet, Ruleset};
use shoutan_sgf::{GameTree, ReplayOptions, read_move, read_points, replay};
use shoutan_solver::{Goal, Problem};

/// A problem: whoever is to move kills the target if it is the opponent's
/// group, or saves it if it is their own.
#[derive(Clone, Debug)]
pub struct Entry {
    /// The slug of the set it belongs to.
    pub set: &'static str,
    /// Its place in the set, from 1.
    pub number: u32,
    /// Its title (`GN`), if it has one.
    pub title: Option<String>,
    /// The position.
    pub board: Board,
    /// The side to play (`PL`).
    pub to_move: Color,
    /// A stone of the group at stake (`TR`).
    pub target: Point,
    /// The rectangle moves may be played in and the board is shown by
    /// (`VW`); without it the solver finds the region around the target.
    pub view: Option<PointSet>,
    /// The correct first moves, as recorded (one child node each).
    pub answers: Vec<Move>,
}

impl Entry {
    /// The recorded right first moves as points (a problem is answered by
    /// a stone, never a pass).
    #[must_use]
    pub fn answer_points(&self) -> Vec<Point> {
        self.answers
            .iter()
            .filter_map(|m| match m {
                Move::Play(p) => Some(*p),
                Move::Pass => None,
            })
            .collect()
    }

    /// Kill when the target is the opponent's, live when it is the
    /// mover's own: the diagram says which by where the mark is.
    ///
    /// # Examples
    /// ```
    /// use shoutan_solver::Goal;
    /// let entry = shoutan_problems::find("rumen-chizi", 1).unwrap();
    /// let own = entry.board.get(entry.target) == Some(entry.to_move);
    /// assert_eq!(entry.goal() == Goal::Live, own);
    /// ```
    #[must_use]
    pub fn goal(&self) -> Goal {
        if self.board.get(self.target) == Some(self.to_move) {
            Goal::Live
        } else {
            Goal::Kill
        }
    }

    /// The problem for the solver, under Chinese rules (suicide
    /// forbidden), its region the view when there is one.
    ///
    /// # Panics
    /// Never for the library's entries: loading checked that each poses a
    /// problem.
    ///
    /// # Examples
    /// ```
    /// use shoutan_solver::{Budget, Verdict, solve_for};
    /// let entry = shoutan_problems::find("rumen-chizi", 1).unwrap();
    /// let answer = solve_for(&entry.problem(), entry.to_move, Budget::default());
    /// assert_eq!(answer.verdict, Verdict::Win);
    /// ```
    #[must_use]
    pub fn problem(&self) -> Problem {
        self.build().expect("a library entry poses a problem")
    }

    /// `slug/number`, how links and the server name a problem.
    ///
    /// # Examples
    /// ```
    /// let entry = shoutan_problems::find("rumen-chizi", 3).unwrap();
    /// assert_eq!(entry.id(), "rumen-chizi/3");
    /// ```
    #[must_use]
    pub fn id(&self) -> String {
        format!("{}/{}", self.set, self.number)
    }

    fn build(&self) -> Result<Problem, shoutan_solver::ProblemError> {
        let mut builder =
            Problem::builder(self.board.clone(), self.to_move, self.target, self.goal())
                .ruleset(&Ruleset::CHINESE);
        if let Some(view) = &self.view {
            builder = builder.region(view.clone());
        }
        builder.build()
    }

    /// Reads problem `number` of set `set` from its game tree: setup in the
    /// root, one child per correct first move. Says what is wrong otherwise.
    pub(crate) fn read(set: &'static str, number: u32, tree: &GameTree) -> Result<Entry, String> {
        let options = ReplayOptions {
            until: Some(0),
            ..ReplayOptions::default()
        };
        let replayed = replay(tree, options).map_err(|e| e.to_string())?;
        let board = replayed.game.board().clone();
        let size = board.size();
        let root = tree.root();
        let to_move = root
            .simple_text("PL")
            .ok_or("no PL: the side to play is not given")?
            .parse::<Color>()
            .map_err(|e| format!("PL: {e}"))?;
        let marks = root.get("TR").ok_or("no TR: the target is not marked")?;
        let target = match read_points(marks, size).map_err(|e| e.to_string())?[..] {
            [target] => target,
            _ => return Err("TR must mark exactly one stone".to_owned()),
        };
        let view = match root.get("VW") {
            Some(vw) => {
                let mut view = PointSet::new(size);
                view.extend(read_points(vw, size).map_err(|e| e.to_string())?);
                Some(view)
            }
            None => None,
        };
        let id = match to_move {
            Color::Black => "B",
            Color::White => "W",
        };
        let mut answers = Vec::new();
        for &child in tree.children(GameTree::ROOT) {
            let node = tree.node(child);
            let value = node
                .value(id)
                .ok_or_else(|| format!("an answer node without a move for {id}"))?;
            answers.push(read_move(id, value, size).map_err(|e| e.to_string())?);
        }
        if answers.is_empty() {
            return Err("no answer: the root has no child".to_owned());
        }
        let entry = Entry {
            set,
            number,
            title: root.simple_text("GN"),
            board,
            to_move,
            target,
            view,
            answers,
        };
        entry.build().map_err(|e| e.to_string())?;
        Ok(entry)
    }
}
