// What the end-to-end tests share: the real server binary on a free port
// over a fresh data directory, Debian's Chromium driven by playwright-core,
// and the steps a player takes (sign up, open a game, click a point).
//
// SHOUTAN_TEST_CHROMIUM: the Chromium to drive (default /usr/bin/chromium).
// Missing: the tests say plainly that they skip; with CI=true they fail.
// SHOUTAN_BIN: the server binary (default target/debug/shoutan, built with
// `cargo build -p shoutan` when it is not there).

import { execFileSync, spawn } from 'node:child_process';
import { accessSync, appendFileSync, constants, existsSync } from 'node:fs';
import { mkdtemp, mkdir, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const SCREENSHOTS = join(REPO, 'artifacts', 'screenshots');
export const BIN = process.env.SHOUTAN_BIN ? resolve(process.env.SHOUTAN_BIN) : join(REPO, 'target', 'debug', 'shoutan');
const CHROMIUM = process.env.SHOUTAN_TEST_CHROMIUM || '/usr/bin/chromium';

/** The flags that keep Chromium quiet on a closed network. */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * The Chromium to drive, or null when the tests must be skipped (under
 * CI=true a missing browser fails them instead).
 */
export function chromiumPath() {
  try {
    accessSync(CHROMIUM, constants.X_OK);
    return CHROMIUM;
  } catch {
    if (process.env.CI === 'true') {
      throw new Error(`CI=true but there is no Chromium at ${CHROMIUM} (set SHOUTAN_TEST_CHROMIUM): the browser tests cannot run`);
    }
    console.log(`SKIPPED: the browser end-to-end tests: no Chromium at ${CHROMIUM} (install chromium or set SHOUTAN_TEST_CHROMIUM)`);
    // One line per skipped test, for ./scripts/test's closing summary.
    if (process.env.SHOUTAN_SKIP_REPORT) appendFileSync(process.env.SHOUTAN_SKIP_REPORT, 'SHOUTAN_TEST_CHROMIUM\n');
    return null;
  }
}

/** The server binary, built first when it is missing and not named by SHOUTAN_BIN. */
export function serverBinary() {
  if (!existsSync(BIN) && !process.env.SHOUTAN_BIN) {
    console.log(`${BIN} is missing: cargo build -p shoutan`);
    execFileSync('cargo', ['build', '-p', 'shoutan'], { cwd: REPO, stdio: 'inherit' });
  }
  if (!existsSync(BIN)) throw new Error(`no server binary at ${BIN}`);
  return BIN;
}

/** The option of `test()` that skips a test when there is no Chromium. */
export function needsChromium() {
  const path = chromiumPath();
  return path ? {} : { skip: `no Chromium at ${CHROMIUM}` };
}

async function freePort() {
  return new Promise((ok, fail) => {
    const server = createServer();
    server.on('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      server.close(() => ok(port));
    });
  });
}

/**
 * Starts `shoutan serve` on a free port over a temporary data directory.
 * @returns {Promise<{base: string, data: string, stop: () => Promise<void>, restart: () => Promise<void>, log: () => string}>}
 */
export async function startServer() {
  const port = await freePort();
  const data = await mkdtemp(join(tmpdir(), 'shoutan-web-test-'));
  const addr = `127.0.0.1:${port}`;
  const base = `http://${addr}`;
  let running = await launchServer(addr, data);
  return {
    base,
    /** The data directory (its SQLite database: `shoutan.db`). */
    data,
    log: () => running.output(),
    /** Stops the server and starts it again on the same address and data. */
    async restart() {
      await running.stop();
      running = await launchServer(addr, data);
    },
    async stop() {
      await running.stop();
      await rm(data, { recursive: true, force: true });
    },
  };
}

/** Runs `shoutan serve` on `addr` over `data` until it answers its health check. */
async function launchServer(addr, data) {
  const child = spawn(serverBinary(), ['serve', '--addr', addr, '--data', data], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => { output += d; });
  child.stderr.on('data', (d) => { output += d; });
  let exited = null;
  child.on('exit', (code, signal) => { exited = { code, signal }; });
  const spawnError = new Promise((_, fail) => child.on('error', (e) => fail(new Error(`cannot start ${BIN}: ${e.message}`))));
  const base = `http://${addr}`;
  const ready = (async () => {
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      if (exited) throw new Error(`the server exited (${JSON.stringify(exited)}):\n${output}`);
      try {
        const res = await fetch(`${base}/api/health`);
        if (res.ok) return;
      } catch {
        // Not listening yet.
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`the server did not answer on ${base} within 30 s:\n${output}`);
  })();
  await Promise.race([ready, spawnError]);
  return {
    output: () => output,
    async stop() {
      if (exited) return;
      child.kill('SIGTERM');
      await new Promise((r) => {
        const timer = setTimeout(() => { child.kill('SIGKILL'); r(); }, 5000);
        child.on('exit', () => { clearTimeout(timer); r(); });
      });
    },
  };
}

