/**
 * A machine compared with its pool: how long it has taken to get its Node against how long the pool's other
 * machines took (the median), so that "provisioning for 42 min" reads against "the others took 3 min". A pool is
 * a node-driver pool (its MachineDeployment, or Rancher's rke-machine-pool-name), or for custom hosts the machines
 * of the cluster with the same roles.
 */
import type { KubeObject, NodeRecord, PoolComparison } from './types';
import { label, metadata, statusOf } from './fields';
import { nodeRefName } from './objects';
import { LABELS } from './vocabulary';

/** Fewer finished peers than this say nothing about what is usual. */
export const POOL_MIN_PEERS = 2;
export type { PoolComparison };

/** An outlier takes this many times the pool's median, and at least OUTLIER_MIN_EXTRA_MS more. */
export const OUTLIER_FACTOR = 3;
export const OUTLIER_MIN_EXTRA_MS = 10 * 60 * 1000;

/** The pool a machine's record belongs to, by name: its node-driver pool, else "@" and its roles (custom hosts). */
function poolNameOf(r: NodeRecord): string | null {
  const m = r.objects.machine;

  if (!m) {
    return null;
  }
  const pool = label(m, LABELS.machinePoolName) ?? label(m, LABELS.deploymentName);

  if (pool) {
    return pool;
  }
  let name = CUSTOM_POOL_NAMES.get(r.roles);

  if (name === undefined) {
    const roles = r.roles.length === 1 ? r.roles[0] : [...r.roles].sort().join(', ');

    name = `@${ roles || '-' }`;
    CUSTOM_POOL_NAMES.set(r.roles, name);
  }

  return name;
}

/**
 * Custom hosts' pool names by their role list: the join shares one list per combination of roles, so a large
 * cluster's records make a handful of names, not one each. Nothing writes to a record's roles.
 */
const CUSTOM_POOL_NAMES = new WeakMap<readonly string[], string>();

interface Member {
  r: NodeRecord;
  /** machine created → its Node created, or until now while it has none */
  ms: number;
  done: boolean;
}

/** Machine created → its Node created as a pool member; null when either time is not known. */
function provisioning(r: NodeRecord, now: number): Member | null {
  const created = Date.parse(String(metadata(r.objects.machine).creationTimestamp ?? ''));

  if (Number.isNaN(created)) {
    return null;
  }
  // The Node's creation, or where only Rancher's copy of it is read (the fleet), the copy's: Rancher makes it as the Node registers.
  const node = r.objects.node ?? r.objects.mgmtNode;
  const nodeCreated = node ? Date.parse(String(metadata(node).creationTimestamp ?? '')) : NaN;

  if (!Number.isNaN(nodeCreated)) {
    return {
      r, ms: Math.max(0, nodeCreated - created), done: true
    };
  }

  const m = r.objects.machine;
  const phase = String(statusOf(m).phase ?? '');
  // Only a machine that never had its Node is still provisioning: not one being deleted, one whose Node went
  // away later (it has a nodeRef, or has run), or one whose Node is merely unread.
  // The Nodes read (the tab), or where they are left to the cluster's tab, Rancher's copies of them (the fleet).
  const nodesKnown = r.inputs.nodes === 'ok' || (r.inputs.nodes === 'absent' && r.inputs.mgmtNodes === 'ok');
  const provisioningNow = !r.deleting && nodesKnown && !nodeRefName(m as KubeObject) && ['', 'Pending', 'Provisioning', 'Provisioned'].includes(phase);

  return provisioningNow ? {
    r, ms: Math.max(0, now - created), done: false
  } : null;
}

/** The element at `i` of `sorted` as if the element at `skip` were not there (-1: none skipped). */
function at(sorted: number[], i: number, skip: number): number {
  return sorted[skip >= 0 && i >= skip ? i + 1 : i];
}

/** The median of `sorted` without the element at `skip`: one sorted list serves every member of a pool. */
function medianWithout(sorted: number[], skip: number): number {
  const n = sorted.length - (skip >= 0 ? 1 : 0);
  const mid = Math.floor(n / 2);

  return n % 2 ? at(sorted, mid, skip) : (at(sorted, mid - 1, skip) + at(sorted, mid, skip)) / 2;
}

/** Where `value` stands in `sorted` (it is there). */
function indexOf(sorted: number[], value: number): number {
  let lo = 0;
  let hi = sorted.length - 1;

  while (lo < hi) {
    const mid = (lo + hi) >> 1;

    if (sorted[mid] < value) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }

  return lo;
}

export function attachPoolComparisons(records: NodeRecord[], now: number): void {
  // Per cluster name, per pool name: no key made per record.
  const pools = new Map<string, Map<string, Member[]>>();

  for (const r of records) {
    const name = poolNameOf(r);
    const member = name !== null ? provisioning(r, now) : null;

    if (name === null || member === null) {
      continue;
    }
    const cluster = r.cluster?.name ?? '?';
    let byName = pools.get(cluster);

    if (!byName) {
      byName = new Map();
      pools.set(cluster, byName);
    }
    const list = byName.get(name);

    if (list) {
      list.push(member);
    } else {
      byName.set(name, [member]);
    }
  }
  for (const byName of pools.values()) {
    for (const [name, members] of byName) {
      compareMembers(name, members);
    }
  }
}

function compareMembers(name: string, members: Member[]): void {
  const custom = name.startsWith('@');
  const pool = custom ? name.slice(1) : name;
  const done = members.filter((x) => x.done).map((x) => x.ms).sort((a, b) => a - b);

  for (const me of members) {
    const skip = me.done ? indexOf(done, me.ms) : -1;
    const peers = done.length - (skip >= 0 ? 1 : 0);
    const medianMs = peers >= POOL_MIN_PEERS ? medianWithout(done, skip) : null;
    const outlier = medianMs !== null && me.ms > Math.max(medianMs * OUTLIER_FACTOR, medianMs + OUTLIER_MIN_EXTRA_MS);

    me.r.pool = {
      pool, custom, provisioningMs: me.ms, done: me.done, medianMs, peers, outlier
    };
  }
}
