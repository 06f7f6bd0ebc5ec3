//! The SGF game tree, game-independent: nodes of properties with their
//! values exactly as written, variations, collections of several games.
//!
//! Values are kept raw (escapes included), so that properties this crate
//! does not interpret — private ones, other programs' — are written back
//! byte for byte. The nodes of a tree live in one vector (an arena): a long
//! game or a deep nest of variations needs no recursion to read, write,
//! compare or drop.

use std::fmt;

use crate::text::{escape, split_compose, unescape};

/// A property value as SGF writes it between `[` and `]`, escapes included.
///
/// It never holds an unescaped `]` and never ends in a lone `\`, so it can
/// always be written back between brackets.
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct Value(String);

impl Value {
    /// The value holding `text` (escaped as needed).
    ///
    /// ```
    /// use shoutan_sgf::Value;
    /// let v = Value::from_text("a [note]");
    /// assert_eq!(v.raw(), "a [note\\]");
    /// assert_eq!(v.text(), "a [note]");
    /// ```
    #[must_use]
    pub fn from_text(text: &str) -> Value {
        Value(escape(text, false))
    }

    /// A composed value `first:second` (a label `dd:A`, a rectangle `aa:cc`).
    #[must_use]
    pub fn from_compose(first: &str, second: &str) -> Value {
        Value(format!("{}:{}", escape(first, true), escape(second, false)))
    }

    /// The empty value (`[]`: a pass, or "no text").
    #[must_use]
    pub fn empty() -> Value {
        Value(String::new())
    }

    /// Wraps raw text that the parser has checked.
    pub(crate) fn from_raw(raw: String) -> Value {
        Value(raw)
    }

    /// The value as written, escapes included.
    #[must_use]
    pub fn raw(&self) -> &str {
        &self.0
    }

    /// Whether the value is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The value read as SGF `Text` (comments): escapes removed, line
    /// breaks kept as `\n`.
    #[must_use]
    pub fn text(&self) -> String {
        unescape(&self.0, false)
    }

    /// The value read as SGF `SimpleText` (names, dates): as [`text`](Self::text)
    /// with line breaks turned into spaces, trimmed.
    #[must_use]
    pub fn simple_text(&self) -> String {
        unescape(&self.0, true).trim().to_owned()
    }

    /// The two parts of a composed value (`dd:A`), each read as `SimpleText`.
    #[must_use]
    pub fn compose(&self) -> Option<(String, String)> {
        split_compose(&self.0).map(|(a, b)| (unescape(a, true), unescape(b, true)))
    }
}

impl fmt::Debug for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}]", self.0)
    }
}

/// A property identifier that is not one or more capital letters.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not an SGF property identifier (one or more capital letters A–Z)")]
pub struct IdentifierError(pub String);

/// A property: an identifier of capital letters and one or more values.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Property {
    id: String,
    values: Vec<Value>,
}

impl Property {
    /// A property; the identifier must be capital letters (`B`, `KM`,
    /// `XFOX`). Without values it holds one empty value (`AE[]` style
    /// properties need at least one).
    pub fn new(id: &str, values: Vec<Value>) -> Result<Property, IdentifierError> {
        if id.is_empty() || !id.bytes().all(|b| b.is_ascii_uppercase()) {
            return Err(IdentifierError(id.to_owned()));
        }
        Ok(Property::checked(id.to_owned(), values))
    }

    /// A property with an identifier the caller knows is well formed.
    pub(crate) fn checked(id: String, mut values: Vec<Value>) -> Property {
        if values.is_empty() {
            values.push(Value::empty());
        }
        Property { id, values }
    }

    /// The identifier.
    #[must_use]
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The values, at least one.
    #[must_use]
    pub fn values(&self) -> &[Value] {
        &self.values
    }

    /// The first value.
    #[must_use]
    pub fn value(&self) -> &Value {
        &self.values[0]
    }

    pub(crate) fn push_values(&mut self, values: impl IntoIterator<Item = Value>) {
        self.values.extend(values);
    }
}

impl fmt::Debug for Property {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.id)?;
        for v in &self.values {
            write!(f, "{v:?}")?;
        }
        Ok(())
    }
}

/// A node: properties in the order they were written; each identifier at
/// most once.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Node {
    properties: Vec<Property>,
}

impl Node {
    /// A node without properties.
    #[must_use]
    pub fn new() -> Node {
        Node::default()
    }

