// The client starts here: the header, the pages, the settings applied to
// the document, and who is logged in.

import { accountPage } from './account-page.js';
import { analysisPage } from './analysis-page.js';
import { authDialog, settingsDialog } from './dialogs.js';
import { h, replace } from './dom.js';
import { eventListPage } from './event-list-page.js';
import { eventPage } from './event-page.js';
import { eventSheetPage } from './event-sheet-page.js';
import { icon } from './icons.js';
import { gamePage } from './game-page.js';
import { ratingRankName, t } from './i18n.js';
import { lobbyPage } from './lobby-page.js';
import { moderationPage } from './moderation-page.js';
import { renderNoticeBanner, refreshNotices, startNoticeBanner } from './notice-banner.js';
import { passwordResetPage } from './password-reset-page.js';
import { problemPage, problemSetPage, problemsPage } from './problems-page.js';
import { profilePage } from './profile-page.js';
import { proverbsPage } from './proverbs-page.js';
import { watchRelations } from './relations.js';
import { simulPage } from './simul-page.js';
import { onNavigate, startRouter } from './router.js';
import { isModerator, loadSession, logout, onSession, session } from './session.js';
import { onChange, settings, update } from './settings.js';
import { unlockAudio } from './sound.js';
import { toast } from './ui.js';

const header = document.getElementById('top');
const main = document.getElementById('main');
/** What moderators told the player, under the header on every page. */
const standing = h('div.standing', { dataset: { role: 'standing' }, 'aria-live': 'polite' });
main.before(standing);

/** The page colours, language and skins on the document. */
function applyDocument() {
  const root = document.documentElement;
  root.lang = settings.lang === 'zh' ? 'zh-CN' : 'en';
  root.dataset.theme = settings.theme;
}

function renderHeader() {
  header.classList.remove('menu-open');
  const user = session.user;
  const path = location.pathname;
  const nav = (href, label, active) => h('a.nav-link', { href, dataset: { link: '' }, class: active ? 'active' : '' }, label);
  const navTo = (name, href, label, active) => h('a.nav-link', { href, dataset: { link: '', nav: name }, class: active ? 'active' : '' }, label);
  replace(header,
    h('a.brand', { href: '/', dataset: { link: '' }, 'aria-label': 'Shoutan' },
      h('span.seal', { 'aria-hidden': 'true' }, '手谈'),
      h('span.brand-name', null, 'Shoutan'),
      h('span.brand-tag', null, t('app.tagline'))),
    // On a phone the navigation folds into this menu (with Log out); each
    // page shown draws the header again, closed.
    h('button.icon-button.menu-toggle', {
      type: 'button', title: t('nav.menu'), 'aria-label': t('nav.menu'), 'aria-expanded': 'false', 'aria-controls': 'main-nav',
      dataset: { action: 'menu' },
      onclick: (e) => {
        const open = header.classList.toggle('menu-open');
        e.currentTarget.setAttribute('aria-expanded', String(open));
      },
    }, icon('menu')),
    h('nav.main-nav', { id: 'main-nav' },
      nav('/', t('nav.play'), path === '/'),
      nav('/events', t('nav.events'), path.startsWith('/events')),
      nav('/analysis', t('nav.analysis'), path === '/analysis'),
      navTo('problems', '/problems', t('nav.problems'), path.startsWith('/problems')),
      user ? nav(`/player/${encodeURIComponent(user.name)}`, t('nav.profile'), path === `/player/${encodeURIComponent(user.name)}`) : null,
      user ? navTo('account', '/account', t('nav.account'), path === '/account') : null,
      isModerator() ? navTo('moderation', '/moderation', t('nav.moderation'), path === '/moderation') : null,
      user ? h('button.nav-link.menu-only', { type: 'button', dataset: { action: 'menu-logout' }, onclick: logout }, t('nav.logout')) : null),
    h('div.header-tools', null,
      h('button.icon-button.lang', {
        type: 'button', title: t('settings.lang'), dataset: { action: 'lang' },
        onclick: () => update({ lang: settings.lang === 'zh' ? 'en' : 'zh', voiceLang: settings.lang === 'zh' ? 'en' : 'zh' }),
      }, settings.lang === 'zh' ? 'EN' : '中'),
      h('button.icon-button', { type: 'button', title: t('nav.settings'), 'aria-label': t('nav.settings'), dataset: { action: 'settings' }, onclick: settingsDialog }, icon('gear')),
      user
        ? h('div.user-menu', null,
          h('a.user-chip', { href: `/player/${encodeURIComponent(user.name)}`, dataset: { link: '', user: user.name } },
            h('span.avatar.small', { 'aria-hidden': 'true' }, user.name.slice(0, 1).toUpperCase()),
            h('span.name', null, user.name),
            h('span.rank', { dataset: { role: 'my-rank' } }, ratingRankName(user.rating))),
          h('button.ghost.small', { type: 'button', dataset: { action: 'logout' }, onclick: async () => { await logout(); } }, t('nav.logout')))
        : h('div.auth-buttons', null,
          h('button.ghost.small', { type: 'button', dataset: { action: 'login' }, onclick: () => authDialog('login') }, t('nav.login')),
          h('button.primary.small', { type: 'button', dataset: { action: 'register' }, onclick: () => authDialog('register') }, t('nav.register')))));
}

function notFound(root) {
  replace(root, h('div.empty-state', null, h('h2', null, t('misc.notFound')),
    h('a.button.primary', { href: '/', dataset: { link: '' } }, t('nav.play'))));
}

async function boot() {
  applyDocument();
  unlockAudio();
  try {
    await loadSession();
  } catch (e) {
    toast(t('misc.error', { message: e.message }), 'error');
  }
  renderHeader();
  onSession(renderHeader);
  onNavigate(renderHeader);
  onChange((_, changes) => {
    applyDocument();
    if ('lang' in changes) {
      renderHeader();
      renderNoticeBanner();
    }
  });
  // The relations before the pages: a game page hides the chat of the
  // players blocked or muted from its first drawing.
  watchRelations().catch((e) => toast(t('misc.error', { message: e.message }), 'error'));
  startNoticeBanner(standing);
  onSession(() => refreshNotices());
  onNavigate(() => refreshNotices());
  startRouter(main, [
    [/^\/$/, [], lobbyPage],
    [/^\/game\/(\d+)$/, ['id'], gamePage],
    [/^\/game\/(\d+)\/analysis$/, ['id'], analysisPage],
    [/^\/analysis$/, [], analysisPage],
    [/^\/player\/([^/]+)$/, ['name'], profilePage],
    [/^\/account$/, [], accountPage],
    [/^\/moderation$/, [], moderationPage],
    [/^\/password-reset$/, [], passwordResetPage],
    [/^\/events$/, [], eventListPage],
    [/^\/events\/(\d+)$/, ['id'], eventPage],
    [/^\/events\/(\d+)\/rounds\/(\d+)\/(pairings|results)$/, ['id', 'round', 'kind'], eventSheetPage],
    [/^\/simul\/(\d+)$/, ['id'], simulPage],
    [/^\/problems$/, [], problemsPage],
    [/^\/problems\/([^/]+)$/, ['set'], problemSetPage],
    [/^\/problems\/([^/]+)\/(\d+)$/, ['set', 'n'], problemPage],
    [/^\/proverbs$/, [], proverbsPage],
  ], notFound);
}

boot();
