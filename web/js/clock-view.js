// One player's clock: the main time, then the period (byo-yomi: periods
// left; moves per period: moves left), counted down smoothly from the
// server's last reading, and the timekeeper's last call.

import { h } from './dom.js';
import { t } from './i18n.js';
import { advance, byoYomiFace, clockFace, inOvertime } from './format.js';

export class ClockView {
  /** @param {'black' | 'white'} color */
  constructor(color) {
    this.color = color;
    this.face = h('span.clock-face', { dataset: { clock: color } });
    this.detail = h('span.clock-detail');
    this.call = h('span.clock-call', { 'aria-live': 'assertive', dataset: { call: color } });
    this.el = h('div.clock', { dataset: { color } }, this.face, this.detail, this.call);
    this.callTimer = 0;
    this.shown = '';
  }

  /**
   * Shows the reading as it stands `elapsed` ms after it was taken.
   * @param {import('./format.js').Reading | null} reading
   * @param {number} elapsed
   */
  update(reading, elapsed) {
    if (!reading || reading.total_left === null) {
      this.el.hidden = true;
      return;
    }
    this.el.hidden = false;
    const r = advance(reading, elapsed);
    const ot = r.overtime;
    if (r.total_left <= 0) {
      this.show(clockFace(0), t('clock.out'), r.running, true);
      return;
    }
    const over = inOvertime(r);
    let face;
    let detail = '';
    let low = false;
    switch (ot.kind) {
      case 'byo_yomi': {
        const secs = Math.round(ot.period / 1000);
        if (over) {
          face = byoYomiFace(ot);
          detail = ot.periods_left === 1 ? t('clock.last') : `${t('clock.byoyomi')} ${t('clock.periods', { n: ot.periods_left, period: `${secs}s` })}`;
          low = ot.period_left < 10_000 || ot.periods_left === 1;
        } else {
          face = clockFace(r.main_left);
          detail = `+ ${t('clock.periods', { n: ot.periods_left, period: `${secs}s` })}`;
        }
        break;
      }
      case 'moves_per_period':
        if (over) {
          face = clockFace(ot.period_left, true);
          detail = t('clock.moves', { n: ot.moves_left });
          low = ot.period_left < 10_000 * Math.max(1, ot.moves_left);
        } else {
          face = clockFace(r.main_left);
          detail = `+ ${t('clock.moves', { n: ot.moves_left })} / ${clockFace(ot.period_left)}`;
        }
        break;
      case 'per_move':
        face = clockFace(ot.left, true);
        low = ot.left < 10_000;
        break;
      default:
        face = clockFace(r.main_left, true);
        low = r.main_left < 20_000;
    }
    this.show(face, detail, r.running, low);
  }

  show(face, detail, running, low) {
    const state = `${face}|${detail}|${running}|${low}`;
    if (state === this.shown) return;
    this.shown = state;
    this.face.textContent = face;
    this.detail.textContent = detail;
    this.el.classList.toggle('running', running);
    this.el.classList.toggle('low', low && running);
  }

  /** Shows a byo-yomi call for a moment. */
  showCall(text) {
    this.call.textContent = text;
    this.call.classList.remove('flash');
    void this.call.offsetWidth;
    this.call.classList.add('flash');
    clearTimeout(this.callTimer);
    this.callTimer = setTimeout(() => {
      this.call.classList.remove('flash');
    }, 2500);
  }
}
