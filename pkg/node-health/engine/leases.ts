/**
 * The kubelet's Lease (coordination.k8s.io/v1, in kube-node-lease, named as its Node): the kubelet renews it every
 * 10 s, a quarter of its leaseDurationSeconds (40 s by default), independently of the Node's status, which it
 * writes only every 5 min when nothing changed (kubelet nodelease controller; pkg/kubelet/kubelet_node_status.go).
 * The node lifecycle controller takes either as a sign of life. So a Node whose status is old tells two stories
 * apart only with its Lease: renewed, the kubelet runs and reaches the API server but its status writes fail; not
 * renewed, nothing reaches the cluster from the host, and nothing marked the Node Unknown either.
 *
 * The tab reads the Leases of the Nodes whose status is older than a kubelet leaves it (`statusOverdue`) only, and
 * never watches them: every one of them changes every 10 s.
 */
import type { KubeObject } from './types';
import { annotation, asObject, asString } from './fields';
import { nodeReadyCondition, readyHeartbeat } from './conditions';
import { COPIED_FROM_ANNOTATION } from './nodes-left-to-tab';

/**
 * A kubelet status this recent says the kubelet runs. With nothing changed, kubelet writes its Node's status (the
 * conditions' lastHeartbeatTime with it) only every nodeStatusReportFrequency, 5 min by default, checked every 10 s
 * (pkg/kubelet/kubelet_node_status.go tryUpdateNodeStatus), and renews its Lease in between: a live host's heartbeat
 * is up to 5 min old. A minute more allows for the time Rancher's view takes to catch up.
 */
export const LIVE_HEARTBEAT_MS = 6 * 60 * 1000;

/** The kubelet's default --node-lease-duration-seconds */
export const DEFAULT_LEASE_DURATION_S = 40;

/**
 * How many of its durations a Lease may be old and still count as renewed. The kubelet renews it four times per
 * duration; the rest allows for the time between reading it and judging it, and for clocks that differ.
 */
const RENEWED_WITHIN_DURATIONS = 3;

/** When the Lease was last renewed (spec.renewTime), as written. */
export function leaseRenewTime(lease: KubeObject): string | null {
  return asString(asObject(lease.spec).renewTime);
}

/** For how long a renewal of this Lease holds, in ms: its leaseDurationSeconds, or the kubelet's default. */
function leaseDurationMs(lease: KubeObject): number {
  const seconds = asObject(lease.spec).leaseDurationSeconds;

  return (typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 ? seconds : DEFAULT_LEASE_DURATION_S) * 1000;
}

/** How old a renewal may be and still say the kubelet renews its Lease. */
export function leaseRenewedWithinMs(lease: KubeObject): number {
  return RENEWED_WITHIN_DURATIONS * leaseDurationMs(lease);
}

/**
 * Whether a Node's status is older than a running kubelet leaves it, so that only its Lease can tell whether the
 * kubelet runs: Ready True or False (Unknown is the controller's own verdict) from a status older than
 * LIVE_HEARTBEAT_MS, on a Node of the cluster (Rancher's copy keeps no heartbeat).
 */
export function statusOverdue(node: KubeObject, now: number): boolean {
  const ready = nodeReadyCondition(node);

  if ((ready?.status !== 'True' && ready?.status !== 'False') || annotation(node, COPIED_FROM_ANNOTATION) !== null) {
    return false;
  }
  const beat = Date.parse(readyHeartbeat(node) ?? '');

  return Number.isNaN(beat) || now - beat > LIVE_HEARTBEAT_MS;
}
