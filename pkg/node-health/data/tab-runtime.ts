/**
 * What the Node Health tab keeps for itself, outside Vue's reactivity: its session (the worker), its poller, the
 * visibility watcher, the last refresh's busy time, which store lists were sent, and whether one of its own writes
 * has just happened. One per tab instance, created with it (markRaw) and typed here rather than hung on `this`.
 */
import type { PendingRows } from './pending-rows';
import type { Poller } from './poller';
import { mgmtClusterFromStore } from './mgmt-cluster';
import type { ListForm } from './requests';
import type { RefreshRequest, TabView } from './session';
import { TablePages } from './table-pages';
import type { SessionClient } from './session-client';
import { storeChanges } from './store-lists';
import type { StoreChanges, StoreGetters } from './store-lists';
import { afterPaint, nextTask } from './scheduling';
import { StoreSync } from './store-sync';
import type { ClusterTarget, RowFilters } from './types';

export interface TabRuntime {
  /** The session that loads and diagnoses (set when the tab is created) */
  session: SessionClient | null;
  /** Polls while the tab is on screen (set when the tab is created) */
  poller: Poller | null;
  /** Stops the visibility watcher (set when the tab is mounted) */
  stopWatching: (() => void) | null;
  /** How long the last refresh blocked the page, in ms: the pause between polls follows it */
  busyMs: number;
  /** One of the tab's writes has just happened: the next load asks Rancher rather than the store */
  afterWrite: boolean;
  /** Whether the store's management cluster was sent to the session as it is, to send it only when it changed */
  storeSent: StoreChanges;
  /** What of the store's Machines and management Nodes the session holds, to send only what changed */
  storeSync: StoreSync;
  /** The record a link asked for, once opened */
  openedRequest: string | null;
  /** The table's arrangement, the titles translated for the session's search, the last page asked for */
  pages: TablePages;
  /** The first load has let the page paint before it started */
  painted: boolean;
  /** The store's Machines as checking rows, paged, until the first diagnosis (pending-rows.ts) */
  pending: PendingRows | null;
}

export function tabRuntime(): TabRuntime {
  return {
    session:       null,
    poller:        null,
    stopWatching:  null,
    busyMs:        0,
    afterWrite:    false,
    storeSent:     storeChanges(),
    storeSync:     new StoreSync(),
    openedRequest: null,
    pages:         new TablePages(),
    painted:       false,
    pending:       null,
  };
}

/**
 * The tab's next load: what changed in the store's Machines and management Nodes sent to the session first
 * (store-sync.ts; on the first load once the page has painted the checking rows), the management cluster when it
 * changed, and the table's query. Right after a write of ours the store may not have heard of it from the watch
 * yet: Steve itself is asked (our writes never touch the management cluster, so the store's copy of it stays good).
 */
export async function refreshRequest(
  runtime: TabRuntime, getters: StoreGetters, target: ClusterTarget, form: ListForm, filters: RowFilters, unwrap: (model: unknown) => unknown
): Promise<RefreshRequest> {
  const session = runtime.session as SessionClient;
  const afterWrite = runtime.afterWrite;

  runtime.afterWrite = false;
  if (!runtime.painted) {
    // The first load: the checking rows drawn now are painted before the store's lists are copied to the session.
    runtime.painted = true;
    await afterPaint();
  }
  const synced = await runtime.storeSync.send(getters, target, unwrap, (part) => session.syncStore(part), nextTask);
  const mgmtCluster = target.mgmtId ? mgmtClusterFromStore(getters, target.mgmtId, unwrap) : null;
  const sent = runtime.storeSent.next(mgmtCluster ? { mgmtCluster: [mgmtCluster] } : {});

  return {
    target, form, fromStore: sent.lists, storeUnchanged: sent.unchanged, synced: afterWrite ? [] : synced, rereadAll: afterWrite, rows: runtime.pages.query(filters)
  };
}

/**
 * The session's answer to a load, with the table's page as the table is now: a sort, page or filter chosen while
 * the load was on its way (on the checking rows) is asked for again before the answer is shown.
 */
export async function refreshView(runtime: TabRuntime, request: RefreshRequest, filters: () => RowFilters): Promise<TabView> {
  const session = runtime.session as SessionClient;
  const view = await session.refresh(request);
  const now = filters();

  if (!view.page || !request.rows || runtime.pages.current(request.rows, now)) {
    return view;
  }
  const page = await session.rows(runtime.pages.query(now)).catch(() => null);

  return page ? { ...view, page } : view;
}
