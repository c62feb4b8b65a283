/**
 * What a provisioning cluster says about its nodes: the planner (pkg/capr/planner) writes to
 * Updated/Provisioned/Ready the machines it waits for, so the cluster's own conditions name the machines
 * that hold every other operation back. Its forms, matched by their stable beginnings (PLANNER_FORMS).
 */
import type { ClusterIdentity, ClusterInfo, KubeObject, NodeRecord } from './types';
import { getCondition } from './conditions';
import { CERTIFICATE_ROTATION_FAILED, CERTIFICATE_ROTATION_WAITING, PLANNER_MESSAGES } from './signals/planner';
import {
  asString, nameOf, namespaceOf, specOf, statusOf
} from './fields';

/** The provisioning cluster's conditions Rancher says what it waits for on, in the order they are read. */
export const BLOCKING_CONDITIONS = ['Updated', 'Provisioned', 'Ready'];

/** The planner's messages that name machines or say what the cluster waits for (signals/planner.ts). */
export const PLANNER_FORMS: readonly RegExp[] = [...new Set(PLANNER_MESSAGES.filter((e) => e.rule === 'blocking-cluster-operation').map((e) => e.pattern))];
/** Waits of the planner for something of the whole cluster, whatever machine its message names. */
const WAITS_FOR_CLUSTER: readonly RegExp[] = PLANNER_MESSAGES.filter((e) => e.waitsForCluster).map((e) => e.pattern);

/** Tokens of a condition message that may be machine names ("custom-x", "[custom-x]", "fleet-default/custom-x"). */
export function messageTokens(message: string): Set<string> {
  return new Set(message.split(/[\s,;:[\]()"'/]+/).filter(Boolean));
}

/**
 * A provisioning cluster's identity as its object tells it: the one place it is read from the object, for the
 * targets (data/target.ts) and for cluster objects given without one (kubectl output).
 */
export function clusterIdentityOf(cluster: KubeObject): ClusterIdentity {
  const rkeConfig = specOf(cluster).rkeConfig;

  return {
    name:           nameOf(cluster) ?? '?',
    namespace:      namespaceOf(cluster) ?? '',
    mgmtId:         asString(statusOf(cluster).clusterName) || null,
    machineManaged: !!rkeConfig && typeof rkeConfig === 'object',
  };
}

/** What a cluster object says about its state (what holds it back), under the identity given for it or read from it. */
export function readClusterInfo(cluster: KubeObject, identity: ClusterIdentity = clusterIdentityOf(cluster)): ClusterInfo {
  const info = clusterWithNothingKnown(identity.name, identity.namespace || null, identity.mgmtId, identity.machineManaged ? 'provisioned' : 'imported');

  for (const type of BLOCKING_CONDITIONS) {
    const c = getCondition(cluster, type);

    if (c && c.status !== 'True' && c.message && PLANNER_FORMS.some((form) => form.test(c.message as string))) {
      info.blockingMessage = c.message;
      info.blockingCondition = type;
      info.blockingSince = c.lastTransitionTime;
      info.blockingStatus = c.status;
      break;
    }
  }

  // Whether a rotation is done is kept on the RKEControlPlane (status.certificateRotationGeneration), not on the
  // provisioning cluster; while one runs, the planner says so before anything else, and names the machine.
  const message = info.blockingMessage ?? '';

  info.certificateRotation = CERTIFICATE_ROTATION_FAILED.test(message) ? 'failed' : (CERTIFICATE_ROTATION_WAITING.test(message) ? 'waiting' : null);

  return info;
}

/** Fills blockingMachines from the names the cluster knows, so "and 10 more" never yields a bogus name. */
export function resolveBlockingMachines(info: ClusterInfo, machineNames: Iterable<string>): void {
  // The planner names the control-plane machine it was configuring while it waits for something of the cluster's
  // (the agent, Rancher's pre-bootstrap: signals/planner.ts waitsForCluster): that holds it back, not the machine.
  if (!info.blockingMessage || WAITS_FOR_CLUSTER.some((p) => p.test(info.blockingMessage as string))) {
    return;
  }
  const tokens = messageTokens(info.blockingMessage);
  const found: string[] = [];

  for (const name of machineNames) {
    if (tokens.has(name)) {
      found.push(name);
    }
  }
  info.blockingMachines = found.sort();
}

export function unknownCluster(idOrName: string, mgmtId: string | null): ClusterInfo {
  return clusterWithNothingKnown(idOrName, null, mgmtId, 'unknown');
}

function clusterWithNothingKnown(name: string, namespace: string | null, mgmtId: string | null, kind: ClusterInfo['kind']): ClusterInfo {
  return {
    name,
    namespace,
    mgmtId,
    kind,
    blockingMessage:            null,
    blockingCondition:          null,
    blockingSince:              null,
    blockingStatus:             null,
    blockingMachines:           [],
    certificateRotation:        null,
    findings:                   [],
  };
}

/** The records of each cluster, in their order (records of no cluster under null). */
export function recordsByCluster(records: readonly NodeRecord[]): Map<ClusterInfo | null, NodeRecord[]> {
  const byCluster = new Map<ClusterInfo | null, NodeRecord[]>();

  for (const r of records) {
    const list = byCluster.get(r.cluster);

    if (list) {
      list.push(r);
    } else {
      byCluster.set(r.cluster, [r]);
    }
  }

  return byCluster;
}
