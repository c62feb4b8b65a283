/**
 * Lists the dashboard store already holds, complete and kept current by Steve's watch, so that a load does not
 * ask Steve for them again: the cluster page loads every CAPI Machine before it draws its tabs (the tab's largest
 * request on a big cluster), and a custom cluster's registration tab loads every management Node. Where the store
 * does not hold a complete list (a user who may not list the type, Steve's paginated cache, a list still loading),
 * the loader sends its own request as before.
 *
 * The copies are plain objects shaped like the loader's own answers: the fields its requests leave out are left
 * out here too, so the diagnosis, the export and the bundle read the same objects whichever way they came.
 */
import { STEVE_TYPES } from '../engine';
import type { KubeObject } from '../engine';
import { MGMT_NODE_LEFT_OUT_PATHS, UNUSED_FIELD_PATHS } from './requests';
import type { ClusterTarget } from './types';

/** The inputs the store may hold. */
export type StoreInput = 'machines' | 'mgmtNodes';

/** Per input, the objects read from the store instead of requested; an input that is absent is requested. */
export type StoreLists = Partial<Record<StoreInput, KubeObject[]>>;

/** The part of the store's getters read here: `store.getters`, or a test double of it. */
export type StoreGetters = Record<string, any>;

/** Gives the plain object behind a store model (the tab passes Vue's `toRaw`). */
export type Unwrap = (model: unknown) => unknown;

function isRecord(value: unknown): value is Record<string, any> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Copies along the path only, so the store's own object is never changed. */
function withoutPath(obj: Record<string, any>, path: string[]): void {
  const [head, ...rest] = path;

  if (!(head in obj)) {
    return;
  }
  if (rest.length === 0) {
    delete obj[head];

    return;
  }
  if (isRecord(obj[head])) {
    obj[head] = { ...obj[head] };
    withoutPath(obj[head], rest);
  }
}

/** `raw` is the plain object behind a store model. */
function plainCopy(raw: Record<string, any>, leftOut: string[]): KubeObject {
  const out: Record<string, any> = {};

  // The store's models keep only the API's fields as their own enumerable keys, apart from its `__` markers.
  for (const key of Object.keys(raw)) {
    if (!key.startsWith('__')) {
      out[key] = raw[key];
    }
  }
  for (const path of leftOut) {
    withoutPath(out, path.split('.'));
  }

  return out as KubeObject;
}

function completeList(getters: StoreGetters, type: string, unwrap: Unwrap): unknown[] | null {
  const haveAll = getters['management/haveAll'];
  const all = getters['management/all'];

  if (typeof haveAll !== 'function' || typeof all !== 'function' || haveAll(type) !== true) {
    return null;
  }
  // The plain array behind the store's reactive one: reading it hands out no reactive wrappers per model.
  const list = unwrap(all(type));

  return Array.isArray(list) ? list : null;
}

function inNamespace(getters: StoreGetters, type: string, namespace: string, unwrap: Unwrap, leftOut: string[]): KubeObject[] | undefined {
  const list = completeList(getters, type, unwrap);

  if (!list) {
    return undefined;
  }
  const out: KubeObject[] = [];

  // The store holds every cluster's objects: only the namespace's are copied, on every poll.
  for (const model of list) {
    const raw = unwrap(model);

    if (isRecord(raw) && isRecord(raw.metadata) && raw.metadata.namespace === namespace) {
      out.push(plainCopy(raw, leftOut));
    }
  }

  return out;
}

/** What the store can give for one load of the target; the loader still checks every object belongs to it. */
export function storeLists(getters: StoreGetters, target: ClusterTarget, unwrap: Unwrap = (m) => m): StoreLists {
  const out: StoreLists = {};

  if (target.machineManaged) {
    const machines = inNamespace(getters, STEVE_TYPES.machine, target.namespace, unwrap, UNUSED_FIELD_PATHS);

    if (machines) {
      out.machines = machines;
    }
  }
  if (target.mgmtId) {
    const mgmtNodes = inNamespace(getters, STEVE_TYPES.mgmtNode, target.mgmtId, unwrap, [...UNUSED_FIELD_PATHS, ...MGMT_NODE_LEFT_OUT_PATHS]);

    if (mgmtNodes) {
      out.mgmtNodes = mgmtNodes;
    }
  }

  return out;
}
