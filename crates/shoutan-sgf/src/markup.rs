//! Markup on the board (`TR SQ CR MA LB TB TW DD`), move annotations
//! (`BM DO IT TE`), and the dead stones a finished record marks.

use serde::Serialize;
use shoutan_rules::{Board, BoardSize, Color, Point, PointSet};

use crate::points::{PointValueError, point_values, read_points};
use crate::tree::{Node, Property, Value};

/// The markup of a node.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Markup {
    /// `TR`.
    pub triangles: Vec<Point>,
    /// `SQ`.
    pub squares: Vec<Point>,
    /// `CR`.
    pub circles: Vec<Point>,
    /// `MA`: crosses.
    pub crosses: Vec<Point>,
    /// `LB`: text labels.
    pub labels: Vec<(Point, String)>,
    /// `TB`: black's territory.
    pub black_territory: Vec<Point>,
    /// `TW`: white's territory.
    pub white_territory: Vec<Point>,
    /// `DD`: dimmed points.
    pub dimmed: Vec<Point>,
}

/// The point-list properties of [`Markup`], in the order written.
const LISTS: [&str; 7] = ["TR", "SQ", "CR", "MA", "TB", "TW", "DD"];

impl Markup {
    /// Reads the markup of `node` on a `size` board.
    ///
    /// ```
    /// use shoutan_rules::BoardSize;
    /// use shoutan_sgf::{Markup, parse};
    /// let (c, _) = parse("(;SZ[9]TR[aa][bb]LB[ee:A]TB[ab:bc])").unwrap();
    /// let m = Markup::read(c.games[0].root(), BoardSize::NINE).unwrap();
    /// assert_eq!(m.triangles.len(), 2);
    /// assert_eq!(m.labels[0].1, "A");
    /// assert_eq!(m.black_territory.len(), 4);
    /// ```
    pub fn read(node: &Node, size: BoardSize) -> Result<Markup, PointValueError> {
        let list = |id: &str| -> Result<Vec<Point>, PointValueError> {
            node.get(id)
                .map_or(Ok(Vec::new()), |p| read_points(p, size))
        };
        let [
            triangles,
            squares,
            circles,
            crosses,
            black_territory,
            white_territory,
            dimmed,
        ] = [
            list(LISTS[0])?,
            list(LISTS[1])?,
            list(LISTS[2])?,
            list(LISTS[3])?,
            list(LISTS[4])?,
            list(LISTS[5])?,
            list(LISTS[6])?,
        ];
        let mut labels = Vec::new();
        if let Some(lb) = node.get("LB") {
            for value in lb.values() {
                let (at, text) = value
                    .compose()
                    .unwrap_or((value.simple_text(), String::new()));
                let single = Property::checked("LB".to_owned(), vec![Value::from_text(&at)]);
                labels.extend(
                    read_points(&single, size)?
                        .into_iter()
                        .map(|p| (p, text.clone())),
                );
            }
        }
        Ok(Markup {
            triangles,
            squares,
            circles,
            crosses,
            labels,
            black_territory,
            white_territory,
            dimmed,
        })
    }

    /// Writes the markup into `node`, replacing what it had of each kind
    /// that is not empty here.
    pub fn write(&self, node: &mut Node) {
        let lists = [
            &self.triangles,
            &self.squares,
            &self.circles,
            &self.crosses,
            &self.black_territory,
            &self.white_territory,
            &self.dimmed,
        ];
        for (id, points) in LISTS.into_iter().zip(lists) {
            if !points.is_empty() {
                node.set_values(id, point_values(points));
            }
        }
        if !self.labels.is_empty() {
            let values = self
                .labels
                .iter()
                .map(|(p, text)| Value::from_compose(&p.to_sgf(), text))
                .collect();
            node.set_values("LB", values);
        }
    }
}

/// A judgement of a move (`BM`, `DO`, `IT`, `TE`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveAnnotation {
    /// `BM[1]`/`BM[2]`: a bad move (2: very bad).
    Bad(u8),
    /// `DO`: doubtful.
    Doubtful,
    /// `IT`: interesting.
    Interesting,
    /// `TE[1]`/`TE[2]`: a tesuji, a good move (2: very good).
    Tesuji(u8),
}

