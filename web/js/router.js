// Pages by path, with the History API: `/`, `/game/42`, `/player/name`.
// The server answers every path that is no file with index.html, so a
// reload or a shared link opens the same page.

/** @typedef {(root: HTMLElement, params: Record<string, string>) => (() => void) | void} Page */

/** @type {[RegExp, string[], Page][]} */
let routes = [];
/** @type {Page} */
let notFound = () => {};
let root = /** @type {HTMLElement | null} */ (null);
let leave = /** @type {(() => void) | void} */ (undefined);
const listeners = new Set();

/** Opens the page of `path` and records it in the history. */
export function navigate(path, { replace = false } = {}) {
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  show();
}

/** Calls `fn` with the path after each page change. */
export function onNavigate(fn) {
  listeners.add(fn);
}

function show() {
  if (!root) return;
  if (typeof leave === 'function') leave();
  const path = location.pathname;
  for (const [pattern, names, page] of routes) {
    const m = pattern.exec(path);
    if (m) {
      const params = Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1])]));
      leave = page(root, params);
      for (const fn of listeners) fn(path);
      window.scrollTo(0, 0);
      return;
    }
  }
  leave = notFound(root, {});
  for (const fn of listeners) fn(path);
}

/** Shows the current page, then follows links marked `data-link` and the back button. */
export function startRouter(el, table, fallback) {
  root = el;
  routes = table;
  notFound = fallback;
  document.addEventListener('click', (e) => {
    const a = /** @type {HTMLElement} */ (e.target).closest?.('a[data-link]');
    if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const url = new URL(/** @type {HTMLAnchorElement} */ (a).href);
    if (url.origin !== location.origin) return;
    e.preventDefault();
    if (url.pathname !== location.pathname) navigate(url.pathname);
  });
  addEventListener('popstate', show);
  show();
}
