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

function poolOf(r: NodeRecord): { key: string; name: string; custom: boolean } | null {
  const m = r.objects.machine;

  if (!m) {
    return null;
  }
  const cluster = r.cluster?.name ?? '?';
  const pool = label(m, LABELS.machinePoolName) ?? label(m, LABELS.deploymentName);

  if (pool) {
    return {
      key: `${ cluster }\n${ pool }`, name: pool, custom: false
    };
  }
  const roles = [...r.roles].sort().join(', ') || '-';

  return {
    key: `${ cluster }\n@${ roles }`, name: roles, custom: true
  };
}

/** Machine created → its Node created; null when either time is not known. */
function provisioning(r: NodeRecord, now: number): { ms: number; done: boolean } | null {
  const created = Date.parse(String(metadata(r.objects.machine).creationTimestamp ?? ''));

  if (Number.isNaN(created)) {
    return null;
  }
  // The Node's creation, or where only Rancher's copy of it is read (the fleet), the copy's: Rancher makes it as the Node registers.
  const node = r.objects.node ?? r.objects.mgmtNode;
  const nodeCreated = node ? Date.parse(String(metadata(node).creationTimestamp ?? '')) : NaN;

  if (!Number.isNaN(nodeCreated)) {
    return { ms: Math.max(0, nodeCreated - created), done: true };
  }

  const m = r.objects.machine;
  const phase = String(statusOf(m).phase ?? '');
  // Only a machine that never had its Node is still provisioning: not one being deleted, one whose Node went
  // away later (it has a nodeRef, or has run), or one whose Node is merely unread.
  // The Nodes read (the tab), or where they are left to the cluster's tab, Rancher's copies of them (the fleet).
  const nodesKnown = r.inputs.nodes === 'ok' || (r.inputs.nodes === 'absent' && r.inputs.mgmtNodes === 'ok');
  const provisioningNow = !r.deleting && nodesKnown && !nodeRefName(m as KubeObject) && ['', 'Pending', 'Provisioning', 'Provisioned'].includes(phase);

  return provisioningNow ? { ms: Math.max(0, now - created), done: false } : null;
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
  const pools = new Map<string, { r: NodeRecord; p: { ms: number; done: boolean }; name: string; custom: boolean }[]>();

  for (const r of records) {
    const pool = poolOf(r);
    const p = pool ? provisioning(r, now) : null;

    if (pool && p) {
      const list = pools.get(pool.key) ?? [];

      list.push({
        r, p, name: pool.name, custom: pool.custom
      });
      pools.set(pool.key, list);
    }
  }
  for (const members of pools.values()) {
    const done = members.filter((x) => x.p.done).map((x) => x.p.ms).sort((a, b) => a - b);

    for (const me of members) {
      const skip = me.p.done ? indexOf(done, me.p.ms) : -1;
      const peers = done.length - (skip >= 0 ? 1 : 0);
      const medianMs = peers >= POOL_MIN_PEERS ? medianWithout(done, skip) : null;
      const outlier = medianMs !== null && me.p.ms > Math.max(medianMs * OUTLIER_FACTOR, medianMs + OUTLIER_MIN_EXTRA_MS);

      me.r.pool = {
        pool: me.name, custom: me.custom, provisioningMs: me.p.ms, done: me.p.done, medianMs, peers, outlier
      };
    }
  }
}
