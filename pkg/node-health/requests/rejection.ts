/**
 * What a rejected store request (`management/request`, `find`, `patch`) says. The shell rejects with the
 * response body decorated with `_status` (shell/plugins/steve/actions.js) when the server answered, and with
 * the axios error itself when it did not; both shapes, and a Kubernetes Status or Steve error body, are read
 * here, once, for the tab's loads (../data/errors) and the actions' writes (../actions/errors) alike.
 */

/** What the server said is kept to this many characters. */
export const MAX_SERVER_MESSAGE = 500;

const NETWORK_CODES = ['ERR_NETWORK', 'ECONNABORTED', 'ETIMEDOUT', 'ECONNRESET', 'ECONNREFUSED', 'EAI_AGAIN'];

type Obj = Record<string, any>;

function asObject(value: unknown): Obj {
  return value !== null && typeof value === 'object' ? value as Obj : {};
}

function httpStatus(value: unknown): number | null {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;

  return typeof n === 'number' && Number.isInteger(n) && n >= 100 && n <= 599 ? n : null;
}

/** The HTTP status of a rejected store request, wherever the shape keeps it; null when no response arrived. */
export function failureStatus(err: unknown): number | null {
  const e = asObject(err);

  return httpStatus(e._status) ??
    httpStatus(asObject(e.response).status) ??
    // A Steve error body ({ type: 'error', status, code, message }) or a Kubernetes Status ({ code })
    httpStatus(e.status) ??
    httpStatus(e.code);
}

/** The first message the rejection carries (its own, the response body's, Steve's body's), untouched. */
export function failureText(err: unknown): string | null {
  const e = asObject(err);
  const candidates = [e.message, asObject(asObject(e.response).data).message, typeof e.data === 'string' ? '' : asObject(e.data).message];

  return candidates.find((m): m is string => typeof m === 'string' && m.trim() !== '') ?? null;
}

/** Long server messages are cut, marked with an ellipsis. */
export function clipMessage(text: string): string {
  return text.length > MAX_SERVER_MESSAGE ? `${ text.slice(0, MAX_SERVER_MESSAGE) }…` : text;
}

/** No answer arrived because the way to the server failed (axios' and fetch's shapes), not because of a bug. */
export function isNetworkFailure(err: unknown): boolean {
  const e = asObject(err);

  if (e.response && httpStatus(asObject(e.response).status)) {
    return false;
  }

  return e.message === 'Network Error' ||
    (typeof e.code === 'string' && NETWORK_CODES.includes(e.code)) ||
    (err instanceof TypeError && /fetch|network/i.test(String(e.message)));
}