    /// The properties, in order.
    #[must_use]
    pub fn properties(&self) -> &[Property] {
        &self.properties
    }

    /// The property `id`, if present.
    #[must_use]
    pub fn get(&self, id: &str) -> Option<&Property> {
        self.properties.iter().find(|p| p.id == id)
    }

    /// The first value of `id`, if present.
    #[must_use]
    pub fn value(&self, id: &str) -> Option<&Value> {
        self.get(id).map(Property::value)
    }

    /// The first value of `id` read as `SimpleText`, if present and not blank.
    #[must_use]
    pub fn simple_text(&self, id: &str) -> Option<String> {
        self.value(id)
            .map(Value::simple_text)
            .filter(|t| !t.is_empty())
    }

    /// The first value of `id` read as `Text`, if present and not empty.
    #[must_use]
    pub fn text(&self, id: &str) -> Option<String> {
        self.value(id).map(Value::text).filter(|t| !t.is_empty())
    }

    /// Whether the node has `id`.
    #[must_use]
    pub fn has(&self, id: &str) -> bool {
        self.get(id).is_some()
    }

    /// Sets a property: replaces the one with the same identifier where it
    /// stands, or appends it.
    pub fn set(&mut self, property: Property) {
        match self.properties.iter_mut().find(|p| p.id == property.id) {
            Some(slot) => *slot = property,
            None => self.properties.push(property),
        }
    }

    /// Sets `id` to one text value (escaped as needed).
    pub(crate) fn set_text(&mut self, id: &'static str, text: &str) {
        self.set(Property::checked(
            id.to_owned(),
            vec![Value::from_text(text)],
        ));
    }

    /// Sets `id` to these values.
    pub(crate) fn set_values(&mut self, id: &'static str, values: Vec<Value>) {
        self.set(Property::checked(id.to_owned(), values));
    }

    /// Removes `id` and returns it.
    pub fn remove(&mut self, id: &str) -> Option<Property> {
        let at = self.properties.iter().position(|p| p.id == id)?;
        Some(self.properties.remove(at))
    }

    /// Puts the properties `ids` first, in that order; the others keep theirs.
    pub(crate) fn move_to_front(&mut self, ids: &[&str]) {
        self.properties
            .sort_by_key(|p| ids.iter().position(|id| *id == p.id).unwrap_or(ids.len()));
    }

    /// Adds a property read from a file: values of an identifier already in
    /// the node are appended to it. Returns whether it was a duplicate.
    pub(crate) fn add_merging(&mut self, property: Property) -> bool {
        match self.properties.iter_mut().find(|p| p.id == property.id) {
            Some(existing) => {
                existing.push_values(property.values);
                true
            }
            None => {
                self.properties.push(property);
                false
            }
        }
    }
}

impl fmt::Debug for Node {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(";")?;
        for p in &self.properties {
            write!(f, "{p:?}")?;
        }
        Ok(())
    }
}

/// The handle of a node in its [`GameTree`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(usize);

impl NodeId {
    /// The `i`-th node added to a tree (0 is the root).
    pub(crate) fn from_index(i: usize) -> NodeId {
        NodeId(i)
    }
}

#[derive(Clone, Debug)]
struct Slot {
    node: Node,
    parent: Option<NodeId>,
    children: Vec<NodeId>,
}

/// One game: a root node and the variations below it. The first child of
/// each node is the main line.
#[derive(Clone, Debug)]
pub struct GameTree {
    slots: Vec<Slot>,
}

impl GameTree {
    /// The root's handle.
    pub const ROOT: NodeId = NodeId(0);

    /// A tree of one node.
    #[must_use]
    pub fn new(root: Node) -> GameTree {
        GameTree {
            slots: vec![Slot {
                node: root,
                parent: None,
                children: Vec::new(),
            }],
        }
    }

    /// The root node (game information, setup).
    #[must_use]
    pub fn root(&self) -> &Node {
        &self.slots[0].node
    }

    /// The root node, to change.
    pub fn root_mut(&mut self) -> &mut Node {
        &mut self.slots[0].node
    }

    /// The node `id`.
    ///
    /// # Panics
    /// If `id` belongs to another tree and is out of this one's range.
    #[must_use]
    pub fn node(&self, id: NodeId) -> &Node {
        &self.slots[id.0].node
    }

    /// The node `id`, to change.
    pub fn node_mut(&mut self, id: NodeId) -> &mut Node {
        &mut self.slots[id.0].node
    }

