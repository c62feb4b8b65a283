/**
 * Turns a failed write into something the dialog can say; the rejection itself is read by ../requests/rejection,
 * as the tab's loads read theirs.
 *
 * A JSON Patch whose `test` operation fails comes back from the API server as 422 ("the server rejected
 * our request due to an error in our request"); an update racing another one as 409 Conflict. Either
 * way nothing was written, so both mean "the object changed meanwhile: review it again".
 */
import { clipMessage, failureStatus, failureText, isNetworkFailure } from '../requests/rejection';
import type { ActionResult, Message } from './types';

export { failureStatus };

export type FailureKind =
  | 'unauthorized'
  | 'forbidden'
  | 'denied'
  | 'gone'
  | 'conflict'
  | 'invalid'
  | 'server'
  | 'network'
  | 'unknown';

export interface ActionFailure {
  kind: FailureKind;
  /** HTTP status, when a response arrived */
  status: number | null;
  /** `nodeHealth.actions.error.<kind>` */
  message: Message;
  /** What the server said, untrusted text to show as text; null when it said nothing useful */
  serverMessage: string | null;
  /** How the action log records it */
  result: ActionResult;
  /** True when the server certainly did not apply the change (a refusal, not a failure midway) */
  nothingChanged: boolean;
  /** Offer to reload the object and review it again */
  offerReview: boolean;
  /** The object is gone already: the cleanup's goal is reached */
  countsAsDone: boolean;
}

function serverMessageOf(err: unknown): string | null {
  const text = failureText(err);

  if (!text || /^\s*</.test(text)) {
    // No message, or an HTML error page from a proxy: the status says more than its markup.
    return null;
  }

  return clipMessage(text.replace(/\s+/g, ' ').trim());
}

function kindOf(status: number | null, serverMessage: string | null, err: unknown): FailureKind {
  if (status === null || status === 0) {
    return isNetworkFailure(err) ? 'network' : 'unknown';
  }
  if (serverMessage && /admission webhook .*denied the request/i.test(serverMessage)) {
    return 'denied';
  }
  switch (status) {
  case 401:
    return 'unauthorized';
  case 403:
    return 'forbidden';
  case 404:
  case 410:
    return 'gone';
  case 409:
  case 422:
    return 'conflict';
  case 408:
  case 429:
    return 'server';
  }

  return status >= 500 ? 'server' : 'invalid';
}

const NOTHING_CHANGED: FailureKind[] = ['unauthorized', 'forbidden', 'denied', 'gone', 'conflict', 'invalid'];
const REVIEW: FailureKind[] = ['conflict', 'server', 'network', 'unknown'];

export function describeActionError(err: unknown): ActionFailure {
  const status = failureStatus(err);
  const serverMessage = isNetworkFailure(err) ? null : serverMessageOf(err);
  const kind = kindOf(status, serverMessage, err);
  const result: ActionResult = kind === 'gone' ? 'already-gone' : kind === 'conflict' ? 'conflict' : 'failed';

  return {
    kind,
    status,
    message:        { key: `nodeHealth.actions.error.${ kind }`, args: { status: status ?? '-' } },
    serverMessage,
    result,
    nothingChanged: NOTHING_CHANGED.includes(kind),
    offerReview:    REVIEW.includes(kind),
    countsAsDone:   kind === 'gone',
  };
}

/** One line for the action log: the class of failure and its status, never a response body. */
export function failureDetail(failure: ActionFailure): string {
  return failure.status === null ? failure.kind : `${ failure.kind } (HTTP ${ failure.status })`;
}
