// Pure formatting and clock arithmetic: what a clock shows as time
// passes, the answer to "how much time do I have" (Art. 16.2), counts in
// 子 with their quarters, time controls in Chinese. No DOM, so that the
// unit tests run in Node.

/**
 * A player's clock reading, as the server sends it.
 * @typedef {object} Reading
 * @property {'black' | 'white'} player
 * @property {boolean} running
 * @property {number} main_left
 * @property {{kind: 'none'} | {kind: 'byo_yomi', periods_left: number, period: number, period_left: number}
 *   | {kind: 'moves_per_period', moves_left: number, period_left: number} | {kind: 'per_move', left: number}} overtime
 * @property {number | null} total_left
 */

/**
 * The reading `elapsed` ms after it was taken, if the clock kept running:
 * main time first, then the current period; a byo-yomi period used up
 * gives way to the next one with a full period, the last one stops at 0
 * (the server declares the time-out).
 * @param {Reading} r
 * @param {number} elapsed
 * @returns {Reading}
 */
export function advance(r, elapsed) {
  if (!r.running || elapsed <= 0 || r.total_left === null) return r;
  const fromMain = Math.min(r.main_left, elapsed);
  const rest = elapsed - fromMain;
  const out = { ...r, main_left: r.main_left - fromMain, total_left: Math.max(0, r.total_left - elapsed) };
  const ot = r.overtime;
  if (ot.kind === 'byo_yomi' && rest > 0) {
    let periods = ot.periods_left;
    let left = ot.period_left - rest;
    while (left <= 0 && periods > 1) {
      periods -= 1;
      left += ot.period;
    }
    out.overtime = { ...ot, periods_left: periods, period_left: Math.max(0, left) };
  } else if (ot.kind === 'moves_per_period' && rest > 0) {
    out.overtime = { ...ot, period_left: Math.max(0, ot.period_left - rest) };
  } else if (ot.kind === 'per_move') {
    out.overtime = { ...ot, left: Math.max(0, ot.left - elapsed) };
  }
  return out;
}

/** Whether the reading is in overtime (byo-yomi or the periods of moves-per-period). */
export function inOvertime(r) {
  return r.main_left <= 0 && (r.overtime.kind === 'byo_yomi' || r.overtime.kind === 'moves_per_period');
}

/**
 * A duration on a clock face: `1:05:09`, `4:07`, and tenths below ten
 * seconds when `tenths` (`7.3`). Rounds down: never shows more than is left.
 */
