// Icons drawn as SVG paths (24×24), so that no icon font or emoji font is
// needed.

import { h, s } from './dom.js';

const PATHS = {
  first: 'M6 5h2v14H6zM20 5v14L9.5 12z',
  prev: 'M17 5v14L6.5 12z',
  next: 'M7 5v14l10.5-7z',
  last: 'M16 5h2v14h-2zM4 5v14l10.5-7z',
  eye: 'M12 5C6.5 5 2.7 9.3 1.5 12c1.2 2.7 5 7 10.5 7s9.3-4.3 10.5-7C21.3 9.3 17.5 5 12 5zm0 11.5a4.5 4.5 0 1 1 0-9 4.5 4.5 0 0 1 0 9zm0-2.3a2.2 2.2 0 1 0 0-4.4 2.2 2.2 0 0 0 0 4.4z',
  gear: 'M19.4 13a7.6 7.6 0 0 0 0-2l2.1-1.6-2-3.5-2.5 1a7.4 7.4 0 0 0-1.7-1L15 3.3h-4l-.4 2.6a7.4 7.4 0 0 0-1.7 1l-2.5-1-2 3.5L6.6 11a7.6 7.6 0 0 0 0 2l-2.1 1.6 2 3.5 2.5-1a7.4 7.4 0 0 0 1.7 1l.4 2.6h4l.4-2.6a7.4 7.4 0 0 0 1.7-1l2.5 1 2-3.5zM13 15.5a3.5 3.5 0 1 1 0-7 3.5 3.5 0 0 1 0 7z',
  menu: 'M3 6h18v2H3zM3 11h18v2H3zM3 16h18v2H3z',
  download: 'M11 4h2v9l3.5-3.5 1.4 1.4L12 16.8l-5.9-5.9 1.4-1.4L11 13zM5 18h14v2H5z',
};

/** An icon by name. */
export function icon(name) {
  return s('svg', { class: `icon icon-${name}`, viewBox: '0 0 24 24', width: 18, height: 18, 'aria-hidden': 'true', fill: 'currentColor' },
    s('path', { d: PATHS[name] }));
}

/**
 * A button showing icon `name` alone: `label` names it to screen readers
 * and in its tooltip (an icon drawn as a path needs no symbol font).
 * @param {string} spec  the button's tag and classes, as `h` takes them
 * @param {Record<string, any>} [attrs]
 */
export function iconButton(spec, name, label, attrs) {
  return h(spec, { type: 'button', title: label, 'aria-label': label, ...attrs }, icon(name));
}
