/**
 * The tab's handle on its session: in a Web Worker when one starts, else on the page with a note in the console
 * (a browser without workers, a policy that forbids them, or a worker that fails to start). Both answer the same
 * calls with the same plain data: what comes back is a copy, never the session's own objects.
 */
import type { HostReport, NodeRecord } from '../engine';
import type { RedactedDiagnosis } from '../export/redacted';
import { runCall } from './protocol';
import type {
  FromWorker, SessionAnswers, SessionCall, SessionInit, ToWorker
} from './protocol';
import { TabSession } from './session';
import type { RefreshRequest, TabView } from './session';
import type { RowPage, RowQuery } from './row-query';
import type { StorePart } from './store-sync';
import type { Dispatch } from './types';

/** The part of a Worker used here. */
export interface WorkerLike {
  postMessage(message: ToWorker): void;
  onmessage: ((ev: { data: FromWorker }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  terminate(): void;
}

export interface SessionClient {
  /** where the lists are read and diagnosed; null until the first call starts the worker (reading it starts nothing) */
  readonly where: 'worker' | 'page' | null;
  refresh(request: RefreshRequest): Promise<TabView>;
  setHostReports(reports: HostReport[]): Promise<TabView | null>;
  /** a page of the rows of the last view: sorted, filtered and paged where the session runs */
  rows(query: RowQuery): Promise<RowPage>;
  /** a part of a list the page's store holds (store-sync.ts) */
  syncStore(part: StorePart): Promise<null>;
  record(key: string): Promise<NodeRecord | null>;
  /** the diagnosis shown now, redacted for the export (with the page's action log), made on demand */
  exportDiagnosis(actionLog: unknown[]): Promise<RedactedDiagnosis | null>;
  close(): void;
}

export interface OpenSessionOptions {
  /** the store's dispatch, for the session on the page */
  dispatch: Dispatch;
  init: SessionInit;
  /** a started worker, or null where none can start */
  startWorker: () => WorkerLike | null;
  /** where the fallback is noted (console.info) */
  note?: (text: string) => void;
}

function copyOf<T>(value: T): T {
  return value === null || value === undefined ? value : JSON.parse(JSON.stringify(value));
}

interface Pending {
  call: SessionCall;
  resolve: (value: any) => void;
  reject: (e: Error) => void;
}

export function openSession(options: OpenSessionOptions): SessionClient {
  // eslint-disable-next-line no-console
  const note = options.note ?? ((text: string) => console.info(text));
  let inPage: TabSession | null = null;
  let worker: WorkerLike | null = null;
  let nextId = 1;
  const pending = new Map<number, Pending>();

  const pageSession = (): TabSession => {
    inPage ??= new TabSession(options.dispatch);

    return inPage;
  };

  const runInPage = async(call: SessionCall): Promise<any> => {
    const value = await runCall(pageSession(), call);

    // Records stay the session's own (they are judged again later); the page gets copies.
    return call.op === 'record' ? copyOf(value) : value;
  };

  const fallBack = (reason: string) => {
    if (!worker) {
      return;
    }
    note(`Node Health: diagnosing on the page, the Web Worker could not run (${ reason })`);
    worker.onmessage = null;
    worker.onerror = null;
    worker.terminate();
    worker = null;
    const waiting = [...pending.values()];

    pending.clear();
    for (const p of waiting) {
      if (p.call) {
        runInPage(p.call).then(p.resolve, p.reject);
      }
    }
  };

  let started = false;
  // The worker starts with the first call, not with the session: a tab drawn with its page starts it only when it loads.
  const start = () => {
    if (started) {
      return;
    }
    started = true;
    try {
      worker = options.startWorker();
    } catch (e) {
      worker = null;
      note(`Node Health: diagnosing on the page, no Web Worker could start (${ e instanceof Error ? e.message : String(e) })`);
    }
    if (worker) {
      worker.onmessage = (ev) => {
        const answer = ev.data;
        const p = pending.get(answer.id);

        if (!p) {
          return;
        }
        pending.delete(answer.id);
        if (answer.ok) {
          p.resolve(answer.value);
        } else {
          p.reject(new Error(answer.error));
        }
      };
      worker.onerror = (ev) => fallBack((ev as { message?: string })?.message || 'error');
      try {
        worker.postMessage({ id: 0, init: options.init });
      } catch (e) {
        fallBack(e instanceof Error ? e.message : String(e));
      }
    }
  };

  const call = <K extends SessionCall['op']>(c: SessionCall & { op: K }): Promise<SessionAnswers[K]> => {
    start();
    if (!worker) {
      return runInPage(c);
    }
    const id = nextId++;

    return new Promise((resolve, reject) => {
      pending.set(id, {
        call: c, resolve, reject
      });
      try {
        (worker as WorkerLike).postMessage({ id, call: c });
      } catch (e) {
        // A list that cannot be copied across (a stray proxy): sent as JSON copies instead.
        try {
          (worker as WorkerLike).postMessage({ id, call: copyOf(c) });
        } catch {
          pending.delete(id);
          runInPage(c).then(resolve, reject);
        }
      }
    });
  };

  return {
    get where() {
      if (!started) {
        return null;
      }

      return worker ? 'worker' : 'page';
    },
    refresh:         (request) => call({ op: 'refresh', request }),
    setHostReports:  (reports) => call({ op: 'hostReports', reports }),
    rows:            (query) => call({ op: 'rows', query }),
    syncStore:       (part) => call({ op: 'store', part }),
    record:          (key) => call({ op: 'record', key }),
    exportDiagnosis: (actionLog) => call({ op: 'export', actionLog }),
    close() {
      started = true;
      worker?.terminate();
      worker = null;
      for (const p of pending.values()) {
        p.reject(new Error('closed'));
      }
      pending.clear();
      inPage?.close();
    },
  };
}
