//! The SGF grammar: text to a [`Collection`], tolerant of what real files
//! do (text around the games, `FF[3]` identifiers with lower-case letters,
//! repeated properties, empty variations, a missing final `)`), and a
//! [`ParseError`] with line and column for what cannot be read.
//!
//! The parser keeps an explicit stack: nesting depth costs no recursion.

use std::fmt;

use crate::tree::{Collection, GameTree, Node, NodeId, Property, Value};
use crate::warning::Warning;

/// A place in the text: line and column (in characters), both from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Position {
    /// Line, from 1.
    pub line: usize,
    /// Column in characters, from 1.
    pub column: usize,
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

/// What made the text unreadable.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseErrorKind {
    /// No game: no `(`, or only empty trees.
    #[error("no game: an SGF file holds game trees such as \"(;GM[1]…)\"")]
    NoGameTree,
    /// A `[` whose value never closes.
    #[error("the value opened here is never closed with ']'")]
    UnclosedValue,
    /// A property identifier without a value.
    #[error("property {0} has no value (expected '[' after it)")]
    MissingValue(String),
    /// Something other than a node, a variation or the end of one.
    #[error("unexpected {0:?}: expected ';', '(' or ')'")]
    Unexpected(char),
    /// A game tree or variation that does not begin with a node.
    #[error("a game tree must begin with a node (';')")]
    TreeWithoutNode,
}

/// Text that is not SGF, with where the reading stopped.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{position}: {kind}")]
pub struct ParseError {
    /// What was wrong.
    pub kind: ParseErrorKind,
    /// Where.
    pub position: Position,
}

/// Parses SGF text. Warnings list what was repaired.
///
/// ```
/// use shoutan_sgf::parse;
/// let (collection, warnings) = parse("(;GM[1]SZ[9];B[ee](;W[cc])(;W[gg]))").unwrap();
/// assert!(warnings.is_empty());
/// let tree = &collection.games[0];
/// assert_eq!(tree.len(), 4);
/// assert_eq!(tree.main_line().count(), 3);
///
/// let err = parse("(;GM[1]\nC[never closed").unwrap_err();
/// assert_eq!(err.to_string(), "line 2, column 2: the value opened here is never closed with ']'");
/// ```
pub fn parse(text: &str) -> Result<(Collection, Vec<Warning>), ParseError> {
    let mut parser = Parser {
        chars: text.chars().peekable(),
        position: Position { line: 1, column: 1 },
        previous: None,
        warnings: Vec::new(),
    };
    let mut collection = Collection::default();
    let mut saw_tree = false;
    loop {
        parser.skip_whitespace();
        match parser.peek() {
            None => break,
            Some('(') => {
                saw_tree = true;
                if let Some(tree) = parser.game_tree()? {
                    collection.games.push(tree);
                }
            }
            Some(_) => parser.skip_outside_text(),
        }
    }
    if !saw_tree || collection.games.is_empty() {
        return Err(ParseError {
            kind: ParseErrorKind::NoGameTree,
            position: parser.position,
        });
    }
    Ok((collection, parser.warnings))
}

struct Parser<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    position: Position,
    /// The last character taken, to count `\r\n` as one line break.
    previous: Option<char>,
    warnings: Vec<Warning>,
}

/// A variation opened and not yet closed: where its nodes attach, and how
/// many nodes the tree had when it opened (to notice an empty one).
struct Open {
    attach: Option<NodeId>,
    nodes_before: usize,
    at: Position,
}

