/**
 * What a failed load request means for the tab: the kind of issue it shows, the status and the server's message.
 * The rejection itself is read by ../requests/rejection, as the actions read theirs.
 */
import type { IssueKind } from './types';
import { clipMessage, failureStatus, failureText, isNetworkFailure } from '../requests/rejection';

export interface RequestFailure {
  kind: IssueKind;
  status: number | null;
  message: string | null;
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

/** What a failed load request means for the tab. */
export function describeFailure(err: unknown): RequestFailure {
  const e: Record<string, any> = err !== null && typeof err === 'object' ? err : {};
  const status = failureStatus(err);
  const raw = failureText(err);
  const message = raw ? clipMessage(raw) : null;

  if (status === null && !(e.isAxiosError || typeof e.code === 'string' || isNetworkFailure(err) || /network|timeout/i.test(raw ?? ''))) {
    // No answer and no sign of a transport failure: a bug or a plain rejection, not the network's fault.
    return {
      kind: 'unknown', status, message
    };
  }

  return {
    kind: kindForStatus(status), status, message
  };
}
