// The words of the analysis board and the AI review in English and
// Chinese, kept apart from i18n.js: `at(key, vars)` gives the text in the
// language of the settings (the key itself when there is none), through
// i18n.js's one lookup.

import { translate } from './i18n.js';

const en = {
  'nav.analysis': 'Analysis',
  title: 'Analysis board',
  'open.help': 'Open any SGF record: step through it, play your own variations, write comments, download it again.',
  'open.file': 'Upload an SGF file',
  'open.paste': 'or paste the record',
  'open.button': 'Open',
  'open.bad': 'This is no SGF record: {why}',
  error: 'Something went wrong: {message}',
  numbers: 'Move numbers',
  solve: 'Is this group alive?',
  'solve.help': 'Click a stone: the solver says whether its group dies or lives, and by which first moves.',
  'solve.thinking': 'Solving {group}…',
  'solve.or': ' or ',
  'solve.kill.win': '{color} to play kills it: yes, by {moves}',
  'solve.kill.ko': '{color} to play kills it only by a ko, from {moves}',
  'solve.kill.lose': '{color} to play cannot kill it',
  'solve.kill.unknown': '{color} to play kills it? Not settled within the solver’s budget',
  'solve.live.win': '{color} to play saves it: yes, by {moves}',
  'solve.live.ko': '{color} to play saves it only by a ko, from {moves}',
  'solve.live.seki': '{color} to play keeps it only in seki, by {moves}',
  'solve.live.lose': '{color} to play cannot save it',
  'solve.live.unknown': '{color} to play saves it? Not settled within the solver’s budget',
  delete: 'Delete this move and what follows',
  download: 'Download SGF',
  comment: 'A comment on this position',
  start: 'Start',
  pass: 'pass',
  moveInfo: 'Move {n}: {what}',
  'illegal.suicide': 'Suicide is not allowed',
  'illegal.ko': 'Ko: take back elsewhere first',
  'review.title': 'AI review',
  'review.quick': 'Quick review',
  'review.deep': 'Deep review',
  'review.ask.quick': 'Quick AI review',
  'review.ask.deep': 'Deep AI review',
  'review.progress': '{level}: {done}/{total} positions analysed…',
  'review.level': '{level}: {cost}',
  'review.cost.quick': '{visits} visits a position: under a minute for a 250-move 19×19 game',
  'review.cost.deep': '{visits} visits a position: several minutes for a 250-move 19×19 game',
  'review.graph': 'Black’s win rate (0 to 100%) and score lead over the game, moves 0 to {n}',
  'review.graph.winrate': 'Black’s win rate (left axis)',
  'review.graph.lead': 'Black’s score lead (right axis)',
  'review.graph.move': 'Move',
  'review.now': 'Black wins {winrate}% · score {lead} ({zi} 子)',
  'review.mistakes.black': 'Black’s biggest mistakes',
  'review.mistakes.white': 'White’s biggest mistakes',
  'review.mistake': 'Move {n} · {mv}: win rate {winrate}%, score {points} points · engine: {best} ({pv})',
  'review.none': 'None found.',
  'review.error.review_budget': 'You have two reviews waiting: ask again once one is done.',
  'review.error.busy': 'The review queue is full: try again later.',
  'review.error.login_required': 'Log in to ask for a review.',
  'game.analyse': 'Analyse',
  estimate: 'Estimate (形势判断)',
  'estimate.score': 'Estimate: {lead} · black {black} 子, white {white} 子',
  'estimate.result': 'Estimate: {lead} ({zi} 子 for black); {left} uses left in this game',
  'estimate.error.estimate_not_allowed': 'Position judgement is not allowed in a rated game.',
  'estimate.error.estimate_limit': 'You have used all your position judgements in this game.',
  'estimate.error.busy': 'The server is busy: try again in a moment.',
};

