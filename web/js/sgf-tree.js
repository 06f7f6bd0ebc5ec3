// SGF in the browser, for the analysis board: the text read into a tree of
// nodes (each a map of property → values, and its children), and written
// back. Every property is kept as written, known or not, so that a record
// downloaded again loses nothing but what the user deleted. The server's
// Rust reader (shoutan-sgf) remains the authority on records it stores.

/** @typedef {{props: Map<string, string[]>, children: SgfNode[], parent: SgfNode | null}} SgfNode */

/** A node with `props`, under `parent`. @returns {SgfNode} */
export function node(parent = null, props = new Map()) {
  return { props, children: [], parent };
}

/** Why a text is no SGF: where and what. */
export class SgfError extends Error {}

/**
 * The first game tree of an SGF text.
 * @param {string} text
 * @returns {SgfNode} the root
 */
export function parseSgf(text) {
  let i = text.indexOf('(');
  if (i < 0) throw new SgfError('no game tree: an SGF record starts with "(;"');
  /** @type {SgfNode | null} */
  let root = null;
  /** @type {SgfNode | null} */
  let current = null;
  /** The node each open parenthesis branches from. */
  const stack = [];
  const space = () => { while (i < text.length && /\s/.test(text[i])) i++; };
  while (i < text.length) {
    space();
    const ch = text[i];
    if (ch === '(') {
      stack.push(current);
      i++;
    } else if (ch === ')') {
      if (!stack.length) throw new SgfError(`unbalanced ")" at character ${i}`);
      current = stack.pop();
      i++;
      if (!stack.length) break;
    } else if (ch === ';') {
      i++;
      const made = node(current);
      if (current) current.children.push(made);
      else if (root) throw new SgfError('a second root node');
      else root = made;
      current = made;
    } else if (/[A-Za-z]/.test(ch)) {
      if (!current) throw new SgfError(`a property before the first node at character ${i}`);
      let id = '';
      while (i < text.length && /[A-Za-z]/.test(text[i])) {
        if (/[A-Z]/.test(text[i])) id += text[i];
        i++;
      }
      const values = [];
      space();
      while (text[i] === '[') {
        i++;
        let value = '';
        while (i < text.length && text[i] !== ']') {
          if (text[i] === '\\' && i + 1 < text.length) {
            value += text[i] + text[i + 1];
            i += 2;
          } else {
            value += text[i++];
          }
        }
        if (i >= text.length) throw new SgfError('a value without its "]"');
        i++;
        values.push(value);
        space();
      }
      if (!values.length) throw new SgfError(`property ${id} has no value`);
      current.props.set(id, [...(current.props.get(id) ?? []), ...values]);
    } else if (i < text.length) {
      throw new SgfError(`unexpected ${JSON.stringify(ch)} at character ${i}`);
    }
  }
  if (!root) throw new SgfError('no node: an SGF record starts with "(;"');
  return root;
}

/** The text of a value (escapes removed, soft line breaks joined). */
export function unescapeText(raw) {
  return raw.replace(/\\\r?\n/g, '').replace(/\\(.)/gs, '$1');
}

/** A text as a value. */
export function escapeText(text) {
  return text.replace(/[\]\\]/g, (c) => `\\${c}`);
}

/** The record of a tree, main line first, each node on its own line. */
export function writeSgf(root) {
  const props = (n) => [...n.props].map(([id, values]) => id + values.map((v) => `[${v}]`).join('')).join('');
  let out = '(';
  // A stack of nodes and literal parentheses: a long game needs no deep recursion.
  /** @type {(SgfNode | string)[]} */
  const stack = [root];
  while (stack.length) {
    const item = stack.pop();
    if (typeof item === 'string') {
      out += item;
      continue;
    }
    out += `;${props(item)}\n`;
    if (item.children.length === 1) {
      stack.push(item.children[0]);
    } else {
      for (let k = item.children.length - 1; k >= 0; k--) stack.push(')', item.children[k], '(');
    }
  }
  return `${out})\n`;
}

/** A point in SGF's letters (`dd`), or null for a pass or a point off the board. */
export function sgfPoint(size, value) {
  if (!value || (value === 'tt' && size <= 19)) return null;
  const x = value.charCodeAt(0) - 97;
  const y = value.charCodeAt(1) - 97;
  if (value.length !== 2 || x < 0 || y < 0 || x >= size || y >= size) return null;
  return { x, y };
}

/** SGF's letters of a point. */
export function sgfLetters(x, y) {
  return String.fromCharCode(97 + x) + String.fromCharCode(97 + y);
}

/** The move of a node: `{color, point}` (point null for a pass), or null. */
export function moveOf(n, size) {
  for (const [id, color] of [['B', 'black'], ['W', 'white']]) {
    const v = n.props.get(id);
    if (v) return { color, point: sgfPoint(size, v[0]) };
  }
  return null;
}

/** The path from the root to `n`, the root first. */
export function pathTo(n) {
  const path = [];
  for (let at = n; at; at = at.parent) path.unshift(at);
  return path;
}
