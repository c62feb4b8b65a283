/**
 * The Steve requests of one load, as explicit URLs. Their number depends on the cluster (one per
 * infrastructure machine kind its machines use), never on how many nodes it has.
 *
 * Selectors, in the form Steve's mode honours. Without its SQL cache, Steve passes `labelSelector` /
 * `fieldSelector` to Kubernetes, and its own `filter` splits field paths on dots (no label key can be named).
 * With the SQL cache (feature ui-sql-cache, the default from Rancher 2.12), its list processor (steve
 * pkg/stores/sqlpartition/listprocessor) reads only `filter`, in Kubernetes selector grammar over indexed
 * fields, labels among them: `filter=metadata.labels[<key>]=<value>`; selectors are ignored. When the mode is
 * not known, selectors are sent: right in both modes, only costlier with the cache. The loader checks every
 * answer against the same selector again either way (see load.ts).
 *
 * Fields: Steve's formatter (pkg/resources/common/formatter.go) applies `include` (keep only these dot
 * paths; the envelope id/type/links stays) and then `exclude` (drop these paths) to every object it returns.
 * Every request includes only what the engine reads of its kind (engine/read-fields.ts, the same list the
 * exports keep): fewer bytes, and for plan secrets no data key other than the status keys is ever sent,
 * whatever a future agent writes. The secret's own `type` has already moved to `_type` at that point
 * (pkg/stores/partition ToAPI). The excludes still hold if a proxy drops `include`.
 */
import {
  CAPI_INFRASTRUCTURE_GROUP, LABELS, NODE_LEASE_NAMESPACE, PLAN_SECRET_TYPE, STEVE_TYPES, infrastructureRef, steveIncludePaths
} from '../engine';
import type { InputName, KubeObject, ObjectKind } from '../engine';
import type { ClusterTarget } from './types';

/** Data keys of the machine-plan secret that carry join tokens, certificates, file contents or their output. */
export const PLAN_SECRET_SENSITIVE_KEYS = ['plan', 'appliedPlan', 'applied-output', 'failed-output', 'applied-periodic-output'] as const;

/** Infrastructure machines the engine understands; anything else in a machine's infrastructureRef is not requested. */
const INFRA_GROUPS = new Set(['rke.cattle.io', 'rke-machine.cattle.io', CAPI_INFRASTRUCTURE_GROUP]);
const KIND_PATTERN = /^[A-Za-z][A-Za-z0-9]*$/;
/** A node driver's machine config kind (VmwarevsphereConfig), its driver's name captured */
const MACHINE_CONFIG_KIND = /^([A-Za-z][A-Za-z0-9]*)Config$/;

export interface InfraKind {
  group: string;
  kind: string;
}

/** How lists are asked for: `filter` for Steve with its SQL cache, `selectors` otherwise (or when not known). */
export type ListForm = 'filter' | 'selectors';

/** What a SelfSubjectAccessReview asks about a request's list: may the user list all of it? */
export interface ListAccess {
  /** management id of the downstream cluster, or null for Rancher's own */
  cluster: string | null;
  group: string;
  resource: string;
  namespace?: string;
}

export interface PlannedRequest {
  input: InputName;
  url: string;
  /** infrastructure machine kind, for infraMachines requests */
  infra?: InfraKind;
  access: ListAccess;
  /** read anew on every load, never from a watched earlier answer: a list whose objects all change every few seconds */
  unwatched?: true;
}

export type Param = [string, string];

export function queryString(params: Param[]): string {
  return params.length ? `?${ params.map(([k, v]) => `${ k }=${ encodeURIComponent(v) }`).join('&') }` : '';
}

export function path(...segments: string[]): string {
  return `/${ segments.map((s) => encodeURIComponent(s)).join('/') }`;
}

/** Steve serves a type's list under its plural, which for every type asked for here is a plain "s". */
export function collection(steveType: string): string {
  return `${ steveType }s`;
}

/**
 * Left out of every object: the API server's field ownership records, and what Steve adds for its own tables
 * (metadata.fields: the table columns; metadata.relationships). Nothing here reads them; on a big cluster they
 * are megabytes the browser would otherwise receive and parse on every load.
 */
export const UNUSED_FIELD_PATHS = ['metadata.managedFields', 'metadata.fields', 'metadata.relationships'];

/**
 * Also left out of a management Node: nodeConfig can hold an RKE1 node's SSH key. The rest is Rancher's copy of
 * the downstream Node, which the tab loads itself: leaving it out halves the largest response of a big cluster.
 * Only its nodeInfo is kept: a management Node whose Node is gone still tells the host's operating system.
 */
export const MGMT_NODE_LEFT_OUT_PATHS = [
  ...['images', 'conditions', 'addresses', 'capacity', 'allocatable', 'daemonEndpoints', 'volumesAttached', 'volumesInUse', 'config']
    .map((field) => `status.internalNodeStatus.${ field }`),
  'status.nodeLabels', 'spec.internalNodeSpec', 'status.nodeConfig',
];

export const UNUSED_FIELDS: Param[] = UNUSED_FIELD_PATHS.map((p): Param => ['exclude', p]);