impl Parser<'_> {
    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }

    fn bump(&mut self) -> Option<char> {
        let ch = self.chars.next()?;
        match ch {
            '\n' if self.previous == Some('\r') => {}
            '\n' | '\r' => {
                self.position.line += 1;
                self.position.column = 1;
            }
            _ => self.position.column += 1,
        }
        self.previous = Some(ch);
        Some(ch)
    }

    fn skip_whitespace(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.bump();
        }
    }

    /// Text between games (a mail header, a stray character): skipped up to
    /// the next `(`, with one warning.
    fn skip_outside_text(&mut self) {
        let at = self.position;
        while self.peek().is_some_and(|c| c != '(') {
            self.bump();
        }
        self.warnings.push(Warning::TextOutsideGameTree { at });
    }

    fn error<T>(&self, kind: ParseErrorKind, position: Position) -> Result<T, ParseError> {
        Err(ParseError { kind, position })
    }

    /// One game tree from its `(`; `None` for an empty `()`.
    fn game_tree(&mut self) -> Result<Option<GameTree>, ParseError> {
        let mut tree: Option<GameTree> = None;
        let mut current: Option<NodeId> = None;
        let mut open = vec![Open {
            attach: None,
            nodes_before: 0,
            at: self.position,
        }];
        self.bump();
        loop {
            self.skip_whitespace();
            let at = self.position;
            match self.peek() {
                Some(';') => {
                    self.bump();
                    let node = self.node()?;
                    current = Some(match (&mut tree, current) {
                        (Some(t), Some(parent)) => t.add_child(parent, node),
                        (None, None) => {
                            tree = Some(GameTree::new(node));
                            GameTree::ROOT
                        }
                        _ => return self.error(ParseErrorKind::TreeWithoutNode, at),
                    });
                }
                Some('(') => {
                    if current.is_none() {
                        return self.error(ParseErrorKind::TreeWithoutNode, at);
                    }
                    self.bump();
                    open.push(Open {
                        attach: current,
                        nodes_before: tree.as_ref().map_or(0, GameTree::len),
                        at,
                    });
                }
                Some(')') => {
                    self.bump();
                    if let Some(closed) = open.pop() {
                        if tree.as_ref().map_or(0, GameTree::len) == closed.nodes_before {
                            self.warnings
                                .push(Warning::EmptyVariation { at: closed.at });
                        }
                        current = closed.attach;
                    }
                    if open.is_empty() {
                        return Ok(tree);
                    }
                }
                None => {
                    self.warnings.push(Warning::UnclosedGameTree {
                        missing: open.len(),
                    });
                    return Ok(tree);
                }
                Some(other) => return self.error(ParseErrorKind::Unexpected(other), at),
            }
        }
    }

    /// The properties of a node, after its `;`.
    fn node(&mut self) -> Result<Node, ParseError> {
        let mut node = Node::new();
        loop {
            self.skip_whitespace();
            if !self.peek().is_some_and(|c| c.is_ascii_alphabetic()) {
                return Ok(node);
            }
            let at = self.position;
            let mut written = String::new();
            while let Some(c) = self.peek().filter(char::is_ascii_alphabetic) {
                written.push(c);
                self.bump();
            }
            let id = identifier(&written);
            if id != written {
                self.warnings.push(Warning::LowercaseIdentifier {
                    written,
                    read: id.clone(),
                    at,
                });
            }
            let mut values = Vec::new();
            loop {
                self.skip_whitespace();
                if self.peek() != Some('[') {
                    break;
                }
                values.push(self.value()?);
            }
            if values.is_empty() {
                return self.error(ParseErrorKind::MissingValue(id), at);
            }
            if node.add_merging(Property::checked(id.clone(), values)) {
                self.warnings.push(Warning::DuplicateProperty { id, at });
            }
        }
    }

    /// One `[value]`, kept raw.
    fn value(&mut self) -> Result<Value, ParseError> {
        let at = self.position;
        self.bump();
        let mut raw = String::new();
        loop {
            match self.bump() {
                None => return self.error(ParseErrorKind::UnclosedValue, at),
                Some(']') => return Ok(Value::from_raw(raw)),
                Some('\\') => {
                    raw.push('\\');
                    match self.bump() {
                        Some(c) => raw.push(c),
                        None => return self.error(ParseErrorKind::UnclosedValue, at),
                    }
                }
                Some(c) => raw.push(c),
            }
        }
    }
}

