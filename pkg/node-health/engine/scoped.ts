/**
 * A diagnosis of one record's objects rather than its whole cluster's (the record tab's scoped load,
 * data/record-load.ts): the record's own chain, read by name, is complete, and so are the etcd and control-plane
 * machines with their Nodes; everything else of the cluster was not asked for. Nothing here may be taken as absent
 * for not being read, so what only the whole cluster can tell is said in a note on the record, with the way to the
 * cluster's tab, instead of guessed:
 * - a record that lacks a part (a machine without its Node, a Node, Rancher's node or plan secret without a machine)
 *   is related to other records by host and by name over the whole cluster (another machine waiting for the same
 *   Node, a Node at its address under another name, engine/hosts.ts): its findings stand, a record that looks healthy
 *   is "unknown" with that note;
 * - of a complete record (a machine with its Node), what other records' findings say of it (another machine waiting
 *   for its Node's name, related-record) needs those records: a note says the cluster's tab checks them, the rest of
 *   the judgement stands;
 * - an etcd machine held by its removal hook names the machines that joined the cluster through it, which their plan
 *   secrets' `rke.cattle.io/joined-to` annotation tells (no selector reaches it): the finding stands, the note says
 *   the list of those machines is the cluster's tab's;
 * - a machine whose pool was not read in full is not compared with its pool (engine/pools.ts).
 * This runs on the finished report, as nodes-left-to-tab.ts does. A cluster whose machines Rancher does not provision
 * (imported) has no machine to relate a Node to: its records need no note.
 */
import type { NodeRecord, RecordScope, RecordStatus } from './types';

export const WHOLE_CLUSTER_NOTE = 'nodeHealth.notes.scoped.wholeCluster';
export const RELATED_NOTE = 'nodeHealth.notes.scoped.related';
export const JOINED_NOTE = 'nodeHealth.notes.scoped.joined';
export const POOL_NOTE = 'nodeHealth.notes.scoped.pool';

/** A record whose relations to others (same host, same name) only the whole cluster tells. */
function lacksAPart(r: NodeRecord): boolean {
  const {
    machine, node, mgmtNode, planSecret
  } = r.objects;

  return machine ? !node : !!(node || mgmtNode || planSecret);
}

export function markScoped(records: NodeRecord[], counts: Record<RecordStatus, number>, scope: RecordScope): void {
  for (const r of records) {
    if (!scope.poolRead && r.pool) {
      delete r.pool;
      r.notes.push({ key: POOL_NOTE });
    }
    if (r.findings.some((f) => f.rule === 'etcd-removal-hook-blocked')) {
      r.notes.push({ key: JOINED_NOTE });
    }
    if (r.cluster?.kind !== 'provisioned') {
      continue;
    }
    if (!lacksAPart(r)) {
      r.notes.push({ key: RELATED_NOTE });
      continue;
    }
    r.notes.push({ key: WHOLE_CLUSTER_NOTE });
    if (r.status === 'healthy') {
      counts.healthy--;
      counts.unknown++;
      r.status = 'unknown';
      r.statusSince = null;
    }
  }
}