/** The fields the engine reads of a kind, and the excludes that hold without them. */
export function fieldsOf(kind: ObjectKind, ...excludes: string[]): Param[] {
  return [...steveIncludePaths(kind).map((p): Param => ['include', p]), ...UNUSED_FIELDS, ...excludes.map((p): Param => ['exclude', p])];
}

export function clusterSelector(target: ClusterTarget): string {
  return `${ LABELS.capiClusterName }=${ target.name }`;
}

export function planSecretSelector(target: ClusterTarget): string {
  return `${ LABELS.rkeClusterName }=${ target.name }`;
}

/** A label selector `key=value` in the form the mode honours. */
export function byLabel(selector: string, form: ListForm): Param {
  const eq = selector.indexOf('=');

  return form === 'filter' ? ['filter', `metadata.labels[${ selector.slice(0, eq) }]=${ selector.slice(eq + 1) }`] : ['labelSelector', selector];
}

export function localAccess(group: string, resource: string, namespace: string): ListAccess {
  return {
    cluster: null, group, resource, namespace
  };
}

export function machinesRequest(target: ClusterTarget, form: ListForm = 'selectors'): PlannedRequest {
  return {
    input:  'machines',
    url:    `${ path('v1', collection(STEVE_TYPES.machine), target.namespace) }${ queryString([byLabel(clusterSelector(target), form), ...fieldsOf('machine')]) }`,
    access: localAccess('cluster.x-k8s.io', 'machines', target.namespace),
  };
}

/** Only machine-plan secrets, and of them only the status keys: one cluster's request and the fleet's share these. */
export function planSecretParams(form: ListForm = 'selectors'): Param[] {
  return [
    form === 'filter' ? ['filter', `_type=${ PLAN_SECRET_TYPE }`] : ['fieldSelector', `type=${ PLAN_SECRET_TYPE }`],
    ...fieldsOf('planSecret', ...PLAN_SECRET_SENSITIVE_KEYS.map((k) => `data.${ k }`)),
  ];
}

export function planSecretsRequest(target: ClusterTarget, form: ListForm = 'selectors'): PlannedRequest {
  const params: Param[] = [byLabel(planSecretSelector(target), form), ...planSecretParams(form)];

  return {
    input: 'planSecrets', url: `${ path('v1', collection(STEVE_TYPES.planSecret), target.namespace) }${ queryString(params) }`, access: localAccess('', 'secrets', target.namespace)
  };
}

export function bootstrapsRequest(target: ClusterTarget, form: ListForm = 'selectors'): PlannedRequest {
  return {
    input:  'bootstraps',
    url:    `${ path('v1', collection(STEVE_TYPES.bootstrap), target.namespace) }${ queryString([byLabel(clusterSelector(target), form), ...fieldsOf('bootstrap')]) }`,
    access: localAccess('rke.cattle.io', 'rkebootstraps', target.namespace),
  };
}

/**
 * The CAPI Cluster Rancher made for the provisioning cluster: same name, same namespace. Steve's own `filter` on
 * metadata.name holds in both modes (without the cache it matches field paths; with it, metadata.name is indexed).
 */
export function capiClustersRequest(target: ClusterTarget, form: ListForm = 'selectors'): PlannedRequest {
  const byName: Param = form === 'filter' ? ['filter', `metadata.name=${ target.name }`] : ['fieldSelector', `metadata.name=${ target.name }`];

  return {
    input:  'capiClusters',
    url:    `${ path('v1', collection(STEVE_TYPES.capiCluster), target.namespace) }${ queryString([byName, ...fieldsOf('capiCluster')]) }`,
    access: localAccess('cluster.x-k8s.io', 'clusters', target.namespace),
  };
}

/** A pool object of the cluster (MachineDeployment, MachineSet, MachineHealthCheck): Cluster API labels each with the cluster's name. */
function poolRequest(target: ClusterTarget, form: ListForm, input: 'machineDeployments' | 'machineSets' | 'machineHealthChecks'): PlannedRequest {
  const kind = ({
    machineDeployments: 'machineDeployment', machineSets: 'machineSet', machineHealthChecks: 'machineHealthCheck'
  } as const)[input];

  return {
    input,
    url:    `${ path('v1', collection(STEVE_TYPES[kind]), target.namespace) }${ queryString([byLabel(clusterSelector(target), form), ...fieldsOf(kind)]) }`,
    access: localAccess('cluster.x-k8s.io', `${ kind.toLowerCase() }s`, target.namespace),
  };
}

export function machineDeploymentsRequest(target: ClusterTarget, form: ListForm = 'selectors'): PlannedRequest {
  return poolRequest(target, form, 'machineDeployments');
}

export function machineSetsRequest(target: ClusterTarget, form: ListForm = 'selectors'): PlannedRequest {
  return poolRequest(target, form, 'machineSets');
}

export function machineHealthChecksRequest(target: ClusterTarget, form: ListForm = 'selectors'): PlannedRequest {
  return poolRequest(target, form, 'machineHealthChecks');
}