/// `FF[4]` identifiers are capital letters; `FF[3]` wrote `AddBlack` for `AB`
/// (lower-case letters dropped). An identifier written all in lower case
/// is taken in capitals.
fn identifier(written: &str) -> String {
    if written.bytes().any(|b| b.is_ascii_uppercase()) {
        written.chars().filter(char::is_ascii_uppercase).collect()
    } else {
        written.to_ascii_uppercase()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(text: &str) -> (Collection, Vec<Warning>) {
        parse(text).unwrap()
    }

    fn err(text: &str) -> ParseError {
        parse(text).unwrap_err()
    }

    #[test]
    fn values_are_kept_raw() {
        let (c, _) = ok(r"(;C[a \] b \\ c\
d]LB[dd:x\:y])");
        let root = c.games[0].root();
        assert_eq!(root.value("C").unwrap().raw(), "a \\] b \\\\ c\\\nd");
        assert_eq!(root.value("C").unwrap().text(), "a ] b \\ cd");
        assert_eq!(
            root.value("LB").unwrap().compose(),
            Some(("dd".into(), "x:y".into()))
        );
    }

    #[test]
    fn whitespace_anywhere_between_tokens() {
        let (c, w) = ok("\n ( ; SZ [9]\r\n AB [aa] \n [bb] ;\tB[cc] ) \n");
        assert!(w.is_empty());
        let tree = &c.games[0];
        assert_eq!(tree.root().get("AB").unwrap().values().len(), 2);
        assert_eq!(tree.len(), 2);
    }

    #[test]
    fn several_games_in_one_collection() {
        let (c, _) = ok("(;GM[1];B[aa])(;GM[1];B[bb])\n(;GM[1])");
        assert_eq!(c.games.len(), 3);
    }

    #[test]
    fn errors_say_line_and_column() {
        let e = err("(;SZ[19]\n;B[aa]\n;W");
        assert_eq!(e.kind, ParseErrorKind::MissingValue("W".into()));
        assert_eq!(e.position, Position { line: 3, column: 2 });
        let e = err("(;SZ[19]\r\n;B[aa]\r\n  ?)");
        assert_eq!(e.kind, ParseErrorKind::Unexpected('?'));
        assert_eq!(e.position, Position { line: 3, column: 3 });
        assert_eq!(err("").kind, ParseErrorKind::NoGameTree);
        assert_eq!(err("just words").kind, ParseErrorKind::NoGameTree);
        assert_eq!(err("((;B[aa]))").kind, ParseErrorKind::TreeWithoutNode);
        // A file with no node at all holds no game.
        assert_eq!(err("(").kind, ParseErrorKind::NoGameTree);
        assert_eq!(err("()()").kind, ParseErrorKind::NoGameTree);
    }

    #[test]
    fn a_truncated_file_is_closed_with_a_warning() {
        let (c, w) = ok("(;SZ[9];B[ee](;W[cc];B[dd]");
        assert_eq!(c.games[0].len(), 4);
        assert_eq!(w, vec![Warning::UnclosedGameTree { missing: 2 }]);
    }

    #[test]
    fn ff3_identifiers_and_duplicates() {
        let (c, w) = ok("(;AddBlack[aa]AB[bb]PlayerBlack[x])");
        let root = c.games[0].root();
        assert_eq!(root.get("AB").unwrap().values().len(), 2);
        assert_eq!(root.simple_text("PB").as_deref(), Some("x"));
        assert!(
            matches!(&w[0], Warning::LowercaseIdentifier { written, read, .. }
            if written == "AddBlack" && read == "AB")
        );
        assert!(matches!(&w[1], Warning::DuplicateProperty { id, .. } if id == "AB"));
        let (c, _) = ok("(;sz[9])");
        assert!(c.games[0].root().has("SZ"));
    }

    #[test]
    fn text_around_games_and_empty_variations() {
        let (c, w) = ok("Subject: my game\n(;SZ[9]()(;B[aa]))junk");
        assert_eq!(c.games[0].len(), 2);
        assert_eq!(w.len(), 3, "{w:?}");
        assert!(matches!(w[0], Warning::TextOutsideGameTree { at } if at.line == 1));
        assert!(matches!(w[1], Warning::EmptyVariation { .. }));
        assert!(matches!(w[2], Warning::TextOutsideGameTree { .. }));
    }
}
