/**
 * The messages between the tab and its session (session.ts) when the session runs in a Web Worker. Only plain
 * data crosses: requests with plain copies of the store's lists; a page of rows, counts and findings back; one record, or
 * the redacted diagnosis for the export, when asked for.
 */
import type { HostReport, NodeRecord } from '../engine';
import type { RedactedDiagnosis } from '../export/redacted';
import type { RefreshRequest, TabSession, TabView } from './session';
import type { RowPage, RowQuery } from './row-query';
import type { StorePart } from './store-sync';

/** How the worker is set up: where the API is (a worker made from a Blob has no base URL of its own), the CSRF token. */
export interface SessionInit {
  origin: string;
  csrf: string | null;
  /** watch the lists over Steve's websocket and read only what changed */
  watch: boolean;
}

export type SessionCall =
  | { op: 'refresh'; request: RefreshRequest }
  | { op: 'hostReports'; reports: HostReport[] }
  | { op: 'rows'; query: RowQuery }
  | { op: 'store'; part: StorePart }
  | { op: 'record'; key: string }
  | { op: 'export'; actionLog: unknown[] };

/** What each call answers. */
export interface SessionAnswers {
  refresh: TabView;
  hostReports: TabView | null;
  rows: RowPage;
  store: null;
  record: NodeRecord | null;
  export: RedactedDiagnosis | null;
}

export type ToWorker = { id: number; init: SessionInit } | { id: number; call: SessionCall };

export type FromWorker = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string };

/** Runs one call on a session. */
export async function runCall(session: TabSession, call: SessionCall): Promise<SessionAnswers[SessionCall['op']]> {
  switch (call.op) {
  case 'refresh':
    return session.refresh(call.request);
  case 'hostReports':
    return session.setHostReports(call.reports);
  case 'rows':
    return session.rows(call.query);
  case 'store':
    return session.syncStore(call.part);
  case 'record':
    return session.record(call.key);
  case 'export':
    return session.exportDiagnosis(call.actionLog);
  }
}

/**
 * The worker's side: the first message sets the session up, every other one is a call, answered by id. Calls
 * run one after the other, in the order they came.
 */
export function serveSession(makeSession: (init: SessionInit) => TabSession, post: (answer: FromWorker) => void): (message: ToWorker) => void {
  let session: TabSession | null = null;
  let queue: Promise<unknown> = Promise.resolve();

  return (message) => {
    queue = queue.then(async() => {
      try {
        if ('init' in message) {
          session?.close();
          session = makeSession(message.init);
          post({
            id: message.id, ok: true, value: null
          });

          return;
        }
        if (!session) {
          throw new Error('the session is not set up');
        }
        post({
          id: message.id, ok: true, value: await runCall(session, message.call)
        });
      } catch (e) {
        post({
          id: message.id, ok: false, error: e instanceof Error ? e.message : String(e)
        });
      }
    });
  };
}
