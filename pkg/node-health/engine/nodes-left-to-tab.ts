/**
 * A diagnosis that never read the downstream Node list (the fleet): its Nodes are Rancher's copies of them, kept
 * in the management Nodes, and what only the list itself can tell is left to the cluster's tab.
 * - Rancher's own status still counts: the safety net (unexplained-not-ready) and every other rule read the
 *   Machine's phase and conditions and the management Node's copy of the Node's conditions, as in the tab. A
 *   machine Rancher reports as not ready is never healthy here, even where the tab would name the cause with a
 *   rule left to it (then the diagnosis says it in Rancher's words).
 * - A machine that names its Node (status.nodeRef) when Rancher holds no copy of that Node gets a note that the
 *   cluster's tab checks it (the Node may be gone: node-missing, a rule that needs the Node list). With no finding
 *   it is "unknown" with that reason, never healthy; with one, the finding's severity stands.
 * - A Node without a machine is known only from Rancher's copy, which outlives a deleted Node: its findings stand
 *   (the machine is gone either way), with a note that the tab tells whether the Node itself is still there.
 * This runs on the finished report, so that everything else in it reads as a diagnosis without the option would.
 */
import type { NodeRecord, RecordStatus } from './types';
import { nodeRefName } from './objects';

/** Annotation on a Node built from a management Node's copy: `<namespace>/<name>` of that management Node. */
export const COPIED_FROM_ANNOTATION = 'node-health.cattle.io/copied-from-management-node';

export function markNodesLeftToTab(records: NodeRecord[], counts: Record<RecordStatus, number>): void {
  for (const r of records) {
    const m = r.objects.machine;
    const ref = m ? nodeRefName(m) : null;

    if (!m && r.objects.node && r.findings.length && r.objects.node.metadata?.annotations?.[COPIED_FROM_ANNOTATION]) {
      r.notes.push({ key: 'nodeHealth.notes.nodeCopyOnly', args: { node: r.nodeName ?? '' } });
    }

    if (!m || r.objects.node || !ref || r.deleting) {
      continue;
    }
    r.notes.push({ key: 'nodeHealth.notes.nodeNotCopied', args: { node: ref } });
    if (r.status === 'healthy') {
      counts.healthy--;
      counts.unknown++;
      r.status = 'unknown';
      r.statusSince = null;
    }
  }
}