/**
 * Runs the operator's `shoutan admin --data DATA ARGS…` on the database of
 * the test server `server` (while it runs); returns what it printed.
 * @param {{data: string}} server
 * @param {...string} args  e.g. 'grant', 'mona', 'moderator'
 */
export function admin(server, ...args) {
  return execFileSync(serverBinary(), ['admin', '--data', server.data, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * Calls the API from `page`, with its cookies and origin, as its scripts
 * do: the status and the JSON answer (null without one).
 * @param {import('playwright-core').Page} page
 * @returns {Promise<{status: number, body: any}>}
 */
export async function apiFrom(page, method, path, body) {
  return page.evaluate(async ([method, path, body]) => {
    const headers = { 'X-Shoutan-Request': '1', Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  }, [method, path, body]);
}

/** Launches headless Chromium (each launch has its own fresh profile directory). */
export async function launchBrowser() {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: chromiumPath() ?? undefined, headless: true, args: CHROMIUM_ARGS });
}

/**
 * A browser context of its own (cookies, storage), English, with the
 * speech synthesis recorded in `window.__spoken` instead of spoken, and
 * the sounds started by the Web Audio API counted in `window.__sounds`.
 * @param {import('playwright-core').Browser} browser
 */
export async function newPlayerContext(browser, { viewport = { width: 1360, height: 900 }, locale = 'en-GB', mobile = false } = {}) {
  const context = await browser.newContext({ viewport, locale, acceptDownloads: true, isMobile: mobile, hasTouch: mobile });
  await context.addInitScript(() => {
    window.__spoken = [];
    const fake = {
      speaking: false,
      pending: false,
      getVoices: () => [],
      addEventListener() {},
      cancel() {},
      speak(u) { window.__spoken.push({ text: u.text, lang: u.lang }); },
    };
    Object.defineProperty(window, 'speechSynthesis', { value: fake, configurable: true });
    window.__sounds = 0;
    const start = AudioScheduledSourceNode.prototype.start;
    AudioScheduledSourceNode.prototype.start = function counted(...args) {
      window.__sounds += 1;
      return start.apply(this, args);
    };
  });
  return context;
}

/**
 * A page that fails the test on any script error.
 * @param {import('playwright-core').BrowserContext} context
 */
export async function newPage(context, errors) {
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(`${e.message}\n${e.stack ?? ''}`));
  page.on('console', (m) => {
    // The browser reports each failed request; an anonymous GET /api/session is a 401 by design.
    if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) errors.push(m.text());
  });
  return page;
}

/** Signs up through the dialog, as a player does. */
export async function signUp(page, base, name, rank = '5k') {
  await page.goto(`${base}/`);
  await page.click('[data-action=register]');
  const dialog = page.locator('dialog[open]');
  await dialog.locator('input[name=name]').fill(name);
  await dialog.locator('input[name=password]').fill('correct horse battery');
  await dialog.locator('select[name=rank]').selectOption(rank);
  await dialog.locator('button[type=submit]').click();
  await page.waitForSelector(`[data-user="${name}"]`);
}

/**
 * Sends `commands` over the WebSocket of game `gameId` from `page` (its
 * session cookie), numbering them from `firstId`, each awaited until
 * answered; returns the answers.
 * @param {import('playwright-core').Page} page
 */
export async function wsCommands(page, gameId, firstId, commands) {
  return page.evaluate(async ({ gameId, firstId, commands }) => {
    const ws = new WebSocket(`ws://${location.host}/api/games/${gameId}/ws`);
    const frames = [];
    let wake = null;
    ws.onmessage = (e) => { frames.push(JSON.parse(e.data)); wake?.(); };
    await new Promise((ok, fail) => { ws.onopen = ok; ws.onerror = fail; });
    const next = async (pred) => {
      for (;;) {
        const i = frames.findIndex(pred);
        if (i >= 0) return frames.splice(i, 1)[0];
        await new Promise((ok) => { wake = ok; });
      }
    };
    const acks = [];
    for (const [k, c] of commands.entries()) {
      const id = firstId + k;
      ws.send(JSON.stringify({ ...c, id }));
      acks.push(await next((f) => f.id === id));
    }
    ws.close();
    return acks;
  }, { gameId, firstId, commands });
}

/** Clicks the intersection `point` (GTP notation) of the board. */
export async function clickPoint(page, point) {
  await page.locator(`.goban [data-point="${point}"]`).click();
}

/** Waits until the board shows a stone of `color` at `point`. */
export async function stoneAt(page, point, color) {
  await page.locator(`.goban .stones [data-stone="${point}"].${color}:not(.tentative)`).waitFor();
}

/** Waits until `point` is empty on the board. */
export async function emptyAt(page, point) {
  await page.locator(`.goban .stones [data-stone="${point}"]`).waitFor({ state: 'detached' });
}

/** Saves a screenshot under artifacts/screenshots. */
export async function screenshot(page, name) {
  await mkdir(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path });
  return path;
}

/** The colour `page` plays in the game it shows. */
export async function seatOf(page) {
  const layout = page.locator('.game-layout');
  await layout.waitFor();
  return layout.getAttribute('data-you');
}
