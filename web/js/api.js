// The server's HTTP API: JSON in and out, errors as {error, message}.
// State-changing requests carry the header the server's CSRF guard asks
// for when a browser sends no Origin.

/** An answer of 4xx or 5xx, or no answer at all. */
export class ApiError extends Error {
  /** @param {number} status @param {string} code @param {string} message */
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** Who hears that the server no longer knows the session. */
const sessionLost = new Set();

/**
 * Calls `fn` when the server answers 401 `login_required`: the session
 * ended elsewhere (a password change, "log out everywhere else").
 */
export function onSessionLost(fn) {
  sessionLost.add(fn);
}

/**
 * Calls the API.
 * @param {'GET' | 'POST' | 'PUT' | 'DELETE'} method
 * @param {string} path
 * @param {any} [body]
 */
export async function api(method, path, body) {
  const headers = { 'X-Shoutan-Request': '1', Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let res;
  try {
    res = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'network', 'the server cannot be reached');
  }
  if (res.status === 204) return null;
  const data = await res.json().catch(() => null);
  if (!res.ok) {
    if (res.status === 401 && data?.error === 'login_required') for (const fn of sessionLost) fn();
    throw new ApiError(res.status, data?.error ?? `http_${res.status}`, data?.message ?? res.statusText);
  }
  return data;
}

export const get = (path) => api('GET', path);
export const post = (path, body) => api('POST', path, body ?? {});
export const put = (path, body) => api('PUT', path, body ?? {});
export const del = (path, body) => api('DELETE', path, body);

/** The WebSocket URL of an API path on this server. */
export function wsUrl(path) {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}${path}`;
}
