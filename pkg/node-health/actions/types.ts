/**
 * Types shared by the guarded actions (finalizer cleanup, etcd release, registration command). Pure
 * TypeScript: the dialogs, the tab and the tests use them without Vue.
 */
import type { MessageArgs } from '../engine';

export type ActionResult = 'succeeded' | 'failed' | 'already-gone' | 'conflict' | 'cancelled';

/** One JSON Patch (RFC 6902) operation, the kinds these actions send. */
export type JsonPatchOperation =
  | { op: 'test'; path: string; value: unknown }
  | { op: 'add'; path: string; value: unknown }
  | { op: 'remove'; path: string };

/**
 * The part of the Vuex store the actions use. The extension runs inside Rancher's dashboard, whose
 * store is passed in rather than imported so that this code stays testable without the shell.
 */
export interface StoreLike {
  dispatch(type: string, payload?: unknown, options?: unknown): Promise<any>;
  getters: Record<string, any>;
}

/** What the caller (the Node Health tab) tells an action about where and for whom it runs. */
export interface ActionContext {
  /** The cluster the action log is kept for (the tab's cluster id) */
  clusterId: string;
  /** Display name of the current user, for the action log */
  user: string;
  /** Called once the cluster changed (or turned out to be already changed), so the tab can reload */
  onDone: () => void;
  /** Clock for "deleting for 2h"; tests fix it, the dashboard leaves it out */
  now?: () => number;
  /** Why the user acts, as the diagnosis said it (the record's root cause): the audit Event carries it */
  why?: string | null;
}

/** A translation key with its arguments. */
export interface Message {
  key: string;
  args?: MessageArgs;
}