const zh = {
  'nav.analysis': '研究',
  title: '研究棋盘',
  'open.help': '打开任意SGF棋谱：逐手查看，摆自己的变化，写评论，再下载。',
  'open.file': '上传SGF文件',
  'open.paste': '或粘贴棋谱',
  'open.button': '打开',
  'open.bad': '这不是SGF棋谱：{why}',
  error: '出错了：{message}',
  numbers: '显示手数',
  solve: '死活：点一块棋',
  'solve.help': '点击一子：解题器判断这块棋的死活，并给出所有成立的第一手。',
  'solve.thinking': '计算{group}…',
  'solve.or': '、',
  'solve.kill.win': '{color}先净杀（{moves}）',
  'solve.kill.ko': '{color}先劫杀（{moves}）',
  'solve.kill.lose': '{color}先杀不掉',
  'solve.kill.unknown': '{color}先杀：未能在限定计算量内算清',
  'solve.live.win': '{color}先净活（{moves}）',
  'solve.live.ko': '{color}先劫活（{moves}）',
  'solve.live.seki': '{color}先双活（{moves}）',
  'solve.live.lose': '{color}先活不了',
  'solve.live.unknown': '{color}先活：未能在限定计算量内算清',
  delete: '删除此手及其后变化',
  download: '下载SGF棋谱',
  comment: '本局面的评论',
  start: '开局',
  pass: '停一手',
  moveInfo: '第{n}手：{what}',
  'illegal.suicide': '禁止自杀',
  'illegal.ko': '劫：须先在别处找劫',
  'review.title': 'AI复盘',
  'review.quick': '快速复盘',
  'review.deep': '深度复盘',
  'review.ask.quick': '快速AI复盘',
  'review.ask.deep': '深度AI复盘',
  'review.progress': '{level}：已分析{done}/{total}个局面…',
  'review.level': '{level}：{cost}',
  'review.cost.quick': '每个局面搜索{visits}次：250手的19路对局不到一分钟',
  'review.cost.deep': '每个局面搜索{visits}次：250手的19路对局需要几分钟',
  'review.graph': '全局黑方胜率（0至100%）与领先目数曲线，第0手至第{n}手',
  'review.graph.winrate': '黑方胜率（左轴）',
  'review.graph.lead': '黑方领先目数（右轴）',
  'review.graph.move': '手数',
  'review.now': '黑胜率{winrate}% · 形势{lead}（{zi}子）',
  'review.mistakes.black': '黑方最大失误',
  'review.mistakes.white': '白方最大失误',
  'review.mistake': '第{n}手 {mv}：胜率{winrate}%，目数{points}目 · AI推荐：{best}（{pv}）',
  'review.none': '未发现。',
  'review.error.review_budget': '你已有两个复盘在排队，完成后再申请。',
  'review.error.busy': '复盘队列已满，请稍后再试。',
  'review.error.login_required': '登录后才能申请复盘。',
  'game.analyse': '研究',
  estimate: '形势判断',
  'estimate.score': '形势：{lead} · 黑{black}子，白{white}子',
  'estimate.result': '形势：{lead}（黑{zi}子）；本局还可用{left}次',
  'estimate.error.estimate_not_allowed': '升降级（计分）对局中不能使用形势判断。',
  'estimate.error.estimate_limit': '本局的形势判断次数已用完。',
  'estimate.error.busy': '服务器繁忙，请稍后再试。',
};

/** Who leads by how much: `B+2.5`, `W+0.5`. */
export function leadText(blackLead) {
  return blackLead >= 0 ? `B+${blackLead.toFixed(1)}` : `W+${(-blackLead).toFixed(1)}`;
}

/** A move as the engine writes it (`D4`, `pass`), a pass in the language of the settings. */
export function moveName(gtp) {
  return gtp === 'pass' ? at('pass') : gtp;
}

/** The text of `key` with `{name}` filled in from `vars`. */
export const at = (key, vars) => translate({ en, zh }, key, vars);

/** Every key, for the test that both languages have them all. */
export const keys = { en: Object.keys(en), zh: Object.keys(zh) };
