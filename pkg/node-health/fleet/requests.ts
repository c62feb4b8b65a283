/**
 * The fleet's Steve requests: every cluster's node objects from the management (local) cluster alone, one
 * collection per input across all namespaces (fleet workspaces) the user may read. Their number depends on
 * the infrastructure machine kinds in use, never on how many clusters or nodes there are; downstream
 * clusters are not asked at all.
 *
 * The URLs are built from the same parts as one cluster's requests (../data/requests.ts): the same fields asked
 * for (what the engine reads of each kind, engine/read-fields.ts), the same plan-secret whitelist and its form for
 * Steve's mode (SQL cache or not), the same access review of each list; only the namespace and the label
 * selector are gone. The management clusters are asked for as one cluster's tab asks for its own (data/mgmt-cluster.ts).
 */
import { STEVE_TYPES, steveIncludePaths } from '../engine';
import {
  expectedInfraKinds, fieldsOf, infraKindsOf, infraType, path, planSecretParams, queryString, UNUSED_FIELDS
} from '../data/requests';
import type {
  InfraKind, ListAccess, ListForm, Param, PlannedRequest
} from '../data/requests';
import { mgmtClustersUrl } from '../data/mgmt-cluster';
import type { ClusterTarget } from '../data/types';

/** What the fleet lists besides the node inputs: the clusters themselves. */
export type FleetListName = 'clusters' | 'mgmtClusters';

export interface FleetRequest {
  input: PlannedRequest['input'] | FleetListName;
  url: string;
  infra?: InfraKind;
  /** the whole resource, in every namespace: what an access review asks of the list */
  access: ListAccess;
}

/** A Node's field paths under `prefix` (status., spec.) as they sit in the management Node's copy. */
function copiedNodeFields(prefix: string, copyPath: string): string[] {
  return steveIncludePaths('node').filter((p) => p.startsWith(prefix)).map((p) => `${ copyPath }.${ p.slice(prefix.length) }`);
}

/**
 * What the fleet reads of a management Node: what the engine reads of it, and Rancher's copy of the downstream
 * Node (status.internalNodeStatus, spec.internalNodeSpec, nodeLabels, nodeAnnotations) limited to what the engine
 * reads of a Node (engine/read-fields.ts), so that no downstream request is needed. Everything else (the node's
 * images, an RKE1 node's SSH config) stays on the server.
 */
export const MGMT_NODE_FLEET_FIELDS: string[] = [...new Set([
  ...steveIncludePaths('mgmtNode'),
  'status.nodeLabels',
  'status.nodeAnnotations',
  ...copiedNodeFields('status.', 'status.internalNodeStatus'),
  ...copiedNodeFields('spec.', 'spec.internalNodeSpec'),
])];

/**
 * Of a provisioning cluster, what the engine reads and its whole rkeConfig: whether Rancher provisions its machines,
 * and with which node drivers, decides what else the fleet asks for (data/target.ts, expectedInfraKinds).
 */
export const CLUSTER_FLEET_FIELDS: string[] = [...steveIncludePaths('cluster').filter((p) => !p.startsWith('spec.rkeConfig.')), 'spec.rkeConfig'];

const includeAll = (paths: string[]): Param[] => paths.map((p): Param => ['include', p]);
const list = (type: string, params: Param[]): string => `${ path('v1', `${ type }s`) }${ queryString(params) }`;
const everywhere = (group: string, resource: string): ListAccess => ({
  cluster: null, group, resource
});

export function fleetClustersRequest(): FleetRequest {
  return {
    input: 'clusters', url: list(STEVE_TYPES.cluster, [...includeAll(CLUSTER_FLEET_FIELDS), ...UNUSED_FIELDS]), access: everywhere('provisioning.cattle.io', 'clusters')
  };
}

export function fleetMgmtClustersRequest(): FleetRequest {
  return {
    input: 'mgmtClusters', url: mgmtClustersUrl(), access: everywhere('management.cattle.io', 'clusters')
  };
}

export function fleetMachinesRequest(): FleetRequest {
  return {
    input: 'machines', url: list(STEVE_TYPES.machine, fieldsOf('machine')), access: everywhere('cluster.x-k8s.io', 'machines')
  };
}

export function fleetPlanSecretsRequest(form: ListForm = 'selectors'): FleetRequest {
  return {
    input: 'planSecrets', url: `${ path('v1', 'secrets') }${ queryString(planSecretParams(form)) }`, access: everywhere('', 'secrets')
  };
}

export function fleetBootstrapsRequest(): FleetRequest {
  return {
    input: 'bootstraps', url: list(STEVE_TYPES.bootstrap, fieldsOf('bootstrap')), access: everywhere('rke.cattle.io', 'rkebootstraps')
  };
}

export function fleetMgmtNodesRequest(): FleetRequest {
  return {
    input: 'mgmtNodes', url: list(STEVE_TYPES.mgmtNode, [...includeAll(MGMT_NODE_FLEET_FIELDS), ...UNUSED_FIELDS]), access: everywhere('management.cattle.io', 'nodes')
  };
}

export function fleetInfraMachinesRequest(infra: InfraKind): FleetRequest {
  return {
    input: 'infraMachines', infra, url: list(infraType(infra), fieldsOf('infraMachine')), access: everywhere(infra.group, `${ infra.kind.toLowerCase() }s`)
  };
}

/** Cluster API's own objects of every cluster: CAPI Clusters, pools and their health checks. */
export function fleetCapiRequests(): FleetRequest[] {
  const kinds = [
    ['capiClusters', 'capiCluster', 'clusters'], ['machineDeployments', 'machineDeployment', 'machinedeployments'],
    ['machineSets', 'machineSet', 'machinesets'], ['machineHealthChecks', 'machineHealthCheck', 'machinehealthchecks'],
  ] as const;

  return kinds.map(([input, kind, resource]) => ({
    input, url: list(STEVE_TYPES[kind], fieldsOf(kind)), access: everywhere('cluster.x-k8s.io', resource)
  }));
}

/** The requests that do not depend on another answer. */
export function fleetInitialRequests(form: ListForm = 'selectors'): FleetRequest[] {
  return [
    fleetClustersRequest(), fleetMgmtClustersRequest(), fleetMachinesRequest(), fleetPlanSecretsRequest(form), fleetBootstrapsRequest(), fleetMgmtNodesRequest(),
    ...fleetCapiRequests(),
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
