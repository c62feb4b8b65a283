/**
 * The fleet's Steve requests: every cluster's node objects from the management (local) cluster alone, one
 * collection per input across all namespaces (fleet workspaces) the user may read. Their number depends on
 * the infrastructure machine kinds in use, never on how many clusters or nodes there are; downstream
 * clusters are not asked at all.
 *
 * The URLs are built from the same parts as one cluster's requests (../data/requests.ts): the same fields asked
 * for (what the engine reads of each kind, engine/read-fields.ts), the same plan-secret whitelist; only the
 * namespace and the label selector are gone.
 */
import { STEVE_TYPES, steveIncludePaths } from '../engine';
import {
  expectedInfraKinds, fieldsOf, infraKindsOf, infraType, path, planSecretParams, queryString, UNUSED_FIELDS
} from '../data/requests';
import type { InfraKind, Param, PlannedRequest } from '../data/requests';
import type { ClusterTarget } from '../data/types';

/** What the fleet lists besides the node inputs: the clusters themselves. */
export type FleetListName = 'clusters' | 'mgmtClusters';

export interface FleetRequest {
  input: PlannedRequest['input'] | FleetListName;
  url: string;
  infra?: InfraKind;
}

/**
 * What the fleet reads of a management Node: what the engine reads of it, and Rancher's copy of the downstream
 * Node (status.internalNodeStatus, nodeLabels, nodeAnnotations) limited to what the engine reads of a Node
 * (engine/read-fields.ts), so that no downstream request is needed. Everything else (the node's images, its spec,
 * an RKE1 node's SSH config) stays on the server.
 */
export const MGMT_NODE_FLEET_FIELDS: string[] = [...new Set([
  ...steveIncludePaths('mgmtNode'),
  'status.nodeLabels',
  'status.nodeAnnotations',
  ...steveIncludePaths('node').filter((p) => p.startsWith('status.')).map((p) => `status.internalNodeStatus.${ p.slice('status.'.length) }`),
])];

/**
 * Of a provisioning cluster, what the engine reads and its whole rkeConfig: whether Rancher provisions its machines,
 * and with which node drivers, decides what else the fleet asks for (data/target.ts, expectedInfraKinds).
 */
export const CLUSTER_FLEET_FIELDS: string[] = [...steveIncludePaths('cluster').filter((p) => !p.startsWith('spec.rkeConfig.')), 'spec.rkeConfig'];

/** The management Cluster's name and display name and whether Rancher reaches its agent. */
export const MGMT_CLUSTER_FLEET_FIELDS = ['apiVersion', 'kind', 'id', 'type', 'metadata.name', 'metadata.creationTimestamp', 'spec.displayName', 'status.conditions'];

const includeAll = (paths: string[]): Param[] => paths.map((p): Param => ['include', p]);
const list = (type: string, params: Param[]): string => `${ path('v1', `${ type }s`) }${ queryString(params) }`;

export function fleetClustersRequest(): FleetRequest {
  return { input: 'clusters', url: list(STEVE_TYPES.cluster, [...includeAll(CLUSTER_FLEET_FIELDS), ...UNUSED_FIELDS]) };
}

export function fleetMgmtClustersRequest(): FleetRequest {
  return { input: 'mgmtClusters', url: list('management.cattle.io.cluster', [...includeAll(MGMT_CLUSTER_FLEET_FIELDS), ...UNUSED_FIELDS]) };
}

export function fleetMachinesRequest(): FleetRequest {
  return { input: 'machines', url: list(STEVE_TYPES.machine, fieldsOf('machine')) };
}

export function fleetPlanSecretsRequest(): FleetRequest {
  return { input: 'planSecrets', url: `${ path('v1', 'secrets') }${ queryString(planSecretParams()) }` };
}

export function fleetBootstrapsRequest(): FleetRequest {
  return { input: 'bootstraps', url: list(STEVE_TYPES.bootstrap, fieldsOf('bootstrap')) };
}

export function fleetMgmtNodesRequest(): FleetRequest {
  return { input: 'mgmtNodes', url: list(STEVE_TYPES.mgmtNode, [...includeAll(MGMT_NODE_FLEET_FIELDS), ...UNUSED_FIELDS]) };
}

export function fleetInfraMachinesRequest(infra: InfraKind): FleetRequest {
  return {
    input: 'infraMachines', infra, url: list(infraType(infra), UNUSED_FIELDS)
  };
}

/** The requests that do not depend on another answer. */
export function fleetInitialRequests(): FleetRequest[] {
  return [
    fleetClustersRequest(), fleetMgmtClustersRequest(), fleetMachinesRequest(), fleetPlanSecretsRequest(), fleetBootstrapsRequest(), fleetMgmtNodesRequest(),
  ];
}

/** Infrastructure kinds over the whole fleet: those the machines use and those the clusters' machine pools expect. */
export function fleetInfraKinds(machines: unknown[], targets: ClusterTarget[]): InfraKind[] {
  const seen = new Map<string, InfraKind>();

  for (const kind of [...infraKindsOf(machines), ...targets.flatMap((t) => expectedInfraKinds(t))]) {
    seen.set(infraType(kind), kind);
  }

  return [...seen.values()].sort((a, b) => infraType(a).localeCompare(infraType(b)));
}