    /// The children of `id`; the first continues the main line.
    #[must_use]
    pub fn children(&self, id: NodeId) -> &[NodeId] {
        &self.slots[id.0].children
    }

    /// The parent of `id` (none for the root).
    #[must_use]
    pub fn parent(&self, id: NodeId) -> Option<NodeId> {
        self.slots[id.0].parent
    }

    /// Adds `node` as the last child of `parent` and returns its handle.
    pub fn add_child(&mut self, parent: NodeId, node: Node) -> NodeId {
        let id = NodeId(self.slots.len());
        self.slots.push(Slot {
            node,
            parent: Some(parent),
            children: Vec::new(),
        });
        self.slots[parent.0].children.push(id);
        id
    }

    /// The number of nodes, variations included.
    #[must_use]
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Always false: a tree has at least its root.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The main line: the root, then each first child.
    pub fn main_line(&self) -> impl Iterator<Item = NodeId> + '_ {
        std::iter::successors(Some(GameTree::ROOT), |&id| {
            self.children(id).first().copied()
        })
    }

    /// The last node of the main line.
    #[must_use]
    pub fn main_line_end(&self) -> NodeId {
        self.main_line().last().unwrap_or(GameTree::ROOT)
    }
}

impl PartialEq for GameTree {
    /// Same nodes in the same shape, whatever the order they were added in.
    fn eq(&self, other: &GameTree) -> bool {
        let mut stack = vec![(GameTree::ROOT, GameTree::ROOT)];
        while let Some((a, b)) = stack.pop() {
            let (ca, cb) = (self.children(a), other.children(b));
            if self.node(a) != other.node(b) || ca.len() != cb.len() {
                return false;
            }
            stack.extend(ca.iter().copied().zip(cb.iter().copied()));
        }
        true
    }
}

impl Eq for GameTree {}

/// The games of one SGF file, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Collection {
    /// The games.
    pub games: Vec<GameTree>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(id: &str, value: &str) -> Node {
        let mut n = Node::new();
        n.set(Property::new(id, vec![Value::from_text(value)]).unwrap());
        n
    }

    #[test]
    fn identifiers_are_capital_letters() {
        assert!(Property::new("KM", vec![]).is_ok());
        assert!(Property::new("XFOXZ", vec![]).is_ok());
        for bad in ["", "km", "K1", "K M"] {
            assert!(Property::new(bad, vec![]).is_err(), "{bad}");
        }
        assert_eq!(Property::new("AE", vec![]).unwrap().values().len(), 1);
    }

    #[test]
    fn main_line_follows_first_children() {
        let mut tree = GameTree::new(node("SZ", "9"));
        let a = tree.add_child(GameTree::ROOT, node("B", "ee"));
        let _variation = tree.add_child(GameTree::ROOT, node("B", "cc"));
        let b = tree.add_child(a, node("W", "dd"));
        let ids: Vec<_> = tree.main_line().collect();
        assert_eq!(ids, vec![GameTree::ROOT, a, b]);
        assert_eq!(tree.main_line_end(), b);
        assert_eq!(tree.parent(b), Some(a));
        assert_eq!(tree.len(), 4);
    }

    #[test]
    fn equality_is_structural() {
        let mut one = GameTree::new(node("SZ", "9"));
        let a = one.add_child(GameTree::ROOT, node("B", "ee"));
        one.add_child(GameTree::ROOT, node("B", "cc"));
        one.add_child(a, node("W", "dd"));
        let mut two = GameTree::new(node("SZ", "9"));
        let a2 = two.add_child(GameTree::ROOT, node("B", "ee"));
        two.add_child(a2, node("W", "dd"));
        assert_ne!(one, two);
        two.add_child(GameTree::ROOT, node("B", "cc"));
        assert_eq!(one, two);
    }

    #[test]
    fn set_replaces_in_place_and_merging_appends() {
        let mut n = node("KM", "6.5");
        n.set_text("PB", "Ke Jie");
        n.set_text("KM", "7.5");
        assert_eq!(n.properties()[0].id(), "KM");
        assert_eq!(n.simple_text("KM").as_deref(), Some("7.5"));
        let dup = Property::new("PB", vec![Value::from_text("x")]).unwrap();
        assert!(n.add_merging(dup));
        assert_eq!(n.get("PB").unwrap().values().len(), 2);
        assert!(n.remove("PB").is_some());
        assert!(!n.has("PB"));
    }
}