export function clockFace(ms, tenths = false) {
  const t = Math.max(0, ms);
  if (tenths && t < 10_000) return (Math.floor(t / 100) / 10).toFixed(1);
  const total = Math.floor(t / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const sec = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

/**
 * The time left in a byo-yomi period as shown: a period that is not the
 * last counts down to 1 second (rounded up), never 0 — the next period
 * follows; the last rounds down like every other clock (the clock crate's
 * `Reading` words it the same way).
 */
export function shownPeriodLeft(ot) {
  return ot.periods_left > 1 ? Math.ceil(ot.period_left / 1000) * 1000 : ot.period_left;
}

/** The clock face of a byo-yomi period: `0:30` … `0:01`, tenths in the last period below ten seconds. */
export function byoYomiFace(ot) {
  return clockFace(shownPeriodLeft(ot), ot.periods_left === 1);
}

/** Seconds as people say them: `30s` / `30秒`, `1 min` / `1分钟`. */
function durationText(ms, lang) {
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const sec = total % 60;
  const parts = [];
  if (lang === 'zh') {
    if (h) parts.push(`${h}小时`);
    if (m) parts.push(`${m}分${sec || h ? '' : '钟'}`);
    if (sec || !parts.length) parts.push(`${sec}秒`);
    return parts.join('');
  }
  if (h) parts.push(`${h}h`);
  if (m) parts.push(`${m} min`);
  if (sec || !parts.length) parts.push(`${sec}s`);
  return parts.join(' ');
}

/**
 * The answer to "how much time do I have" (Art. 16.2), as the server's
 * clock words it: `byo-yomi: 2 periods of 60s left, 0:25 left in this one`,
 * `读秒：还剩2分，本次还剩25秒`.
 * @param {Reading} r
 * @param {'zh' | 'en'} lang
 */
export function timeAnswer(r, lang) {
  const zh = lang === 'zh';
  if (r.total_left === null) return zh ? '不计时' : 'no time limit';
  if (r.total_left <= 0) return zh ? '超时' : 'out of time';
  const ot = r.overtime;
  const main = zh ? durationText(r.main_left, 'zh') : clockFace(r.main_left);
  const over = inOvertime(r);
  switch (ot.kind) {
    case 'none':
      return zh ? `还剩${main}` : `${main} left`;
    case 'byo_yomi': {
      const minute = ot.period === 60_000;
      const periodSecs = Math.round(ot.period / 1000);
      if (!over) {
        return zh
          ? `基本用时还剩${main}，之后读秒${ot.periods_left}次${periodSecs}秒`
          : `${main} main time, then ${ot.periods_left}×${periodSecs}s byo-yomi`;
      }
      if (ot.periods_left === 1) {
        return zh
          ? `读秒：${minute ? '最后1分钟' : '最后一次'}，还剩${durationText(ot.period_left, 'zh')}`
          : `byo-yomi: last period, ${clockFace(ot.period_left)} left`;
      }
      return zh
        ? `读秒：还剩${ot.periods_left}${minute ? '分' : '次'}，本次还剩${durationText(shownPeriodLeft(ot), 'zh')}`
        : `byo-yomi: ${ot.periods_left} periods of ${periodSecs}s left, ${clockFace(shownPeriodLeft(ot))} left in this one`;
    }
    case 'moves_per_period': {
      if (zh) {
        return over
          ? `本节还剩${ot.moves_left}手，${durationText(ot.period_left, 'zh')}`
          : `基本用时还剩${main}，之后${durationText(ot.period_left, 'zh')}${ot.moves_left}手`;
      }
      const period = `${ot.moves_left} ${ot.moves_left === 1 ? 'move' : 'moves'} in ${clockFace(ot.period_left)}`;
      return over ? period : `${main} main time, then ${period}`;
    }
    case 'per_move':
      return zh ? `本步还剩${durationText(ot.left, 'zh')}` : `${clockFace(ot.left)} for this move`;
    default:
      return '';
  }
}

const QUARTERS = ['', '1/4', '1/2', '3/4'];

/**
 * A count in 子 with its quarters, the Chinese way: `3/4`, `1又1/4`, `185`,
 * `184又1/2`.
 */
export function ziText(zi) {
  const quarters = Math.round(Math.abs(zi) * 4);
  const whole = Math.floor(quarters / 4);
  const frac = QUARTERS[quarters % 4];
  const sign = zi < 0 ? '-' : '';
  if (!frac) return `${sign}${whole}`;
  return whole ? `${sign}${whole}又${frac}` : `${sign}${frac}`;
}

/**
 * A rank as players of the language write it: the server's `5k`, `3d`,
 * `9p` in English; `5级`, `3段`, `职业9段` in Chinese. A provisional mark
 * (`5k?`) is kept; anything else is shown as it is.
 */
export function rankText(rank, lang) {
  const m = /^(\d+)([kdp])(\??)$/.exec(rank ?? '');
  if (lang !== 'zh' || !m) return rank;
  const [, n, unit, mark] = m;
  return `${unit === 'p' ? '职业' : ''}${n}${unit === 'k' ? '级' : '段'}${mark}`;
}

/**
 * A change with its sign, to `digits` decimals: `+1.4`, `−13.0` (with a
 * true minus sign), `0.0` when it rounds to nothing.
 */
export function signedText(value, digits = 1) {
  const text = Math.abs(value).toFixed(digits);
  if (Number(text) === 0) return text;
  return `${value < 0 ? '−' : '+'}${text}`;
}

/** Who leads by how much: `B+2.5`, `W+0.5`. */
export function leadText(blackLead) {
  return blackLead >= 0 ? `B+${blackLead.toFixed(1)}` : `W+${(-blackLead).toFixed(1)}`;
}

/** Points with at most one decimal: `7.5`, `0`, `-2`. */
export function pointsText(points) {
  return String(Math.round(points * 2) / 2);
}

/**
 * A time control in a few characters, for lists: `10m+3×30s`,
 * `10m+15/10m`, `5m+10s`, `30s/move`, `60m`, `∞`; Chinese units in Chinese.
 */
export function timeControlShort(text, lang) {
  const zh = lang === 'zh';
  const dur = (d) => {
    const m = /^(?:(\d+)h)? ?(?:(\d+) ?min)? ?(?:(\d+(?:\.\d+)?)s)?$/.exec(d.trim());
    if (!m) return d.trim();
    const [, h, min, sec] = m;
    const parts = [];
    if (h) parts.push(`${h}${zh ? '小时' : 'h'}`);
    if (min) parts.push(`${min}${zh ? '分' : 'm'}`);
    if (sec) parts.push(`${sec}${zh ? '秒' : 's'}`);
    return parts.join('');
  };
  let m;
  if (!text || text === 'no clock') return '∞';
  if ((m = /^absolute (.+)$/.exec(text))) return dur(m[1]);
  if ((m = /^(.+) per move$/.exec(text))) return `${dur(m[1])}/${zh ? '步' : 'move'}`;
  if ((m = /^(?:(.+) \+ )?(\d+)×(\S+) byo-yomi$/.exec(text))) return `${m[1] ? `${dur(m[1])}+` : ''}${m[2]}×${dur(m[3])}`;
  if ((m = /^(.+) \+ (\S+) Fischer/.exec(text))) return `${dur(m[1])}+${dur(m[2])}`;
  if ((m = /^(?:(.+) \+ )?(\d+) moves? \/ (.+?)(?: \(carry over\))?$/.exec(text))) return `${m[1] ? `${dur(m[1])}+` : ''}${m[2]}/${dur(m[3])}`;
  return text;
}

/** The name of a time control's system, from its text. */
export function timeSystem(text) {
  if (!text || text === 'no clock') return 'none';
  if (text.startsWith('absolute')) return 'absolute';
  if (text.endsWith('per move')) return 'per_move';
  if (text.endsWith('byo-yomi')) return 'byo_yomi';
  if (text.includes('Fischer')) return 'fischer';
  return 'moves_per_period';
}

/** A date and time in the viewer's language. */
export function dateText(ms, lang) {
  return new Date(ms).toLocaleString(lang === 'zh' ? 'zh-CN' : 'en-GB', {
    year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit',
  });
}

/**
 * A browser's User-Agent said short: `Chrome 126 · Windows`; the text as
 * it is when neither the browser nor the system is recognised.
 */
export function clientName(agent) {
  const browsers = [[/Edg\/(\d+)/, 'Edge'], [/OPR\/(\d+)/, 'Opera'], [/Firefox\/(\d+)/, 'Firefox'],
    [/(?:Headless)?Chrome\/(\d+)/, 'Chrome'], [/Version\/(\d+)[\d.]* .*Safari/, 'Safari']];
  const systems = [[/Windows/, 'Windows'], [/iPhone|iPad/, 'iOS'], [/Android/, 'Android'], [/Mac OS X/, 'macOS'], [/CrOS/, 'ChromeOS'], [/Linux/, 'Linux']];
  const browser = browsers.map(([re, name]) => [re.exec(agent), name]).find(([m]) => m);
  const system = systems.find(([re]) => re.test(agent));
  if (!browser && !system) return agent;
  return [browser ? `${browser[1]} ${browser[0][1]}` : null, system?.[1]].filter(Boolean).join(' · ');
}