/** Steve type of an infrastructure machine kind, e.g. rke-machine.cattle.io.vmwarevspheremachine. */
export function infraType(infra: InfraKind): string {
  return `${ infra.group }.${ infra.kind.toLowerCase() }`;
}

export function infraMachinesRequest(target: ClusterTarget, infra: InfraKind, form: ListForm = 'selectors'): PlannedRequest {
  return {
    input:  'infraMachines',
    infra,
    url:    `${ path('v1', collection(infraType(infra)), target.namespace) }${ queryString([byLabel(clusterSelector(target), form), ...fieldsOf('infraMachine')]) }`,
    access: localAccess(infra.group, `${ infra.kind.toLowerCase() }s`, target.namespace),
  };
}

export function mgmtNodesRequest(mgmtId: string): PlannedRequest {
  return {
    input:  'mgmtNodes',
    url:    `${ path('v1', collection(STEVE_TYPES.mgmtNode), mgmtId) }${ queryString(fieldsOf('mgmtNode', ...MGMT_NODE_LEFT_OUT_PATHS)) }`,
    access: localAccess('management.cattle.io', 'nodes', mgmtId),
  };
}

export function nodesRequest(mgmtId: string): PlannedRequest {
  return {
    input:  'nodes',
    url:    `${ path('k8s', 'clusters', mgmtId, 'v1', collection(STEVE_TYPES.node)) }${ queryString(fieldsOf('node', 'status.images')) }`,
    access: {
      cluster: mgmtId, group: '', resource: 'nodes'
    },
  };
}

/**
 * The kubelets' Leases of the downstream cluster (kube-node-lease), all of them: asked for where many Nodes' status
 * is overdue (record-requests.ts leaseRequests), and never watched, as each of them is renewed every 10 s.
 */
export function leasesRequest(mgmtId: string): PlannedRequest {
  return {
    input: 'leases', url: `${ leasesPath(mgmtId) }${ queryString(fieldsOf('lease')) }`, access: leasesAccess(mgmtId), unwatched: true
  };
}

/** Where the downstream cluster's Steve lists the kubelets' Leases. */
export function leasesPath(mgmtId: string): string {
  return path('k8s', 'clusters', mgmtId, 'v1', collection(STEVE_TYPES.lease), NODE_LEASE_NAMESPACE);
}

export function leasesAccess(mgmtId: string): ListAccess {
  return {
    cluster: mgmtId, group: 'coordination.k8s.io', resource: 'leases', namespace: NODE_LEASE_NAMESPACE
  };
}

/** The infrastructure kinds a set of machines refers to, each once, in a stable order. */
export function infraKindsOf(machines: unknown[]): InfraKind[] {
  const seen = new Map<string, InfraKind>();

  for (const m of machines) {
    const ref = infrastructureRef(m as KubeObject);
    const kind = ref?.kind ?? '';
    const group = ref?.group ?? '';

    if (INFRA_GROUPS.has(group) && KIND_PATTERN.test(kind)) {
      seen.set(`${ group }/${ kind }`, { group, kind });
    }
  }

  return [...seen.values()].sort((a, b) => infraType(a).localeCompare(infraType(b)));
}

/**
 * The infrastructure kinds a cluster's machines are expected to use, read from the cluster itself: a custom
 * cluster's machines are CustomMachines, a machine pool's are the machine kind of its node driver's config
 * (rke-machine-config.cattle.io VmwarevsphereConfig: rke-machine.cattle.io VmwarevsphereMachine). Only an
 * expectation, so that they can be asked for together with the machines instead of after them; which kinds
 * count is still decided by the machines' infrastructureRefs.
 */
export function expectedInfraKinds(target: ClusterTarget): InfraKind[] {
  if (!target.machineManaged) {
    return [];
  }
  if (target.custom) {
    return [{ group: 'rke.cattle.io', kind: 'CustomMachine' }];
  }
  const seen = new Map<string, InfraKind>();
  const pools = target.cluster.spec?.rkeConfig?.machinePools;

  for (const pool of Array.isArray(pools) ? pools : []) {
    const configKind = pool?.machineConfigRef?.kind;
    const driver = typeof configKind === 'string' ? MACHINE_CONFIG_KIND.exec(configKind)?.[1] : undefined;

    if (driver) {
      const kind = `${ driver }Machine`;

      seen.set(kind, { group: 'rke-machine.cattle.io', kind });
    }
  }

  return [...seen.values()];
}

/** The requests that do not depend on another answer. */
export function initialRequests(target: ClusterTarget, form: ListForm = 'selectors'): PlannedRequest[] {
  const out: PlannedRequest[] = [];

  if (target.machineManaged) {
    out.push(
      machinesRequest(target, form), planSecretsRequest(target, form), bootstrapsRequest(target, form),
      capiClustersRequest(target, form), machineDeploymentsRequest(target, form), machineSetsRequest(target, form), machineHealthChecksRequest(target, form),
    );
  }
  if (target.mgmtId) {
    out.push(mgmtNodesRequest(target.mgmtId), nodesRequest(target.mgmtId));
  }

  return out;
}