impl MoveAnnotation {
    /// The annotation of `node`'s move, if any.
    #[must_use]
    pub fn read(node: &Node) -> Option<MoveAnnotation> {
        let degree = |id: &str| {
            node.simple_text(id)
                .map_or(1, |t| if t == "2" { 2 } else { 1 })
        };
        if node.has("BM") {
            Some(MoveAnnotation::Bad(degree("BM")))
        } else if node.has("TE") {
            Some(MoveAnnotation::Tesuji(degree("TE")))
        } else if node.has("DO") {
            Some(MoveAnnotation::Doubtful)
        } else if node.has("IT") {
            Some(MoveAnnotation::Interesting)
        } else {
            None
        }
    }
}

/// The dead stones marked in a record's final node, or `None` when it
/// marks none: a stone standing on the other colour's territory (`TB`/`TW`,
/// as CGoban, KGS and OGS write a counted game), and the stones listed in a
/// dead-stone property `DS` (written by some servers).
///
/// ```
/// use shoutan_rules::{BoardSize, Board, Point};
/// use shoutan_sgf::{dead_stones_from_markup, parse};
/// let board: Board = "
///     . X O . .
///     . X O . .
///     . X O . X
///     . X O . .
///     . X O . .".parse().unwrap();
/// // White's territory marked on E3's black stone and the empty D2.
/// let (c, _) = parse("(;SZ[5]TW[ec][dd])").unwrap();
/// let dead = dead_stones_from_markup(c.games[0].root(), &board).unwrap().unwrap();
/// assert_eq!(dead.iter().collect::<Vec<_>>(), [Point::from_gtp("E3", board.size()).unwrap()]);
/// ```
pub fn dead_stones_from_markup(
    node: &Node,
    board: &Board,
) -> Result<Option<PointSet>, PointValueError> {
    let size = board.size();
    if !["TB", "TW", "DS"].iter().any(|id| node.has(id)) {
        return Ok(None);
    }
    let markup = Markup::read(node, size)?;
    let listed = node
        .get("DS")
        .map_or(Ok(Vec::new()), |p| read_points(p, size))?;
    let mut dead = PointSet::new(size);
    let on_territory = markup
        .black_territory
        .iter()
        .filter(|&&p| board.get(p) == Some(Color::White))
        .chain(
            markup
                .white_territory
                .iter()
                .filter(|&&p| board.get(p) == Some(Color::Black)),
        );
    for &p in on_territory.chain(listed.iter().filter(|&&p| board.get(p).is_some())) {
        dead.insert(p);
    }
    Ok(Some(dead))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse;

    #[test]
    fn markup_reads_and_writes_back() {
        let (c, _) =
            parse("(;SZ[9]TR[aa]SQ[bb]CR[cc]MA[dd]LB[ee:A][ff:x\\:y]TB[gg]TW[hh]DD[ii])").unwrap();
        let m = Markup::read(c.games[0].root(), BoardSize::NINE).unwrap();
        assert_eq!(m.labels[1].1, "x:y");
        let mut node = Node::new();
        m.write(&mut node);
        assert_eq!(Markup::read(&node, BoardSize::NINE).unwrap(), m);
    }

    #[test]
    fn move_annotations() {
        let (c, _) = parse("(;B[aa]BM[2];W[bb]TE[1];B[cc]DO[];W[dd]IT[];B[ee])").unwrap();
        let tree = &c.games[0];
        let found: Vec<_> = tree
            .main_line()
            .map(|id| MoveAnnotation::read(tree.node(id)))
            .collect();
        assert_eq!(
            found,
            [
                Some(MoveAnnotation::Bad(2)),
                Some(MoveAnnotation::Tesuji(1)),
                Some(MoveAnnotation::Doubtful),
                Some(MoveAnnotation::Interesting),
                None
            ]
        );
    }

    #[test]
    fn no_markup_is_not_an_empty_marking() {
        let board: Board = ". X\nO .".parse().unwrap();
        let (c, _) = parse("(;SZ[2]C[no marks])").unwrap();
        assert_eq!(dead_stones_from_markup(c.games[0].root(), &board), Ok(None));
        let (c, _) = parse("(;SZ[2]DS[ba])").unwrap();
        let dead = dead_stones_from_markup(c.games[0].root(), &board)
            .unwrap()
            .unwrap();
        assert_eq!(dead.len(), 1);
    }
}
