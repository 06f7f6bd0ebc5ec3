//! Go values of SGF (`GM[1]`): points (`dp`), moves (a point, or a pass as
//! `[]` and, on boards up to 19×19, `[tt]`), and point lists with
//! rectangles (`AB[aa:cc]` is nine stones).

use shoutan_rules::{BoardSize, Move, Point, PointError};

use crate::tree::{Property, Value};

/// A value that is not a point or move of this board.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{id}[{value}]: {reason}")]
pub struct PointValueError {
    /// The property.
    pub id: String,
    /// The value as written.
    pub value: String,
    /// Why it is not one.
    pub reason: PointError,
}

/// Reads a move: `[]`, or `[tt]` on boards up to 19×19, is a pass.
///
/// ```
/// use shoutan_rules::{BoardSize, Move, Point};
/// use shoutan_sgf::{read_move, Value};
/// let nineteen = BoardSize::NINETEEN;
/// assert_eq!(read_move("B", &Value::empty(), nineteen), Ok(Move::Pass));
/// assert_eq!(read_move("B", &Value::from_text("tt"), nineteen), Ok(Move::Pass));
/// assert_eq!(read_move("W", &Value::from_text("pd"), nineteen),
///            Ok(Move::Play(Point::from_gtp("Q16", nineteen).unwrap())));
/// let big = BoardSize::new(21).unwrap();
/// assert!(matches!(read_move("B", &Value::from_text("tt"), big), Ok(Move::Play(_))));
/// ```
pub fn read_move(id: &str, value: &Value, size: BoardSize) -> Result<Move, PointValueError> {
    let text = value.simple_text();
    if text.is_empty() || (text == "tt" && size.get() <= 19) {
        return Ok(Move::Pass);
    }
    point(id, &text, size).map(Move::Play)
}

/// The SGF value of a move: `[]` for a pass (`FF[4]`).
#[must_use]
pub fn move_value(mv: Move) -> Value {
    match mv {
        Move::Play(p) => Value::from_text(&p.to_sgf()),
        Move::Pass => Value::empty(),
    }
}

/// Reads a list of points (`AB`, `TR`, `TB`…): single points and
/// rectangles `aa:cc`, in order, each point once.
pub fn read_points(property: &Property, size: BoardSize) -> Result<Vec<Point>, PointValueError> {
    let mut points = Vec::new();
    for value in property.values() {
        if value.is_empty() {
            continue;
        }
        match value.compose() {
            Some((a, b)) => {
                let (a, b) = (
                    point(property.id(), &a, size)?,
                    point(property.id(), &b, size)?,
                );
                for row in a.row().min(b.row())..=a.row().max(b.row()) {
                    for col in a.col().min(b.col())..=a.col().max(b.col()) {
                        points.extend(size.point(col, row));
                    }
                }
            }
            None => points.push(point(property.id(), &value.simple_text(), size)?),
        }
    }
    let mut seen = std::collections::HashSet::new();
    points.retain(|p| seen.insert(*p));
    Ok(points)
}

/// The values of a point list, one point each.
#[must_use]
pub fn point_values(points: &[Point]) -> Vec<Value> {
    points
        .iter()
        .map(|p| Value::from_text(&p.to_sgf()))
        .collect()
}

fn point(id: &str, text: &str, size: BoardSize) -> Result<Point, PointValueError> {
    Point::from_sgf(text, size).map_err(|reason| PointValueError {
        id: id.to_owned(),
        value: text.to_owned(),
        reason,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prop(id: &str, values: &[&str]) -> Property {
        Property::new(id, values.iter().map(|v| Value::from_text(v)).collect()).unwrap()
    }

    #[test]
    fn rectangles_expand() {
        let size = BoardSize::NINE;
        let points = read_points(&prop("AB", &["aa:bc", "ee", "aa"]), size).unwrap();
        let sgf: Vec<String> = points.iter().map(|p| p.to_sgf()).collect();
        assert_eq!(sgf, ["aa", "ba", "ab", "bb", "ac", "bc", "ee"]);
        let reversed = read_points(&prop("AB", &["bc:aa"]), size).unwrap();
        assert_eq!(reversed.len(), 6);
    }

    #[test]
    fn off_board_points_are_errors_naming_the_property() {
        let size = BoardSize::NINE;
        let err = read_points(&prop("AW", &["aa", "jj"]), size).unwrap_err();
        assert_eq!(err.id, "AW");
        assert_eq!(err.value, "jj");
        assert!(err.to_string().starts_with("AW[jj]"), "{err}");
        assert!(read_move("B", &Value::from_text("tt"), size).is_ok());
        assert!(read_move("B", &Value::from_text("Q16"), size).is_err());
    }

    #[test]
    fn moves_write_back() {
        let size = BoardSize::NINETEEN;
        for text in ["", "pd", "aa", "ss"] {
            let mv = read_move("B", &Value::from_text(text), size).unwrap();
            assert_eq!(move_value(mv).raw(), text);
        }
    }
}
