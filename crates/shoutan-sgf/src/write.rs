//! SGF text from a [`Collection`]: the root on its own lines, moves packed
//! into lines of at most 79 characters (values are never split), each
//! variation on a new line. Reading the text back gives the same tree.

use crate::tree::{Collection, GameTree, Node, NodeId};

const WIDTH: usize = 79;

impl Collection {
    /// The collection as SGF text.
    ///
    /// ```
    /// use shoutan_sgf::parse;
    /// let (c, _) = parse("( ;GM[1]SZ[9] ;B[ee] (;W[cc]) (;W[gg]) )").unwrap();
    /// assert_eq!(c.to_sgf(), "(;GM[1]SZ[9]\n;B[ee]\n(;W[cc])\n(;W[gg]))\n");
    /// ```
    #[must_use]
    pub fn to_sgf(&self) -> String {
        let mut out = Writer::default();
        for tree in &self.games {
            out.tree(tree);
        }
        out.text
    }
}

impl GameTree {
    /// This game alone as SGF text.
    #[must_use]
    pub fn to_sgf(&self) -> String {
        let mut out = Writer::default();
        out.tree(self);
        out.text
    }
}

#[derive(Default)]
struct Writer {
    text: String,
    /// Characters on the current line.
    column: usize,
}

enum Step {
    Open,
    Sequence(NodeId),
    Close,
}

impl Writer {
    fn tree(&mut self, tree: &GameTree) {
        self.push("(");
        self.node(tree.root(), true);
        self.newline();
        let mut steps = vec![Step::Close];
        steps.extend(first_steps(tree, GameTree::ROOT));
        while let Some(step) = steps.pop() {
            match step {
                Step::Open => {
                    self.newline();
                    self.push("(");
                }
                Step::Close => self.push(")"),
                Step::Sequence(mut id) => loop {
                    self.node(tree.node(id), false);
                    match tree.children(id) {
                        [only] => id = *only,
                        _ => {
                            steps.extend(first_steps(tree, id));
                            break;
                        }
                    }
                },
            }
        }
        self.newline();
    }

    fn node(&mut self, node: &Node, root: bool) {
        let mut chunks = node.properties().iter().map(|p| {
            let mut s = String::from(p.id());
            for v in p.values() {
                s.push('[');
                s.push_str(v.raw());
                s.push(']');
            }
            s
        });
        let first = chunks.next().unwrap_or_default();
        self.wrap(1 + first.len());
        self.push(";");
        self.push(&first);
        for chunk in chunks {
            if root && is_root_line_break(&chunk) {
                self.newline();
            }
            self.wrap(chunk.len());
            self.push(&chunk);
        }
    }

    fn wrap(&mut self, len: usize) {
        if self.column > 0 && self.column + len > WIDTH {
            self.newline();
        }
    }

    fn newline(&mut self) {
        if self.column > 0 {
            self.text.push('\n');
            self.column = 0;
        }
    }

    fn push(&mut self, s: &str) {
        self.text.push_str(s);
        match s.rfind('\n') {
            Some(i) => self.column = s[i + 1..].chars().count(),
            None => self.column += s.chars().count(),
        }
    }
}

/// The steps for the children of `id`, ready to push: a lone child goes on
/// in the same sequence; several open one variation each.
fn first_steps(tree: &GameTree, id: NodeId) -> Vec<Step> {
    match tree.children(id) {
        [] => Vec::new(),
        [only] => vec![Step::Sequence(*only)],
        several => several
            .iter()
            .rev()
            .flat_map(|&c| [Step::Close, Step::Sequence(c), Step::Open])
            .collect(),
    }
}

/// Players, result and other game information start their own line in the
/// root, as editors show them.
fn is_root_line_break(chunk: &str) -> bool {
    ["PB[", "RE[", "AB[", "AW[", "C[", "GC["]
        .iter()
        .any(|p| chunk.starts_with(p))
}

#[cfg(test)]
mod tests {
    use crate::parse;

    fn round_trip(text: &str) {
        let (first, _) = parse(text).unwrap();
        let written = first.to_sgf();
        let (second, warnings) = parse(&written).unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(first, second, "{written}");
    }

    #[test]
    fn reading_the_written_text_gives_the_same_tree() {
        round_trip(
            "(;GM[1]SZ[19]C[a \\] b\nc];B[pd];W[dd](;B[pp](;W[dp])(;W[dq]))(;B[qq]XZ[private][two]))",
        );
        round_trip("(;GM[1])(;GM[1];B[aa])");
    }

    #[test]
    fn long_main_lines_wrap_and_deep_nests_need_no_recursion() {
        let mut line = String::from("(;SZ[19]");
        for i in 0..5_000 {
            line.push_str(if i % 2 == 0 { ";B[aa]" } else { ";W[bb]" });
        }
        line.push(')');
        let (c, _) = parse(&line).unwrap();
        assert!(c.to_sgf().lines().all(|l| l.chars().count() <= 79));
        round_trip(&line);
        // Every node has two children: a nest 20 000 variations deep.
        let depth = 20_000;
        let nest = format!(
            "(;SZ[19]{};B[zz]{})",
            ";B[aa](".repeat(depth),
            ")(;W[cc])".repeat(depth)
        );
        round_trip(&nest);
    }

    #[test]
    fn a_long_comment_is_not_split() {
        let comment = "x".repeat(200);
        let (c, _) = parse(&format!("(;SZ[9];B[aa]C[{comment}];W[bb])")).unwrap();
        assert!(c.to_sgf().contains(&comment));
    }
}
