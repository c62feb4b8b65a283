/**
 * What the Node Health tab keeps for itself, outside Vue's reactivity: its session (the worker), its poller, the
 * visibility watcher, the last refresh's busy time, which store lists were sent, and whether one of its own writes
 * has just happened. One per tab instance, created with it (markRaw) and typed here rather than hung on `this`.
 */
import type { Poller } from './poller';
import { FIRST_QUERY } from './row-query';
import type { RowArrangement } from './row-query';
import type { SessionClient } from './session-client';
import { storeChanges } from './store-lists';
import type { StoreChanges } from './store-lists';
import { StoreSync } from './store-sync';

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
  /** How the table arranges the rows (its sort and page), asked of the session with the filters */
  arrangement: RowArrangement;
  /** Finding titles translated for the session's search, sent with the next query */
  titles: Record<string, string>;
  /** Pages asked for: only the answer to the last one is shown */
  pagesAsked: number;
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
    arrangement:   { ...FIRST_QUERY },
    titles:        {},
    pagesAsked:    0,
  };
}
