/**
 * `management/request` where the dashboard store is not: in the worker, with fetch. Same URLs, same
 * credentials as the store's requests (the session cookie goes with every same-origin request; the CSRF token
 * the page read from its cookie goes in Rancher's `X-Api-Csrf` header), and failures in the shape the store
 * rejects with (errors.ts reads both): Steve's error body with the status in `_status`, or a transport error.
 */
import type { Dispatch } from './types';

export type FetchLike = (url: string, init: {
  method: string; credentials: 'same-origin'; headers: Record<string, string>; body?: string
}) => Promise<{ ok: boolean; status: number; statusText: string; text(): Promise<string> }>;

class TransportError extends Error {
  readonly code = 'ERR_NETWORK';
}

/** The server answered with an error: its status where the store keeps it, and the fields of its body. */
class AnswerError extends Error {
  readonly _status: number;
  readonly body: Record<string, unknown>;

  constructor(status: number, message: string, body: Record<string, unknown>) {
    super(message);
    this._status = status;
    this.body = body;
  }
}

export function fetchDispatch(origin: string, csrf: string | null, fetchImpl: FetchLike): Dispatch {
  return async(type, payload) => {
    if (type !== 'management/request' || typeof payload?.url !== 'string') {
      throw new Error(`${ type } is not available here`);
    }
    const body = payload.data === undefined ? undefined : JSON.stringify(payload.data);
    const headers: Record<string, string> = { accept: 'application/json' };

    if (body !== undefined) {
      headers['content-type'] = 'application/json';
    }
    if (csrf) {
      headers['x-api-csrf'] = csrf;
    }
    let res: Awaited<ReturnType<FetchLike>>;
    let text: string;

    try {
      res = await fetchImpl(new URL(payload.url, origin).toString(), {
        method: payload.method ?? 'GET', credentials: 'same-origin', headers, body
      });
      text = await res.text();
    } catch (e) {
      throw new TransportError(`network error: ${ e instanceof Error ? e.message : String(e) }`);
    }
    let answer: any = null;

    try {
      answer = text ? JSON.parse(text) : null;
    } catch {
      answer = null;
    }
    if (!res.ok) {
      const message = typeof answer?.message === 'string' ? answer.message : res.statusText;

      throw new AnswerError(res.status, message, answer && typeof answer === 'object' ? answer : {});
    }

    return answer;
  };
}

/** Rancher's CSRF token from the page's cookies (the store sends the same one). */
export function csrfFromCookies(cookies: string): string | null {
  for (const part of cookies.split(';')) {
    const eq = part.indexOf('=');

    if (eq > 0 && part.slice(0, eq).trim() === 'CSRF') {
      return decodeURIComponent(part.slice(eq + 1).trim()) || null;
    }
  }

  return null;
}
