/**
 * A scenario's objects as the tab reads them: every kubelet's Lease is in the scenario, but the tab reads only the
 * Leases of the Nodes whose status is overdue (data/record-requests.ts leaseRequests), none on a healthy cluster.
 */
import { statusOverdue } from '../pkg/node-health/engine';
import type { KubeObject } from '../scenarios/types';

export function asTheTabReads(objects: KubeObject[], now: string): KubeObject[] {
  const at = Date.parse(now);
  const overdue = new Set(objects.filter((o) => o.kind === 'Node' && o.apiVersion === 'v1' && statusOverdue(o as any, at)).map((n) => n.metadata.name));

  return objects.filter((o) => o.kind !== 'Lease' || overdue.has(o.metadata.name));
}
