/**
 * Lists the dashboard store already holds, complete and kept current by Steve's watch, so that a load does not
 * ask Steve for them again: the cluster page loads every CAPI Machine before it draws its tabs (the tab's largest
 * request on a big cluster), and a custom cluster's registration tab loads every management Node. Where the store
 * does not hold a complete list (a user who may not list the type, Steve's paginated cache, a list still loading),
 * the loader sends its own request as before.
 *
 * The copies are plain objects shaped like the loader's own answers: only the fields its requests include (what
 * the engine reads, engine/read-fields.ts) and Steve's envelope, so the diagnosis, the export and the bundle read
 * the same objects whichever way they came.
 */
import { STEVE_TYPES, isPlainObject, steveIncludePaths } from '../engine';
import type { KubeObject, ObjectKind } from '../engine';
import { mgmtClusterFromStore } from './mgmt-cluster';
import type { ClusterTarget } from './types';

/** The inputs the store may hold, and the management cluster (a list of one). */
export type StoreInput = 'machines' | 'mgmtNodes' | 'mgmtCluster';

/** Per input, the objects read from the store instead of requested; an input that is absent is requested. */
export type StoreLists = Partial<Record<StoreInput, KubeObject[]>>;

/** The part of the store's getters read here: `store.getters`, or a test double of it. */
export type StoreGetters = Record<string, any>;

/** Gives the plain object behind a store model (the tab passes Vue's `toRaw`). */
export type Unwrap = (model: unknown) => unknown;

/** What Steve keeps of every object besides the included paths: its envelope. */
const ENVELOPE = ['id', 'type', 'links'];

/**
 * `raw` is the plain object behind a store model. The included paths are copied as Steve's `include` keeps
 * them (whole values at each dot path), and the values shared with the store are never changed.
 */
export function plainCopy(raw: Record<string, any>, include: string[]): KubeObject {
  const out: Record<string, any> = {};

  for (const key of ENVELOPE) {
    if (key in raw) {
      out[key] = raw[key];
    }
  }
  for (const path of include) {
    const parts = path.split('.');
    let from: unknown = raw;

    for (const part of parts) {
      from = isPlainObject(from) ? from[part] : undefined;
    }
    if (from === undefined) {
      continue;
    }
    let into = out;

    for (const part of parts.slice(0, -1)) {
      if (!isPlainObject(into[part])) {
        into[part] = {};
      }
      into = into[part];
    }
    into[parts[parts.length - 1]] = from;
  }

  return out as KubeObject;
}

/** The store's list of a type when it holds all of it (and is kept current by the watch), else null. */
export function completeList(getters: StoreGetters, type: string, unwrap: Unwrap): unknown[] | null {
  const haveAll = getters['management/haveAll'];
  const all = getters['management/all'];

  if (typeof haveAll !== 'function' || typeof all !== 'function' || haveAll(type) !== true) {
    return null;
  }
  // The plain array behind the store's reactive one: reading it hands out no reactive wrappers per model.
  const list = unwrap(all(type));

  return Array.isArray(list) ? list : null;
}

/**
 * Plain copies of the store's models of a type that `keep` accepts, or undefined when the store does not hold
 * the complete list. The store holds every cluster's objects: only those kept are copied, on every poll.
 */
export function storeCopies(
  getters: StoreGetters, type: string, unwrap: Unwrap, keep: (raw: Record<string, any>) => boolean, copy: (raw: Record<string, any>) => KubeObject
): KubeObject[] | undefined {
  const list = completeList(getters, type, unwrap);

  if (!list) {
    return undefined;
  }
  const out: KubeObject[] = [];

  for (const model of list) {
    const raw = unwrap(model);

    if (isPlainObject(raw) && keep(raw)) {
      out.push(copy(raw));
    }
  }

  return out;
}

/** The copies made at the last poll, per type and namespace, with the fingerprint of the objects they copy. */
export type StoreCopies = Map<string, { print: string; copies: KubeObject[] }>;

function inNamespace(
  getters: StoreGetters, type: string, namespace: string, unwrap: Unwrap, kind: ObjectKind, copies?: StoreCopies
): KubeObject[] | undefined {
  // The namespace's models themselves first: they are copied only when they changed since the last poll.
  const held = storeCopies(getters, type, unwrap, (raw) => isPlainObject(raw.metadata) && raw.metadata.namespace === namespace, (raw) => raw as KubeObject);

  if (!held) {
    return undefined;
  }
  // Unchanged since the last poll (no object added, removed or written): the same copies, not made again.
  const key = `${ type }/${ namespace }`;
  const print = fingerprint(held);
  const last = copies?.get(key);

  if (last && last.print === print) {
    return last.copies;
  }
  const include = steveIncludePaths(kind);
  const out = held.map((raw) => plainCopy(raw, include));

  copies?.set(key, { print, copies: out });

  return out;
}

/** What the store can give for one load of the target; the loader still checks every object belongs to it. */
export function storeLists(getters: StoreGetters, target: ClusterTarget, unwrap: Unwrap = (m) => m, copies?: StoreCopies): StoreLists {
  const out: StoreLists = {};

  if (target.machineManaged) {
    const machines = inNamespace(getters, STEVE_TYPES.machine, target.namespace, unwrap, 'machine', copies);

    if (machines) {
      out.machines = machines;
    }
  }
  if (target.mgmtId) {
    const mgmtNodes = inNamespace(getters, STEVE_TYPES.mgmtNode, target.mgmtId, unwrap, 'mgmtNode', copies);

    if (mgmtNodes) {
      out.mgmtNodes = mgmtNodes;
    }
    const mgmtCluster = mgmtClusterFromStore(getters, target.mgmtId, unwrap);

    if (mgmtCluster) {
      out.mgmtCluster = [mgmtCluster];
    }
  }

  return out;
}

/** What changed in the store's lists since they were last sent to the session. */
export interface StoreChanges {
  /** The lists to send (those that changed) and the inputs whose last sent copy still holds. */
  next(lists: StoreLists): { lists: StoreLists; unchanged: StoreInput[] };
}

/** Names and resource versions in order: equal when no object of the list was added, removed or written. */
function fingerprint(list: { metadata?: Record<string, any> }[]): string {
  return `${ list.length }|${ list.map((o) => `${ o.metadata?.namespace ?? '' }/${ o.metadata?.name ?? '' }@${ o.metadata?.resourceVersion ?? '?' }`).join(',') }`;
}

export function storeChanges(): StoreChanges {
  const sent = new Map<StoreInput, string>();

  return {
    next(lists) {
      const out: StoreLists = {};
      const unchanged: StoreInput[] = [];

      for (const input of ['machines', 'mgmtNodes', 'mgmtCluster'] as StoreInput[]) {
        const list = lists[input];

        if (!list) {
          sent.delete(input);
          continue;
        }
        const print = fingerprint(list);

        if (sent.get(input) === print) {
          unchanged.push(input);
        } else {
          out[input] = list;
          sent.set(input, print);
        }
      }

      return { lists: out, unchanged };
    },
  };
}
