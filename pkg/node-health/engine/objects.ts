/**
 * Recognises the objects the engine uses, whether they come from Steve (type, id) or kubectl
 * (apiVersion, kind), and reads the fields that differ between Cluster API v1beta1 and v1beta2.
 */
import type { KubeObject, ObjectKind, OperatingSystem } from './types';
import { ANNOTATIONS, LABELS } from './vocabulary';
import type { Role } from './vocabulary';
import {
  asArray, asObject, asString, annotation, label, metadata, specOf, statusOf
} from './fields';

export const PLAN_SECRET_TYPE = 'rke.cattle.io/machine-plan';

/** Cluster API providers' infrastructure machines (AWSMachine, VSphereMachine, ...), as Rancher's CAPI-provisioned clusters use. */
export const CAPI_INFRASTRUCTURE_GROUP = 'infrastructure.cluster.x-k8s.io';

/** The wording node drivers and clouds use when the VM or instance behind a machine is gone. */
export const INFRASTRUCTURE_GONE = /\b(no|could ?not find|cannot find|can't find|unable to find)( the)? (vm|virtual machine|instance)\b|\b(vm|virtual machine|instance)\b[^.;]{0,80}\b(not found|does not exist|was deleted|no longer exists)\b|InvalidInstanceID\.NotFound|InstanceNotFound|not found in vcenter/i;

/** Whether a condition (or anything with a message) says the VM or instance is gone. */
export function saysInfrastructureGone(c: { message: string | null }): boolean {
  return !!c.message && INFRASTRUCTURE_GONE.test(c.message);
}

/**
 * Rancher's drain bookkeeping on the plan secret and the Machine (rancher pkg/capr common.go): the planner writes
 * the options it drains with, the drain controller the same value into drain-done when it is finished.
 */
export const DRAIN_ANNOTATIONS = [
  'rke.cattle.io/drain-options', 'rke.cattle.io/drain-done', 'rke.cattle.io/drain-error', 'rke.cattle.io/pre-drain',
  'rke.cattle.io/post-drain',
] as const;

/** Where each kubelet keeps the Lease it renews every 10 s, named as its Node. */
export const NODE_LEASE_NAMESPACE = 'kube-node-lease';

/** A kubelet's Lease: one of kube-node-lease, not a controller's leader election. */
function isNodeLease(obj: Record<string, any>): boolean {
  return asObject(obj.metadata).namespace === NODE_LEASE_NAMESPACE;
}

/** Steve type ids, used to link to an object's page in Rancher. */
export const STEVE_TYPES = {
  cluster:            'provisioning.cattle.io.cluster',
  machine:            'cluster.x-k8s.io.machine',
  planSecret:         'secret',
  bootstrap:          'rke.cattle.io.rkebootstrap',
  mgmtNode:           'management.cattle.io.node',
  node:               'node',
  lease:              'coordination.k8s.io.lease',
  registrationToken:  'management.cattle.io.clusterregistrationtoken',
  mgmtCluster:        'management.cattle.io.cluster',
  capiCluster:        'cluster.x-k8s.io.cluster',
  machineHealthCheck: 'cluster.x-k8s.io.machinehealthcheck',
  machineDeployment:  'cluster.x-k8s.io.machinedeployment',
  machineSet:         'cluster.x-k8s.io.machineset',
} as const;

/** The API group of an apiVersion, cut out only when it is none of the engine's (most objects are of these). */
const KNOWN_GROUPS = ['coordination.k8s.io', 'management.cattle.io', 'cluster.x-k8s.io', 'provisioning.cattle.io', 'rke.cattle.io', 'rke-machine.cattle.io', 'batch', 'events.k8s.io', CAPI_INFRASTRUCTURE_GROUP];

function groupOf(apiVersion: string | null): string {
  if (!apiVersion) {
    return '';
  }
  const slash = apiVersion.indexOf('/');

  if (slash < 0) {
    return '';
  }
  for (let i = 0; i < KNOWN_GROUPS.length; i++) {
    const known = KNOWN_GROUPS[i];

    if (known.length === slash && apiVersion.startsWith(known)) {
      return known;
    }
  }

  return apiVersion.slice(0, slash);
}

/** The kind of object, or null for anything the engine does not use. */
export function classify(input: unknown): ObjectKind | null {
  const obj = asObject(input);
  const type = asString(obj.type);
  const kind = asString(obj.kind);
  const group = groupOf(asString(obj.apiVersion));

  if (kind) {
    switch (kind) {
    case 'Cluster':
      if (group === 'management.cattle.io') {
        return 'mgmtCluster';
      }

      if (group === 'cluster.x-k8s.io') {
        return 'capiCluster';
      }

      return group === 'provisioning.cattle.io' ? 'cluster' : null;
    case 'Machine':
      return group === 'cluster.x-k8s.io' ? 'machine' : null;
    case 'MachineHealthCheck':
      return group === 'cluster.x-k8s.io' ? 'machineHealthCheck' : null;
    case 'MachineDeployment':
      return group === 'cluster.x-k8s.io' ? 'machineDeployment' : null;
    case 'MachineSet':
      return group === 'cluster.x-k8s.io' ? 'machineSet' : null;
    case 'Secret':
      return secretType(obj) === PLAN_SECRET_TYPE ? 'planSecret' : null;
    case 'RKEBootstrap':
      return 'bootstrap';
    case 'Node':
      if (group === 'management.cattle.io') {
        return 'mgmtNode';
      }

      return group === '' ? 'node' : null;
    case 'Lease':
      return group === 'coordination.k8s.io' && isNodeLease(obj) ? 'lease' : null;
    case 'ClusterRegistrationToken':
      return 'registrationToken';
    case 'Job':
      // Rancher's create and delete jobs of infrastructure machines, with their pods' logs (timeline.ts).
      return group === 'batch' ? 'job' : null;
    case 'Event':
      // core/v1 and events.k8s.io/v1 serve the same Events; both shapes are read (timeline.ts).
      return group === '' || group === 'events.k8s.io' ? 'event' : null;
    }
    if (group === 'rke-machine.cattle.io' || (group === 'rke.cattle.io' && kind === 'CustomMachine') ||
      (group === CAPI_INFRASTRUCTURE_GROUP && kind.endsWith('Machine'))) {
      return 'infraMachine';
    }
  }
  if (type) {
    switch (type) {
    case STEVE_TYPES.cluster:
      return 'cluster';
    case STEVE_TYPES.mgmtCluster:
      return 'mgmtCluster';
    case STEVE_TYPES.machine:
      return 'machine';
    case STEVE_TYPES.capiCluster:
      return 'capiCluster';
    case STEVE_TYPES.machineHealthCheck:
      return 'machineHealthCheck';
    case STEVE_TYPES.machineDeployment:
      return 'machineDeployment';
    case STEVE_TYPES.machineSet:
      return 'machineSet';
    case 'secret':
      return secretType(obj) === PLAN_SECRET_TYPE ? 'planSecret' : null;
    case STEVE_TYPES.bootstrap:
      return 'bootstrap';
    case STEVE_TYPES.mgmtNode:
      return 'mgmtNode';
    case 'node':
      return 'node';
    case STEVE_TYPES.lease:
      return isNodeLease(obj) ? 'lease' : null;
    case 'event':
    case 'events.k8s.io.event':
      return 'event';
    case 'batch.job':
      return 'job';
    case STEVE_TYPES.registrationToken:
    case 'clusterRegistrationToken':
    case 'clusterregistrationtoken':
      return 'registrationToken';
    case 'rke.cattle.io.custommachine':
      return 'infraMachine';
    }
    if (type.startsWith('rke-machine.cattle.io.') && !type.endsWith('template') && !type.endsWith('config')) {
      return 'infraMachine';
    }
    if (type.startsWith(`${ CAPI_INFRASTRUCTURE_GROUP }.`) && type.endsWith('machine')) {
      return 'infraMachine';
    }
  }

  return null;
}

export function secretType(obj: KubeObject): string | null {
  return asString(obj._type) ?? asString(obj.type === 'secret' ? null : obj.type);
}

export function apiVersionOf(obj: KubeObject): string | null {
  return asString(asObject(obj).apiVersion);
}

export function isV1beta2Machine(machine: KubeObject): boolean {
  return apiVersionOf(machine) === 'cluster.x-k8s.io/v1beta2';
}

export function machineClusterName(machine: KubeObject): string | null {
  return asString(specOf(machine).clusterName) ?? label(machine, LABELS.capiClusterName);
}

/** Name referenced by status.nodeRef, in both the v1beta1 {kind,name,uid} and v1beta2 {name} shapes. */
export function nodeRefName(machine: KubeObject): string | null {
  return asString(asObject(statusOf(machine).nodeRef).name);
}

export interface ObjectRefLite {
  kind: string | null;
  name: string | null;
  group: string | null;
}

/** The resource a kubectl command names an infrastructure machine by: Rancher's node-driver kinds live in rke-machine.cattle.io. */
export function infraResource(ref: Pick<ObjectRefLite, 'kind' | 'group'>): string | null {
  return ref.kind ? `${ ref.kind.toLowerCase() }s.${ ref.group ?? 'rke-machine.cattle.io' }` : null;
}

function readRef(ref: unknown): ObjectRefLite | null {
  const r = asObject(ref);
  const name = asString(r.name);

  if (!name) {
    return null;
  }

  return {
    kind:  asString(r.kind),
    name,
    group: asString(r.apiGroup) ?? (groupOf(asString(r.apiVersion)) || null),
  };
}

export function infrastructureRef(machine: KubeObject): ObjectRefLite | null {
  return readRef(specOf(machine).infrastructureRef);
}

export function bootstrapRef(machine: KubeObject): ObjectRefLite | null {
  return readRef(asObject(specOf(machine).bootstrap).configRef);
}

/**
 * The role lists, one per combination, in the order etcd, controlplane, worker: shared and frozen, since every
 * record has one and nothing writes to it.
 */
const ROLE_LISTS: readonly Role[][] = [0, 1, 2, 3, 4, 5, 6, 7].map((mask) => Object.freeze([
  ...(mask & 1 ? ['etcd' as const] : []), ...(mask & 2 ? ['controlplane' as const] : []), ...(mask & 4 ? ['worker' as const] : []),
]) as Role[]);

function roleList(etcd: boolean, controlPlane: boolean, worker: boolean): Role[] {
  return ROLE_LISTS[(etcd ? 1 : 0) | (controlPlane ? 2 : 0) | (worker ? 4 : 0)];
}

export function machineRoles(obj: KubeObject): Role[] {
  const labels = asObject(metadata(obj).labels);

  return roleList(asString(labels[LABELS.etcdRole]) === 'true', asString(labels[LABELS.controlPlaneRole]) === 'true', asString(labels[LABELS.workerRole]) === 'true');
}

export function nodeRoles(node: KubeObject): Role[] {
  const labels = asObject(metadata(node).labels);

  return roleList(
    labels['node-role.kubernetes.io/etcd'] !== undefined,
    labels['node-role.kubernetes.io/control-plane'] !== undefined || labels['node-role.kubernetes.io/master'] !== undefined,
    labels['node-role.kubernetes.io/worker'] !== undefined
  );
}

/** Roles of a management Node: Rancher keeps them as booleans in its spec. */
export function mgmtNodeRoles(mgmtNode: KubeObject): Role[] {
  const spec = specOf(mgmtNode);

  return roleList(spec.etcd === true, spec.controlPlane === true, spec.worker === true);
}

/** A management Node's operating system, from Rancher's copy of the downstream Node's status and labels. */
export function mgmtNodeOperatingSystem(mgmtNode: KubeObject): OperatingSystem {
  const status = statusOf(mgmtNode);
  const os = asString(asObject(asObject(status.internalNodeStatus).nodeInfo).operatingSystem) ??
    asString(asObject(status.nodeLabels)[LABELS.kubernetesOs]);

  return os === 'windows' || os === 'linux' ? os : operatingSystem(mgmtNode);
}

export function operatingSystem(...objs: (KubeObject | undefined)[]): OperatingSystem {
  for (const obj of objs) {
    if (!obj) {
      continue;
    }
    const os = label(obj, LABELS.os) ?? label(obj, LABELS.kubernetesOs) ?? asString(asObject(statusOf(obj).nodeInfo).operatingSystem);

    if (os === 'windows' || os === 'linux') {
      return os;
    }
  }

  return 'unknown';
}

/** A Node's taint as kubectl writes it, `key=value:effect` (`key:effect` without a value). */
export function taintText(taint: Record<string, unknown>): string {
  const value = asString(taint.value);

  return `${ asString(taint.key) ?? '?' }${ value ? `=${ value }` : '' }:${ asString(taint.effect) ?? '?' }`;
}

export function deletionTimestamp(obj: KubeObject): string | null {
  return asString(metadata(obj).deletionTimestamp);
}

const NO_FINALIZERS: string[] = Object.freeze([]) as unknown as string[];

/** The finalizers that are names (a copy; shared and frozen when there is none). */
export function finalizers(obj: KubeObject): string[] {
  const list = asArray(metadata(obj).finalizers);

  if (list.length === 0) {
    return NO_FINALIZERS;
  }
  const out: string[] = [];

  for (let i = 0; i < list.length; i++) {
    if (typeof list[i] === 'string') {
      out.push(list[i]);
    }
  }

  return out;
}

export function planSecretMachineName(secret: KubeObject): string | null {
  const fromLabel = label(secret, LABELS.machineName);

  if (fromLabel) {
    return fromLabel;
  }
  const name = asString(metadata(secret).name);

  return name && name.endsWith('-machine-plan') ? name.slice(0, -'-machine-plan'.length) : null;
}

const CLUSTER_PROXY = '/k8s/clusters/';

/** Management id (c-m-xxxx) of a downstream object loaded through /k8s/clusters/<id>/v1, if Steve tells. */
export function downstreamClusterIdFromLinks(obj: KubeObject): string | null {
  const self = asString(asObject(asObject(obj).links).self);
  const start = self ? self.indexOf(CLUSTER_PROXY) : -1;

  if (!self || start < 0) {
    return null;
  }
  const end = self.indexOf('/', start + CLUSTER_PROXY.length);
  const id = end < 0 ? '' : self.slice(start + CLUSTER_PROXY.length, end);

  if (!id) {
    return null;
  }
  try {
    return id.includes('%') ? decodeURIComponent(id) : id;
  } catch {
    return null;
  }
}

export function machinePhase(machine: KubeObject): string | null {
  return asString(statusOf(machine).phase);
}

export function failureMessage(obj: KubeObject): string | null {
  const status = statusOf(obj);

  return asString(status.failureMessage) ?? asString(asObject(asObject(asObject(status.deprecated).v1beta1)).failureMessage);
}

/** A Node that carries Cluster API's marks of having had a machine. */
export function formerMachineOf(n: KubeObject): string | null {
  return annotation(n, ANNOTATIONS.capiMachine) ?? label(n, LABELS.machineUid);
}

export { annotation, label };
