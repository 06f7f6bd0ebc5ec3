// A WebSocket that comes back by itself: after a drop it reconnects with
// a growing, jittered delay (at once when the browser says it is online
// again), and the connection banner shows while it is down.

import { wsUrl } from './api.js';
import { connectionLost } from './ui.js';

export class LiveSocket {
  /**
   * @param {object} options
   * @param {() => string} options.path  the API path, asked anew at each connection
   * @param {(message: any) => void} options.onMessage  each JSON frame
   * @param {() => void} [options.onOpen]
   * @param {number} [options.keepAlive]  ms between keep-alive probes (0: none)
   * @param {() => any} [options.probe]   the keep-alive message; the server must answer it
   */
  constructor(options) {
    this.options = options;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.attempt = 0;
    this.closed = false;
    this.retryTimer = 0;
    this.lastHeard = 0;
    this.watchdog = 0;
    /** How many times the socket has opened: which connection a message went on. */
    this.opens = 0;
    /** @type {Set<() => void>} called at the next open */
    this.openWaiters = new Set();
    this.online = () => this.reconnectNow(false);
    // The browser knows the network is gone: say so at once, and come
    // back as soon as it returns.
    this.offline = () => {
      connectionLost(this, true);
      this.ws?.close();
    };
    addEventListener('online', this.online);
    addEventListener('offline', this.offline);
    this.connect();
  }

  connect() {
    if (this.closed) return;
    clearTimeout(this.retryTimer);
    if (navigator.onLine === false) {
      // No network: the browser's `online` event brings us back.
      connectionLost(this, true);
      return;
    }
    const ws = new WebSocket(wsUrl(this.options.path()));
    this.ws = ws;
    ws.addEventListener('open', () => {
      if (ws !== this.ws) return;
      this.opens += 1;
      this.attempt = 0;
      this.lastHeard = Date.now();
      connectionLost(this, false);
      this.options.onOpen?.();
      this.startWatchdog();
      for (const opened of this.openWaiters) opened();
      this.openWaiters.clear();
    });
    ws.addEventListener('message', (e) => {
      if (ws !== this.ws) return;
      this.lastHeard = Date.now();
      let message;
      try {
        message = JSON.parse(e.data);
      } catch {
        return;
      }
      this.options.onMessage(message);
    });
    ws.addEventListener('close', () => {
      if (ws !== this.ws) return;
      this.dropped();
    });
  }

  /** The connection is gone: try again later. */
  dropped() {
    clearInterval(this.watchdog);
    this.ws = null;
    if (this.closed) return;
    this.attempt += 1;
    if (this.attempt > 1) connectionLost(this, true);
    const delay = Math.min(10_000, 400 * 2 ** Math.min(this.attempt - 1, 5)) * (0.75 + Math.random() / 2);
    this.retryTimer = setTimeout(() => this.connect(), this.attempt === 1 ? 150 : delay);
  }

  /**
   * A silent network (a cable pulled) closes nothing: a probe the server
   * answers shows the line is alive; no answer in time, and the socket is
   * dropped and reopened.
   */
  startWatchdog() {
    clearInterval(this.watchdog);
    const every = this.options.keepAlive ?? 0;
    if (!every || !this.options.probe) return;
    this.watchdog = setInterval(() => {
      if (Date.now() - this.lastHeard > every * 2) {
        this.reconnectNow();
        return;
      }
      this.send(this.options.probe());
    }, every);
  }

  /** Drops the connection and opens a new one; `banner`: show that it is down meanwhile. */
  reconnectNow(banner = true) {
    if (this.closed) return;
    const ws = this.ws;
    this.ws = null;
    ws?.close();
    clearInterval(this.watchdog);
    if (banner) connectionLost(this, true);
    this.connect();
  }

  /**
   * Resolves true once the socket is open (at once if it is), false if it
   * is not within `ms`: a page's first click may come before its socket
   * has connected, and a click during a short drop before it is back.
   * @param {number} ms
   * @returns {Promise<boolean>}
   */
  opened(ms) {
    if (this.ws?.readyState === WebSocket.OPEN) return Promise.resolve(true);
    if (this.closed) return Promise.resolve(false);
    return new Promise((resolve) => {
      const opened = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.openWaiters.delete(opened);
        resolve(false);
      }, ms);
      this.openWaiters.add(opened);
    });
  }

  /** Sends a JSON message; false when the socket is not open. */
  send(message) {
    if (this.ws?.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  /** Closes for good. */
  close() {
    this.closed = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.watchdog);
    removeEventListener('online', this.online);
    removeEventListener('offline', this.offline);
    connectionLost(this, false);
    this.ws?.close();
    this.ws = null;
  }
}
