/**
 * What a failed `management/request` means. The shell rejects with Steve's error body (with the HTTP
 * status in a hidden `_status`) when the server answered, and with the axios error when it did not.
 */
import type { IssueKind } from './types';

export interface RequestFailure {
  kind: IssueKind;
  status: number | null;
  message: string | null;
}

const MAX_MESSAGE = 500;

function statusNumber(value: unknown): number | null {
  const n = typeof value === 'string' ? Number(value) : value;

  return typeof n === 'number' && Number.isInteger(n) && n >= 100 && n <= 599 ? n : null;
}

export function kindForStatus(status: number | null): IssueKind {
  if (status === null) {
    return 'network';
  }
  if (status === 401) {
    return 'unauthorized';
  }
  if (status === 403) {
    return 'forbidden';
  }
  if (status === 404) {
    return 'not-found';
  }

  return status >= 500 ? 'server' : 'unknown';
}

export function describeFailure(err: unknown): RequestFailure {
  const e = (err ?? {}) as Record<string, any>;
  const status = statusNumber(e._status) ?? statusNumber(e.response?.status) ?? statusNumber(e.status);
  const raw = typeof e.message === 'string' ? e.message : (typeof e.response?.data?.message === 'string' ? e.response.data.message : null);
  const message = raw ? (raw.length > MAX_MESSAGE ? `${ raw.slice(0, MAX_MESSAGE) }…` : raw) : null;

  if (status === null && !(e.isAxiosError || typeof e.code === 'string' || /network|timeout/i.test(raw ?? ''))) {
    // No answer and no sign of a transport failure: a bug or a plain rejection, not the network's fault.
    return {
      kind: 'unknown', status, message
    };
  }

  return {
    kind: kindForStatus(status), status, message
  };
}
