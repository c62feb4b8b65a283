/**
 * Builders for the objects Rancher keeps about a node of a provisioned cluster, in the shape
 * `kubectl get -o json` prints them. Low-level builders take explicit fields; `buildNode` and
 * `buildCluster` derive a consistent set (conditions, plan data, join keys) from a few knobs that
 * say what is wrong with a node.
 *
 * No Node built-ins here: the same code runs in jest, the browser and under tsx.
 */

import {
  base64Decode, base64Encode, base64ToBytes, bytesToBase64, gunzipStored, gzipStored, sha256Hex, utf8Decode, utf8Encode
} from './encoding';
import { stableHex, stableInt, stableSuffix, stableUid } from './random';
import {
  ago, Duration, durationSeconds, goUnixDate, parseTime, rfc3339
} from './time';
import {
  CapiCondition, ClusterKind, ContractReference, KubeObject, Labels, MachinePhase, MachineV1beta1, MachineV1beta2,
  MetaCondition, NodeAddress, NodeCondition, NodeObject, NodeSystemInfo, ObjectMeta, OwnerReference, RancherCondition,
  ScenarioCluster, SecretObject,
} from './types';

export const DEFAULT_SECRET_MARKER = 'SECRET-VALUE';
export const DEFAULT_NAMESPACE = 'fleet-default';
export const DEFAULT_SERVER_URL = 'https://rancher.example.com';

export const CAPI_V1BETA1 = 'cluster.x-k8s.io/v1beta1';
export const CAPI_V1BETA2 = 'cluster.x-k8s.io/v1beta2';
export const MACHINE_FINALIZER = 'machine.cluster.x-k8s.io';
export const PRE_TERMINATE_HOOK_ANNOTATION = 'pre-terminate.delete.hook.machine.cluster.x-k8s.io/rke-bootstrap-cleanup';
export const ETCD_FORCE_REMOVE_ANNOTATION = 'rke.cattle.io/etcd-force-remove';
export const MACHINE_UID_LABEL = 'rke.cattle.io/machine';
export const MACHINE_PLAN_SECRET_TYPE = 'rke.cattle.io/machine-plan';
export const PLAN_APPLY_ERROR_MESSAGE = 'error applying plan -- check rancher-system-agent.service logs on node for more information';
export const NO_AGENT_MESSAGE = 'waiting for agent to check in and apply initial plan';
export const WAITING_PLAN_MESSAGE = 'waiting for plan to be applied';
export const FAILED_PLAN_MESSAGE = 'failure while applying plan';

/** Plan-secret data keys whose values are secret (join tokens, certificates, command output). */
export const SENSITIVE_PLAN_SECRET_KEYS: readonly string[] = [
  'plan', 'appliedPlan', 'applied-output', 'applied-periodic-output', 'failed-output',
];

export interface Roles {
  etcd?: boolean;
  controlPlane?: boolean;
  worker?: boolean;
}

export type OperatingSystem = 'linux' | 'windows';

/* ------------------------------------------------------------------------------------------------ */
/* shared pieces                                                                                     */
/* ------------------------------------------------------------------------------------------------ */

function hasKeys(o: object): boolean {
  return Object.keys(o).length > 0;
}

function resourceVersionFor(key: string): string {
  return String(stableInt(`rv:${ key }`, 100000, 9999999));
}

function meta(kind: string, o: {
  name: string; namespace?: string; createdAt: string; uid?: string; labels?: Labels; annotations?: Labels;
  finalizers?: string[]; ownerReferences?: OwnerReference[]; deletionTimestamp?: string; generation?: number;
  generateName?: string;
}): ObjectMeta {
  const key = `${ kind }/${ o.namespace ?? '' }/${ o.name }`;
  // field order as the API server writes ObjectMeta; callers hand over fresh objects, used as they are
  const m = { name: o.name } as ObjectMeta;

  if (o.generateName) m.generateName = o.generateName;
  if (o.namespace) m.namespace = o.namespace;
  m.uid = o.uid ?? cachedUid(key);
  m.resourceVersion = resourceVersionFor(key);
  if (o.generation !== undefined) m.generation = o.generation;
  m.creationTimestamp = o.createdAt;
  if (o.deletionTimestamp) {
    m.deletionTimestamp = o.deletionTimestamp;
    m.deletionGracePeriodSeconds = 0;
  }
  if (o.labels && hasKeys(o.labels)) m.labels = o.labels;
  if (o.annotations && hasKeys(o.annotations)) m.annotations = o.annotations;
  if (o.ownerReferences && o.ownerReferences.length) m.ownerReferences = o.ownerReferences;
  if (o.finalizers && o.finalizers.length) m.finalizers = o.finalizers;

  return m;
}

/** Stable uid for an object of `kind` named `name` in `namespace`, the same one the builders use. */
export function uidFor(kind: string, namespace: string | undefined, name: string): string {
  return cachedUid(`${ kind }/${ namespace ?? '' }/${ name }`);
}

// A node's objects refer to each other's uids several times over; a small cache saves the rehashing.
const recentUids = new Map<string, string>();

function cachedUid(key: string): string {
  let uid = recentUids.get(key);

  if (uid === undefined) {
    if (recentUids.size >= 1024) recentUids.clear();
    uid = stableUid(key);
    recentUids.set(key, uid);
  }

  return uid;
}

function roleLabels(roles: Roles): Labels {
  const labels: Labels = {};

  if (roles.etcd) labels['rke.cattle.io/etcd-role'] = 'true';
  if (roles.controlPlane) {
    labels['rke.cattle.io/control-plane-role'] = 'true';
  }
  if (roles.worker) labels['rke.cattle.io/worker-role'] = 'true';

  return labels;
}

export function runtimeOf(kubernetesVersion: string): 'k3s' | 'rke2' {
  return kubernetesVersion.includes('k3s') ? 'k3s' : 'rke2';
}

/* ------------------------------------------------------------------------------------------------ */
/* CAPI Machine                                                                                      */
/* ------------------------------------------------------------------------------------------------ */

/** CAPI v1beta1 keeps Ready first and the rest sorted by type. */
export function sortCapiConditions<T extends { type: string }>(conditions: T[]): T[] {
  return [...conditions].sort((a, b) => {
    if (a.type === b.type) return 0;
    if (a.type === 'Ready') return -1;
    if (b.type === 'Ready') return 1;

    return a.type < b.type ? -1 : 1;
  });
}

/**
 * v1beta1 Ready summary as CAPI computes it: the first non-true of InfrastructureReady,
 * BootstrapReady, DrainingSucceeded (NodeHealthy is not part of it), with the "X of 2 completed"
 * step counter while the machine has no providerID and is not being deleted.
 */
export function summarizeReady(conditions: CapiCondition[], o: { deleting: boolean; providerID?: string; at: string }): CapiCondition {
  const order = ['InfrastructureReady', 'BootstrapReady', 'DrainingSucceeded'];
  const byType = new Map(conditions.map((c) => [c.type, c]));
  const failing = order.map((t) => byType.get(t)).find((c) => c && c.status !== 'True');

  if (!failing) {
    return {
      type: 'Ready', status: 'True', lastTransitionTime: o.at
    };
  }
  const stepCounter = !o.deleting && !o.providerID;
  const completed = ['BootstrapReady', 'InfrastructureReady'].filter((t) => byType.get(t)?.status === 'True').length;
  const ready: CapiCondition = {
    type:               'Ready',
    status:             failing.status,
    lastTransitionTime: failing.lastTransitionTime,
  };

  if (failing.severity) ready.severity = failing.severity;
  if (failing.reason) ready.reason = failing.reason;
  const message = stepCounter ? `${ completed } of 2 completed` : failing.message;

  if (message) ready.message = message;

  return ready;
}

export interface CapiMachineOptions {
  name: string;
  namespace: string;
  /** provisioning cluster name (the CAPI cluster has the same name) */
  clusterName: string;
  createdAt: string;
  uid?: string;
  deletionTimestamp?: string;
  roles: Roles;
  os?: OperatingSystem;
  /** custom clusters: the agent id hash (label rke.cattle.io/machine-id) */
  machineId?: string;
  /** label rke.cattle.io/node-name, present only when a node name was given at registration */
  nodeNameLabel?: string;
  extraLabels?: Labels;
  extraAnnotations?: Labels;
  /** node-driver: the machine deployment / pool this machine belongs to */
  machineDeployment?: string;
  bootstrapName?: string;
  infrastructure?: { apiVersion: string; kind: string; name: string };
  kubernetesVersion?: string;
  providerID?: string;
  nodeRef?: { name: string; uid: string };
  nodeInfo?: NodeSystemInfo;
  addresses?: NodeAddress[];
  phase: MachinePhase;
  /** every condition except Ready, which is summarised from them */
  conditions: CapiCondition[];
  failureReason?: string;
  failureMessage?: string;
  /** defaults to true for etcd machines, as Rancher adds the hook to every etcd machine */
  preTerminateHook?: boolean;
  finalizers?: string[];
  lastUpdated?: string;
  generation?: number;
}

export function capiMachine(o: CapiMachineOptions): MachineV1beta1 {
  const labels: Labels = {
    'cluster.x-k8s.io/cluster-name': o.clusterName,
    'rke.cattle.io/cluster-name':    o.clusterName,
    ...roleLabels(o.roles),
  };

  if (o.roles.controlPlane) labels['cluster.x-k8s.io/control-plane'] = 'true';
  if (o.machineId) labels['rke.cattle.io/machine-id'] = o.machineId;
  if (o.nodeNameLabel) labels['rke.cattle.io/node-name'] = o.nodeNameLabel;
  if (o.machineDeployment) {
    labels['cluster.x-k8s.io/deployment-name'] = o.machineDeployment;
    labels['rke.cattle.io/rke-machine-pool-name'] = o.machineDeployment.slice(o.clusterName.length + 1);
  }
  labels['cattle.io/os'] = o.os ?? 'linux';
  Object.assign(labels, o.extraLabels ?? {});

  const annotations: Labels = { ...(o.extraAnnotations ?? {}) };

  if (o.preTerminateHook ?? Boolean(o.roles.etcd)) {
    annotations[PRE_TERMINATE_HOOK_ANNOTATION] = '';
  }

  const infra = o.infrastructure ?? {
    apiVersion: 'rke.cattle.io/v1', kind: 'CustomMachine', name: o.name
  };
  const bootstrapName = o.bootstrapName ?? o.name;
  const conditions = o.conditions.filter((c) => c.type !== 'Ready');
  const ready = summarizeReady(conditions, {
    deleting: Boolean(o.deletionTimestamp), providerID: o.providerID, at: o.createdAt
  });
  const generation = o.generation ?? 2;

  const machine: MachineV1beta1 = {
    apiVersion: CAPI_V1BETA1,
    kind:       'Machine',
    metadata:   meta('Machine', {
      name:              o.name,
      namespace:         o.namespace,
      createdAt:         o.createdAt,
      uid:               o.uid,
      labels,
      annotations,
      finalizers:        o.finalizers ? [...o.finalizers] : [MACHINE_FINALIZER],
      deletionTimestamp: o.deletionTimestamp,
      generation,
      ownerReferences:   o.machineDeployment ? [{
        apiVersion:         CAPI_V1BETA1,
        kind:               'MachineSet',
        name:               `${ o.machineDeployment }-${ stableHex(`ms:${ o.machineDeployment }`, 9).replace(/^[0-9]/, 'b') }`,
        uid:                uidFor('MachineSet', o.namespace, o.machineDeployment),
        controller:         true,
        blockOwnerDeletion: true,
      }] : [{
        apiVersion: 'cluster.x-k8s.io/v1beta1',
        kind:       'Cluster',
        name:       o.clusterName,
        uid:        uidFor('CapiCluster', o.namespace, o.clusterName),
      }],
    }),
    spec: {
      clusterName: o.clusterName,
      bootstrap:   {
        configRef:      {
          apiVersion: 'rke.cattle.io/v1', kind: 'RKEBootstrap', name: bootstrapName, namespace: o.namespace, uid: uidFor('RKEBootstrap', o.namespace, bootstrapName)
        },
        dataSecretName: `${ bootstrapName }-machine-bootstrap`,
      },
      infrastructureRef: {
        apiVersion: infra.apiVersion, kind: infra.kind, name: infra.name, namespace: o.namespace, uid: uidFor(infra.kind, o.namespace, infra.name)
      },
    },
    status: {
      bootstrapReady:      conditions.some((c) => c.type === 'BootstrapReady' && c.status === 'True'),
      infrastructureReady: conditions.some((c) => c.type === 'InfrastructureReady' && c.status === 'True'),
      phase:               o.phase,
      conditions:          sortCapiConditions([ready, ...conditions]),
      lastUpdated:         o.lastUpdated ?? o.createdAt,
      observedGeneration:  generation,
    },
  };

  if (o.kubernetesVersion) machine.spec.version = o.kubernetesVersion;
  if (o.providerID) machine.spec.providerID = o.providerID;
  if (o.nodeRef) {
    machine.status.nodeRef = {
      apiVersion: 'v1', kind: 'Node', name: o.nodeRef.name, uid: o.nodeRef.uid
    };
  }
  if (o.nodeInfo) machine.status.nodeInfo = { ...o.nodeInfo };
  if (o.addresses) machine.status.addresses = o.addresses.map((a) => ({ ...a }));
  if (o.failureReason) machine.status.failureReason = o.failureReason;
  if (o.failureMessage) machine.status.failureMessage = o.failureMessage;

  return machine;
}

function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');

  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

function contractRef(ref: { apiVersion: string; kind: string; name: string }): ContractReference {
  return {
    apiGroup: groupOf(ref.apiVersion), kind: ref.kind, name: ref.name
  };
}

/**
 * Converts a v1beta1 Machine to how Rancher 2.14+ (CAPI v1beta2) serves it: contract references,
 * `nodeRef: {name}`, metav1 conditions (Ready with "* Condition: detail" bullets, NodeDeleted
 * instead of NodeNotFound, Deleting) and the old conditions under status.deprecated.v1beta1.
 */
export function toV1beta2(machine: MachineV1beta1): MachineV1beta2 {
  const old = machine.status.conditions;
  const byType = new Map(old.map((c) => [c.type, c]));
  const generation = machine.metadata.generation ?? 1;
  const infraKind = machine.spec.infrastructureRef.kind;
  const deleting = Boolean(machine.metadata.deletionTimestamp);
  const at = (t?: string) => t ?? machine.metadata.creationTimestamp;
  const cond = (type: string, status: MetaCondition['status'], reason: string, message: string | undefined, when?: string): MetaCondition => {
    const c: MetaCondition = {
      type, status, reason, lastTransitionTime: at(when), observedGeneration: generation
    };

    if (message) c.message = message;

    return c;
  };

  const bootstrapOld = byType.get('BootstrapReady');
  const bootstrap = bootstrapOld?.status === 'True' ? cond('BootstrapConfigReady', 'True', 'Ready', undefined, bootstrapOld.lastTransitionTime) : cond('BootstrapConfigReady', 'False', 'NotReady', 'RKEBootstrap status.initialization.dataSecretCreated is false', bootstrapOld?.lastTransitionTime);

  const infraOld = byType.get('InfrastructureReady');
  let infrastructure: MetaCondition;

  if (infraOld?.status === 'True') {
    infrastructure = cond('InfrastructureReady', 'True', 'Ready', undefined, infraOld.lastTransitionTime);
  } else if (infraOld?.reason === 'IncorrectExternalRef') {
    infrastructure = cond('InfrastructureReady', 'False', 'Deleted', `${ infraKind } has been deleted`, infraOld.lastTransitionTime);
  } else {
    infrastructure = cond('InfrastructureReady', 'False', 'NotReady', infraOld?.message || `${ infraKind } status.initialization.provisioned is false`, infraOld?.lastTransitionTime);
  }

  const nodeOld = byType.get('NodeHealthy');
  const nodeName = machine.status.nodeRef?.name;
  let nodeHealthy: MetaCondition;
  let nodeReady: MetaCondition;

  if (nodeOld?.status === 'True') {
    nodeHealthy = cond('NodeHealthy', 'True', 'NodeHealthy', undefined, nodeOld.lastTransitionTime);
    nodeReady = cond('NodeReady', 'True', 'NodeReady', undefined, nodeOld.lastTransitionTime);
  } else if (nodeOld?.reason === 'NodeNotFound') {
    const msg = `Node ${ nodeName ?? '' } has been deleted`.replace('  ', ' ');

    nodeHealthy = cond('NodeHealthy', 'False', 'NodeDeleted', msg, nodeOld.lastTransitionTime);
    nodeReady = cond('NodeReady', 'False', 'NodeDeleted', msg, nodeOld.lastTransitionTime);
  } else if (!machine.spec.providerID) {
    const msg = `Waiting for ${ infraKind } to report spec.providerID`;

    nodeHealthy = cond('NodeHealthy', 'Unknown', 'NodeDoesNotExist', msg, nodeOld?.lastTransitionTime);
    nodeReady = cond('NodeReady', 'Unknown', 'NodeDoesNotExist', msg, nodeOld?.lastTransitionTime);
  } else {
    const msg = nodeOld?.message || 'Node is not healthy';

    nodeHealthy = cond('NodeHealthy', 'False', 'NodeNotHealthy', `* Node.Ready: ${ msg }`, nodeOld?.lastTransitionTime);
    nodeReady = cond('NodeReady', 'False', 'NodeNotReady', msg, nodeOld?.lastTransitionTime);
  }

  let deletingCond: MetaCondition;

  if (!deleting) {
    deletingCond = cond('Deleting', 'False', 'NotDeleting', undefined);
  } else if (byType.get('PreTerminateDeleteHookSucceeded')?.status === 'False') {
    const hooks = Object.keys(machine.metadata.annotations ?? {}).filter((k) => k.startsWith('pre-terminate.delete.hook.machine.cluster.x-k8s.io/'));

    deletingCond = cond('Deleting', 'True', 'WaitingForPreTerminateHook', `Waiting for pre-terminate hooks to succeed (hooks: ${ hooks.join(',') })`, machine.metadata.deletionTimestamp);
  } else if (byType.get('DrainingSucceeded')?.status === 'False') {
    deletingCond = cond('Deleting', 'True', 'DrainingNode', byType.get('DrainingSucceeded')?.message || 'Drain not completed yet', machine.metadata.deletionTimestamp);
  } else {
    deletingCond = cond('Deleting', 'True', 'WaitingForInfrastructureDeletion', `Waiting for ${ infraKind } to be deleted`, machine.metadata.deletionTimestamp);
  }

  const bullets: string[] = [];

  if (deletingCond.status === 'True') bullets.push(`* Deleting: ${ deletingCond.message }`);
  for (const c of [bootstrap, infrastructure, nodeHealthy]) {
    if (c.status !== 'True') bullets.push(`* ${ c.type }: ${ c.message ?? '' }`.trimEnd());
  }
  const anyFalse = [deletingCond.status === 'True', bootstrap.status === 'False', infrastructure.status === 'False', nodeHealthy.status === 'False'].some(Boolean);
  const ready = bullets.length === 0 ? cond('Ready', 'True', 'Ready', undefined) : cond('Ready', anyFalse ? 'False' : 'Unknown', anyFalse ? 'NotReady' : 'ReadyUnknown', bullets.join('\n'));
  const available = ready.status === 'True' ? cond('Available', 'True', 'Available', undefined) : cond('Available', 'False', 'NotReady', '* Ready: not ready');

  const rancherConditions: MetaCondition[] = old
    .filter((c) => c.type === 'Reconciled' || c.type === 'PlanApplied')
    .map((c) => cond(c.type, c.status, c.reason || (c.status === 'True' ? c.type : 'Waiting'), c.message, c.lastTransitionTime));

  const conditions: MetaCondition[] = [
    available,
    ready,
    cond('UpToDate', 'True', 'UpToDate', undefined),
    bootstrap,
    infrastructure,
    nodeHealthy,
    nodeReady,
    deletingCond,
    cond('Paused', 'False', 'NotPaused', undefined),
    ...rancherConditions,
  ];

  const deprecated: MachineV1beta2['status']['deprecated'] = { v1beta1: { conditions: old.map((c) => ({ ...c })) } };

  if (machine.status.failureReason) deprecated.v1beta1.failureReason = machine.status.failureReason;
  if (machine.status.failureMessage) deprecated.v1beta1.failureMessage = machine.status.failureMessage;

  const converted: MachineV1beta2 = {
    apiVersion: CAPI_V1BETA2,
    kind:       'Machine',
    metadata:   JSON.parse(JSON.stringify(machine.metadata)) as ObjectMeta,
    spec:       {
      clusterName: machine.spec.clusterName,
      bootstrap:   {
        configRef: contractRef(machine.spec.bootstrap.configRef),
        ...(machine.spec.bootstrap.dataSecretName ? { dataSecretName: machine.spec.bootstrap.dataSecretName } : {}),
      },
      infrastructureRef: contractRef(machine.spec.infrastructureRef),
    },
    status: {
      phase:          machine.status.phase,
      initialization: {
        bootstrapDataSecretCreated: machine.status.bootstrapReady,
        infrastructureProvisioned:  machine.status.infrastructureReady,
      },
      conditions,
      deprecated,
    },
  };

  if (machine.spec.providerID) converted.spec.providerID = machine.spec.providerID;
  if (machine.spec.version) converted.spec.version = machine.spec.version;
  if (machine.status.nodeRef) converted.status.nodeRef = { name: machine.status.nodeRef.name };
  if (machine.status.nodeInfo) converted.status.nodeInfo = { ...machine.status.nodeInfo };
  if (machine.status.addresses) converted.status.addresses = machine.status.addresses.map((a) => ({ ...a }));
  if (machine.status.lastUpdated) converted.status.lastUpdated = machine.status.lastUpdated;
  if (machine.status.observedGeneration !== undefined) converted.status.observedGeneration = machine.status.observedGeneration;

  return converted;
}

/** Converts every v1beta1 Machine in a list, leaving other objects as they are. */
export function machinesToV1beta2(objects: KubeObject[]): KubeObject[] {
  return objects.map((o) => (o.apiVersion === CAPI_V1BETA1 && o.kind === 'Machine' ? toV1beta2(o as MachineV1beta1) : o));
}

/* ------------------------------------------------------------------------------------------------ */
/* machine plan                                                                                      */
/* ------------------------------------------------------------------------------------------------ */

export interface NodePlanOptions {
  kubernetesVersion: string;
  roles: Roles;
  os?: OperatingSystem;
  /** the Machine's uid: the planner labels the node with it */
  machineUid: string;
  /** the cluster join token (contains the secret marker) */
  token: string;
  /** join server URL (absent on the init node) */
  joinServer?: string;
  /** --node-name given at registration */
  nodeName?: string;
  address: string;
  internalAddress?: string;
  /** varies the plan without changing its meaning (Rancher's RESTART_STAMP) */
  restartStamp: string;
  /** cni configured in the cluster (rke2) */
  cni?: string;
}

interface ProbeDef {
  initialDelaySeconds: number;
  timeoutSeconds: number;
  successThreshold: number;
  failureThreshold: number;
  httpGet: { url: string; insecure?: boolean; clientCert?: string; clientKey?: string; caCert?: string };
}

/** Probe names the planner puts into a node's plan for these roles. */
export function probeNamesFor(roles: Roles, runtime: 'k3s' | 'rke2' = 'rke2'): string[] {
  const names = ['kubelet'];

  if (roles.etcd) names.push('etcd');
  if (roles.controlPlane) names.push('kube-apiserver', 'kube-controller-manager', 'kube-scheduler');
  if (runtime === 'rke2' && (roles.controlPlane || roles.etcd)) names.push('calico');

  return names.sort();
}

const probesCache = new Map<string, Record<string, ProbeDef>>();

function probesFor(roles: Roles, runtime: 'k3s' | 'rke2'): Record<string, ProbeDef> {
  const key = `${ runtime }:${ roles.etcd ? 1 : 0 }${ roles.controlPlane ? 1 : 0 }`;
  let cached = probesCache.get(key);

  if (!cached) {
    cached = buildProbes(roles, runtime);
    probesCache.set(key, cached);
  }

  return cached;
}

function buildProbes(roles: Roles, runtime: 'k3s' | 'rke2'): Record<string, ProbeDef> {
  const base = {
    initialDelaySeconds: 1, timeoutSeconds: 5, successThreshold: 1, failureThreshold: 2
  };
  const tls = `/var/lib/rancher/${ runtime }/server/tls`;
  const all: Record<string, ProbeDef> = {
    kubelet:                   { ...base, httpGet: { url: 'http://127.0.0.1:10248/healthz' } },
    etcd:                      { ...base, httpGet: { url: 'http://127.0.0.1:2381/health' } },
    'kube-apiserver':          {
      ...base,
      httpGet: {
        url: 'https://127.0.0.1:6443/readyz', clientCert: `${ tls }/client-kube-apiserver.crt`, clientKey: `${ tls }/client-kube-apiserver.key`, caCert: `${ tls }/server-ca.crt`
      }
    },
    'kube-controller-manager': { ...base, httpGet: { url: 'https://127.0.0.1:10257/healthz', caCert: `${ tls }/kube-controller-manager/kube-controller-manager.crt` } },
    'kube-scheduler':          { ...base, httpGet: { url: 'https://127.0.0.1:10259/healthz', caCert: `${ tls }/kube-scheduler/kube-scheduler.crt` } },
    calico:                    { ...base, httpGet: { url: 'http://127.0.0.1:9099/liveness' } },
  };
  const out: Record<string, ProbeDef> = {};

  for (const name of probeNamesFor(roles, runtime)) {
    out[name] = all[name];
  }

  return out;
}

function yamlList(key: string, items: string[]): string {
  return items.length ? `${ key }:\n${ items.map((i) => `- ${ i }`).join('\n') }\n` : '';
}

/**
 * The plan JSON Rancher writes into the plan secret (compact, as Go's json.Marshal writes it). The
 * join token appears in the base64 config file and, in clear text, in the installer environment.
 */
export function renderNodePlan(o: NodePlanOptions): string {
  const runtime = runtimeOf(o.kubernetesVersion);
  const windows = (o.os ?? 'linux') === 'windows';
  const server = Boolean(o.roles.etcd || o.roles.controlPlane);
  const nodeLabels = [`${ MACHINE_UID_LABEL }=${ o.machineUid }`];

  if (o.roles.worker) nodeLabels.push('node-role.kubernetes.io/worker=true');
  const taints: string[] = [];

  if (o.roles.etcd && !o.roles.controlPlane && !o.roles.worker) taints.push('node-role.kubernetes.io/etcd=true:NoExecute');
  if (o.roles.controlPlane && !o.roles.worker) taints.push('node-role.kubernetes.io/control-plane=true:NoSchedule');
  let config = '';

  if (server && runtime === 'rke2') config += `cni: ${ o.cni ?? 'calico' }\n`;
  if (o.roles.etcd && !o.roles.controlPlane) config += 'disable-apiserver: true\ndisable-controller-manager: true\ndisable-scheduler: true\n';
  if (!o.roles.etcd && o.roles.controlPlane) config += 'disable-etcd: true\n';
  config += yamlList('node-external-ip', [o.address]);
  if (o.internalAddress && o.internalAddress !== o.address) config += yamlList('node-ip', [o.internalAddress]);
  config += yamlList('node-label', nodeLabels);
  if (o.nodeName) config += `node-name: ${ o.nodeName }\n`;
  config += yamlList('node-taint', taints);
  config += `private-registry: /etc/rancher/${ runtime }/registries.yaml\n`;
  if (o.joinServer) config += `server: ${ o.joinServer }\n`;
  config += `token: ${ o.token }\n`;

  const configDir = windows ? `c:/etc/rancher/${ runtime }/config.yaml.d` : `/etc/rancher/${ runtime }/config.yaml.d`;
  const image = `rancher/system-agent-installer-${ runtime }:${ o.kubernetesVersion.replace('+', '-') }`;
  const install = windows ? {
    name:    'install',
    image,
    env:     [`RESTART_STAMP=${ o.restartStamp }`, 'INSTALL_RKE2_EXEC=agent', `RKE2_TOKEN=${ o.token }`],
    args:    ['-File', 'run.ps1'],
    command: 'powershell.exe',
  } : {
    name: 'install',
    image,
    env:  [
      `RESTART_STAMP=${ o.restartStamp }`,
      `INSTALL_${ runtime.toUpperCase() }_EXEC=${ server ? 'server' : 'agent' }`,
      `${ runtime.toUpperCase() }_TOKEN=${ o.token }`,
    ],
    args:    ['-c', 'run.sh'],
    command: 'sh',
  };
  const plan = {
    files: [
      {
        content: base64Encode(config), path: `${ configDir }/50-rancher.yaml`, permissions: '0600'
      },
      {
        content: base64Encode('{}\n'), path: windows ? `c:/etc/rancher/${ runtime }/registries.yaml` : `/etc/rancher/${ runtime }/registries.yaml`, permissions: '0600'
      },
    ],
    instructions: [install],
    probes:       probesFor(o.roles, runtime),
  };

  return JSON.stringify(plan);
}

export interface ProbeStatus {
  healthy: boolean;
  successCount: number;
  failureCount: number;
}

const encodedOutputs = new WeakMap<Record<string, string>, string>();

/**
 * Output map as rancher-system-agent stores it: gzip(JSON{instruction: base64(output)}), then
 * base64 in the secret. The result is remembered per map object (treat the map as immutable), so
 * the installer output shared by a cluster's nodes is encoded once.
 */
export function encodeAgentOutput(outputs: Record<string, string>): string {
  const known = encodedOutputs.get(outputs);

  if (known !== undefined) return known;
  const json: Record<string, string> = {};

  for (const [k, v] of Object.entries(outputs)) {
    json[k] = base64Encode(v);
  }
  const encoded = bytesToBase64(gzipStored(utf8Encode(JSON.stringify(json))));

  encodedOutputs.set(outputs, encoded);

  return encoded;
}

/**
 * Fully decodes a plan-secret data value for inspection in tests: base64, then gzip (stored
 * blocks, as written here), then the base64 values of an output map, so a marker shows up as text.
 */
export function revealSecretValue(base64Value: string): string {
  const bytes = base64ToBytes(base64Value);
  const unzipped = gunzipStored(bytes);
  const text = utf8Decode(unzipped ?? bytes);

  try {
    const parsed = JSON.parse(text) as unknown;

    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      const decoded: string[] = [text];

      for (const value of Object.values(parsed as Record<string, unknown>)) {
        if (typeof value === 'string' && /^[A-Za-z0-9+/]+=*$/.test(value) && value.length % 4 === 0) {
          decoded.push(base64Decode(value));
        }
      }

      return decoded.join('\n');
    }
  } catch {
    // not JSON: the decoded text is all there is
  }

  return text;
}

export interface PlanSecretOptions {
  machineName: string;
  namespace: string;
  clusterName: string;
  createdAt: string;
  /** RKEBootstrap that owns the secret; the secret is named `<bootstrapName>-machine-plan` */
  bootstrapName?: string;
  roles: Roles;
  os?: OperatingSystem;
  address: string;
  internalAddress?: string;
  /** value of the rke.cattle.io/labels annotation */
  registrationLabels?: Labels;
  initNode?: boolean;
  /** servers: `https://<address>:9345` (rke2) or `:6443` (k3s) */
  joinUrl?: string;
  /** join URL of the server this node joined ('' on the init node) */
  joinedTo?: string;
  planLastUpdated?: string;
  /** '' (the planner clears it on every plan update) or the time probes last passed */
  planProbesPassed?: string;
  plan?: string;
  appliedPlan?: string;
  appliedChecksum?: string;
  appliedOutput?: Record<string, string>;
  failedChecksum?: string;
  failedOutput?: Record<string, string>;
  failureCount?: number;
  successCount?: number;
  /** RFC 3339; written as Go time.UnixDate */
  lastApplyTime?: string;
  probeStatuses?: Record<string, ProbeStatus>;
  maxFailures?: number;
  failureThreshold?: number;
  planState?: 'pending' | 'in-progress' | 'succeeded' | 'failed' | 'cancelled';
  planRevision?: number;
}

export function planSecretName(bootstrapName: string): string {
  return `${ bootstrapName }-machine-plan`;
}

export function machinePlanSecret(o: PlanSecretOptions): SecretObject {
  const bootstrapName = o.bootstrapName ?? o.machineName;
  const labels: Labels = {
    'cluster.x-k8s.io/cluster-name': o.clusterName,
    'rke.cattle.io/cluster-name':    o.clusterName,
    'rke.cattle.io/machine-name':    o.machineName,
    ...roleLabels(o.roles),
  };

  if (o.initNode) labels['rke.cattle.io/init-node'] = 'true';
  const annotations: Labels = {
    'rke.cattle.io/address':          o.address,
    'rke.cattle.io/internal-address': o.internalAddress ?? o.address,
    'rke.cattle.io/labels':           JSON.stringify(o.registrationLabels ?? { 'cattle.io/os': o.os ?? 'linux' }),
  };

  if (o.joinUrl) annotations['rke.cattle.io/join-url'] = o.joinUrl;
  if (o.joinedTo !== undefined) annotations['rke.cattle.io/joined-to'] = o.joinedTo;
  if (o.planLastUpdated) annotations['rke.cattle.io/plan-last-updated'] = o.planLastUpdated;
  if (o.planProbesPassed !== undefined) annotations['rke.cattle.io/plan-probes-passed'] = o.planProbesPassed;

  const data: Record<string, string> = {};
  const put = (key: string, value: string | number | undefined) => {
    if (value !== undefined) data[key] = base64Encode(String(value));
  };

  put('plan', o.plan);
  if (o.appliedPlan !== undefined && o.appliedPlan === o.plan) {
    data.appliedPlan = data.plan;
  } else {
    put('appliedPlan', o.appliedPlan);
  }
  put('applied-checksum', o.appliedChecksum);
  if (o.appliedOutput) data['applied-output'] = encodeAgentOutput(o.appliedOutput);
  put('failed-checksum', o.failedChecksum);
  if (o.failedOutput) data['failed-output'] = encodeAgentOutput(o.failedOutput);
  put('failure-count', o.failureCount);
  put('success-count', o.successCount);
  put('last-apply-time', o.lastApplyTime ? goUnixDate(o.lastApplyTime) : undefined);
  put('probe-statuses', o.probeStatuses ? JSON.stringify(o.probeStatuses) : undefined);
  put('max-failures', o.maxFailures);
  put('failure-threshold', o.failureThreshold);
  put('plan-state', o.planState);
  put('plan-revision', o.planRevision);

  return {
    apiVersion: 'v1',
    kind:       'Secret',
    metadata:   meta('Secret', {
      name:            planSecretName(bootstrapName),
      namespace:       o.namespace,
      createdAt:       o.createdAt,
      labels,
      annotations,
      ownerReferences: [{
        apiVersion:         'rke.cattle.io/v1',
        kind:               'RKEBootstrap',
        name:               bootstrapName,
        uid:                uidFor('RKEBootstrap', o.namespace, bootstrapName),
        controller:         true,
        blockOwnerDeletion: true,
      }],
    }),
    type: MACHINE_PLAN_SECRET_TYPE,
    data,
  };
}

/** Decoded text of one data key of a Secret, or undefined when the key is absent. */
export function secretText(secret: { data?: Record<string, string> }, key: string): string | undefined {
  const value = secret.data?.[key];

  return value === undefined ? undefined : base64Decode(value);
}

/* ------------------------------------------------------------------------------------------------ */
/* RKEBootstrap, infrastructure machines, agent credentials                                         */
/* ------------------------------------------------------------------------------------------------ */

export interface RkeBootstrapOptions {
  name: string;
  namespace: string;
  clusterName: string;
  machineName: string;
  createdAt: string;
  roles?: Roles;
  etcdForceRemove?: boolean;
  deletionTimestamp?: string;
}

export function rkeBootstrap(o: RkeBootstrapOptions): KubeObject {
  const annotations: Labels = {};

  if (o.etcdForceRemove) annotations[ETCD_FORCE_REMOVE_ANNOTATION] = 'true';

  return {
    apiVersion: 'rke.cattle.io/v1',
    kind:       'RKEBootstrap',
    metadata:   meta('RKEBootstrap', {
      name:              o.name,
      namespace:         o.namespace,
      createdAt:         o.createdAt,
      labels:            { 'cluster.x-k8s.io/cluster-name': o.clusterName, ...roleLabels(o.roles ?? {}) },
      annotations,
      deletionTimestamp: o.deletionTimestamp,
      generation:        1,
      ownerReferences:   [{
        apiVersion:         CAPI_V1BETA1,
        kind:               'Machine',
        name:               o.machineName,
        uid:                uidFor('Machine', o.namespace, o.machineName),
        controller:         true,
        blockOwnerDeletion: true,
      }],
    }),
    spec:   { clusterName: o.clusterName },
    status: { ready: true, dataSecretName: `${ o.name }-machine-bootstrap` },
  };
}

export interface CustomMachineOptions {
  name: string;
  namespace: string;
  clusterName: string;
  createdAt: string;
  providerID?: string;
  ready?: boolean;
}

export function customMachine(o: CustomMachineOptions): KubeObject {
  const ready = o.ready ?? true;
  const obj: KubeObject = {
    apiVersion: 'rke.cattle.io/v1',
    kind:       'CustomMachine',
    metadata:   meta('CustomMachine', {
      name:            o.name,
      namespace:       o.namespace,
      createdAt:       o.createdAt,
      labels:          { 'cluster.x-k8s.io/cluster-name': o.clusterName },
      generation:      1,
      ownerReferences: [{
        apiVersion:         CAPI_V1BETA1,
        kind:               'Machine',
        name:               o.name,
        uid:                uidFor('Machine', o.namespace, o.name),
        controller:         true,
        blockOwnerDeletion: true,
      }],
    }),
    spec:   o.providerID ? { providerID: o.providerID } : {},
    status: {
      ready,
      conditions: [{
        type: 'Ready', status: ready ? 'True' : 'False', lastUpdateTime: o.createdAt
      }],
    },
  };

  return obj;
}

export interface VsphereMachineOptions {
  name: string;
  namespace: string;
  clusterName: string;
  machineDeployment: string;
  createdAt: string;
  os?: OperatingSystem;
  providerID?: string;
  addresses?: NodeAddress[];
  ready: boolean;
  /** message of the Ready condition when not ready (e.g. the driver's "no VM found") */
  errorMessage?: string;
  errorSince?: string;
  failureReason?: string;
  failureMessage?: string;
  cpuCount?: number;
  memorySizeMb?: number;
  deletionTimestamp?: string;
}

/** A node-driver infrastructure machine (rke-machine.cattle.io/v1 VmwarevsphereMachine). */
export function vsphereMachine(o: VsphereMachineOptions): KubeObject {
  const windows = (o.os ?? 'linux') === 'windows';
  const conditions: RancherCondition[] = [
    {
      type: 'CreateJob', status: 'True', lastUpdateTime: o.createdAt
    },
  ];
  const ready: RancherCondition = {
    type: 'Ready', status: o.ready ? 'True' : 'False', lastUpdateTime: o.errorSince ?? o.createdAt
  };

  if (!o.ready) {
    ready.reason = 'Error';
    if (o.errorMessage) ready.message = o.errorMessage;
  }
  conditions.push(ready);
  const status: Record<string, unknown> = {
    ready:                     o.ready,
    jobName:                   `${ o.name }-machine-provision`,
    driverHash:                stableHex('driver:vmwarevsphere', 64),
    cloudCredentialSecretName: `cattle-global-data:cc-${ stableSuffix(`cc:${ o.clusterName }`) }`,
    conditions,
  };

  if (o.addresses) status.addresses = o.addresses.map((a) => ({ ...a }));
  if (o.failureReason) status.failureReason = o.failureReason;
  if (o.failureMessage) status.failureMessage = o.failureMessage;
  const spec: Record<string, unknown> = {
    common:       { cloudCredentialSecretName: status.cloudCredentialSecretName },
    vcenter:      'vcenter.example.com',
    vcenterPort:  '443',
    datacenter:   '/Datacenter',
    folder:       '/Datacenter/vm/rancher',
    pool:         '/Datacenter/host/Cluster01/Resources',
    datastore:    '/Datacenter/datastore/vsanDatastore',
    network:      ['/Datacenter/network/VM Network'],
    creationType: 'template',
    cloneFrom:    windows ? '/Datacenter/vm/templates/win2019-core' : '/Datacenter/vm/templates/ubuntu-2204',
    cpuCount:     String(o.cpuCount ?? (windows ? 4 : 2)),
    memorySize:   String(o.memorySizeMb ?? (windows ? 8192 : 4096)),
    diskSize:     windows ? '81920' : '40960',
    os:           windows ? 'windows' : 'linux',
  };

  if (o.providerID) spec.providerID = o.providerID;

  return {
    apiVersion: 'rke-machine.cattle.io/v1',
    kind:       'VmwarevsphereMachine',
    metadata:   meta('VmwarevsphereMachine', {
      name:      o.name,
      namespace: o.namespace,
      createdAt: o.createdAt,
      labels:    {
        'cluster.x-k8s.io/cluster-name':    o.clusterName,
        'cluster.x-k8s.io/deployment-name': o.machineDeployment,
        'rke.cattle.io/cluster-name':       o.clusterName,
      },
      annotations:       windows ? { 'rke.cattle.io/hostname-length-limit': '15' } : {},
      generation:        1,
      deletionTimestamp: o.deletionTimestamp,
      ownerReferences:   [{
        apiVersion:         CAPI_V1BETA1,
        kind:               'Machine',
        name:               o.name,
        uid:                uidFor('Machine', o.namespace, o.name),
        controller:         true,
        blockOwnerDeletion: true,
      }],
    }),
    spec,
    status,
  };
}

export interface AgentCredentialOptions {
  machineName: string;
  namespace: string;
  createdAt: string;
  secretMarker?: string;
}

/**
 * The ServiceAccount the agent authenticates as and its token secret: recreating them invalidates
 * the kubeconfig on the host ("the server has asked for the client to provide credentials").
 */
export function agentCredentials(o: AgentCredentialOptions): [KubeObject, SecretObject] {
  const saName = planSecretName(o.machineName);
  const marker = o.secretMarker ?? DEFAULT_SECRET_MARKER;
  const sa: KubeObject = {
    apiVersion: 'v1',
    kind:       'ServiceAccount',
    metadata:   meta('ServiceAccount', {
      name:      saName,
      namespace: o.namespace,
      createdAt: o.createdAt,
      labels:    {
        'rke.cattle.io/machine-name':         o.machineName,
        'rke.cattle.io/service-account-role': 'plan',
        'rke.cattle.io/plan-secret-name':     planSecretName(o.machineName),
      },
      ownerReferences: [{
        apiVersion:         'rke.cattle.io/v1',
        kind:               'RKEBootstrap',
        name:               o.machineName,
        uid:                uidFor('RKEBootstrap', o.namespace, o.machineName),
        controller:         true,
        blockOwnerDeletion: true,
      }],
    }),
  };
  const tokenName = `${ saName }-token-${ stableSuffix(`sa-token:${ o.namespace }/${ saName }`) }`;
  const header = base64Encode(`{"alg":"RS256","kid":"${ stableHex(`kid:${ saName }`, 16) }"}`).replace(/=+$/, '');
  const payload = base64Encode(`{"sub":"system:serviceaccount:${ o.namespace }:${ saName }"}`).replace(/=+$/, '');
  const jwt = `${ header }.${ payload }.${ marker }-${ stableHex(`sig:${ saName }`, 32) }`;
  const token: SecretObject = {
    apiVersion: 'v1',
    kind:       'Secret',
    metadata:   meta('Secret', {
      name:        tokenName,
      namespace:   o.namespace,
      createdAt:   o.createdAt,
      labels:      { 'cattle.io/service-account.name': saName },
      annotations: {
        'kubernetes.io/service-account.name': saName,
        'kubernetes.io/service-account.uid':  sa.metadata.uid,
      },
    }),
    type: 'kubernetes.io/service-account-token',
    data: {
      'ca.crt':  base64Encode(`-----BEGIN CERTIFICATE-----\n${ marker }-CA-${ stableHex(`ca:${ o.namespace }`, 48) }\n-----END CERTIFICATE-----\n`),
      namespace: base64Encode(o.namespace),
      token:     base64Encode(jwt),
    },
  };

  return [sa, token];
}

/* ------------------------------------------------------------------------------------------------ */
/* nodes: downstream v1 Node and management.cattle.io Node                                          */
/* ------------------------------------------------------------------------------------------------ */

export interface DownstreamNodeOptions {
  name: string;
  createdAt: string;
  kubernetesVersion: string;
  roles: Roles;
  os?: OperatingSystem;
  osImage?: string;
  kernelVersion?: string;
  containerRuntimeVersion?: string;
  address: string;
  internalAddress?: string;
  cpu?: number;
  memoryKi?: number;
  /** Machine uid the planner put into the node labels; omit for nodes Rancher did not provision */
  machineUid?: string;
  /** CAPI annotations, present once CAPI linked the node to its machine */
  capiMachine?: { name: string; clusterName: string; namespace: string };
  providerID?: string;
  ready?: { status: 'True' | 'False' | 'Unknown'; reason?: string; message?: string; since?: string };
  unschedulable?: boolean;
  extraLabels?: Labels;
  heartbeat: string;
}

const WINDOWS_KERNELS: Record<string, string> = {
  'Windows Server 2016 Datacenter': '10.0.14393.6709',
  'Windows Server 2019 Datacenter': '10.0.17763.5329',
  'Windows Server 2022 Datacenter': '10.0.20348.2227',
};

export function nodeSystemInfo(o: {
  name: string; kubernetesVersion: string; os?: OperatingSystem; osImage?: string; kernelVersion?: string;
  containerRuntimeVersion?: string;
}): NodeSystemInfo {
  const windows = (o.os ?? 'linux') === 'windows';
  const osImage = o.osImage ?? (windows ? 'Windows Server 2019 Datacenter' : 'Ubuntu 22.04.4 LTS');
  const runtime = runtimeOf(o.kubernetesVersion);
  const machineID = stableHex(`machine-id:${ o.name }`, 32);

  return {
    architecture:            'amd64',
    bootID:                  stableUid(`boot:${ o.name }`),
    containerRuntimeVersion: o.containerRuntimeVersion ?? (runtime === 'k3s' ? 'containerd://1.7.11-k3s2' : 'containerd://1.7.11-k3s2'),
    kernelVersion:           o.kernelVersion ?? (windows ? (WINDOWS_KERNELS[osImage] ?? '10.0.17763.5329') : '5.15.0-105-generic'),
    kubeProxyVersion:        o.kubernetesVersion,
    kubeletVersion:          o.kubernetesVersion,
    machineID,
    operatingSystem:         windows ? 'windows' : 'linux',
    osImage,
    systemUUID:              stableUid(`system-uuid:${ o.name }`).toUpperCase(),
  };
}

export function downstreamNode(o: DownstreamNodeOptions): NodeObject {
  const windows = (o.os ?? 'linux') === 'windows';
  const runtime = runtimeOf(o.kubernetesVersion);
  const labels: Labels = {
    'beta.kubernetes.io/arch':          'amd64',
    'beta.kubernetes.io/instance-type': runtime,
    'beta.kubernetes.io/os':            windows ? 'windows' : 'linux',
    'kubernetes.io/arch':               'amd64',
    'kubernetes.io/hostname':           o.name,
    'kubernetes.io/os':                 windows ? 'windows' : 'linux',
    'node.kubernetes.io/instance-type': runtime,
  };

  if (o.roles.controlPlane) {
    labels['node-role.kubernetes.io/control-plane'] = 'true';
    labels['node-role.kubernetes.io/master'] = 'true';
  }
  if (o.roles.etcd) labels['node-role.kubernetes.io/etcd'] = 'true';
  if (o.roles.worker) labels['node-role.kubernetes.io/worker'] = 'true';
  const info = nodeSystemInfo({
    name: o.name, kubernetesVersion: o.kubernetesVersion, os: o.os, osImage: o.osImage, kernelVersion: o.kernelVersion, containerRuntimeVersion: o.containerRuntimeVersion
  });

  if (windows) labels['node.kubernetes.io/windows-build'] = info.kernelVersion.split('.').slice(0, 3).join('.');
  if (o.machineUid) {
    labels[MACHINE_UID_LABEL] = o.machineUid;
    labels['cattle.io/os'] = windows ? 'windows' : 'linux';
  }
  Object.assign(labels, o.extraLabels ?? {});

  const internal = o.internalAddress ?? o.address;
  const annotations: Labels = {
    'node.alpha.kubernetes.io/ttl':                           '0',
    'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
    [`${ runtime }.io/hostname`]:                               o.name,
    [`${ runtime }.io/internal-ip`]:                            internal,
  };

  if (o.address !== internal) annotations[`${ runtime }.io/external-ip`] = o.address;
  if (o.roles.etcd) {
    annotations[`etcd.${ runtime }.cattle.io/node-name`] = `${ o.name }-${ stableHex(`etcd:${ o.name }`, 8) }`;
    annotations[`etcd.${ runtime }.cattle.io/node-address`] = internal;
  }
  if (o.capiMachine) {
    annotations['cluster.x-k8s.io/cluster-name'] = o.capiMachine.clusterName;
    annotations['cluster.x-k8s.io/cluster-namespace'] = o.capiMachine.namespace;
    annotations['cluster.x-k8s.io/machine'] = o.capiMachine.name;
    annotations['cluster.x-k8s.io/owner-kind'] = 'Machine';
    annotations['cluster.x-k8s.io/owner-name'] = o.capiMachine.name;
  }

  const taints: NodeObject['spec']['taints'] = [];

  if (o.roles.etcd && !o.roles.controlPlane && !o.roles.worker) {
    taints.push({
      key: 'node-role.kubernetes.io/etcd', value: 'true', effect: 'NoExecute'
    });
  }
  if (o.roles.controlPlane && !o.roles.worker) {
    taints.push({
      key: 'node-role.kubernetes.io/control-plane', value: 'true', effect: 'NoSchedule'
    });
  }
  const readyStatus = o.ready?.status ?? 'True';

  if (readyStatus !== 'True') {
    taints.push({
      key: readyStatus === 'Unknown' ? 'node.kubernetes.io/unreachable' : 'node.kubernetes.io/not-ready', effect: 'NoSchedule', timeAdded: o.ready?.since ?? o.heartbeat
    });
  }
  if (o.unschedulable) {
    taints.push({
      key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule', timeAdded: o.heartbeat
    });
  }

  const cpu = o.cpu ?? (windows ? 4 : 4);
  const memoryKi = o.memoryKi ?? (windows ? 8388084 : 16374624);
  const podIndex = stableInt(`pod-cidr:${ o.name }`, 0, 250);
  const since = o.ready?.since ?? o.createdAt;
  const pressure = (type: string, reason: string, message: string): NodeCondition => (
    readyStatus === 'Unknown' ? {
      type, status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.', lastHeartbeatTime: since, lastTransitionTime: since
    } : {
      type, status: 'False', reason, message, lastHeartbeatTime: o.heartbeat, lastTransitionTime: o.createdAt
    }
  );
  const readyCondition: NodeCondition = readyStatus === 'True' ? {
    type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', lastHeartbeatTime: o.heartbeat, lastTransitionTime: o.ready?.since ?? o.createdAt
  } : {
    type:               'Ready',
    status:             readyStatus,
    reason:             o.ready?.reason ?? (readyStatus === 'Unknown' ? 'NodeStatusUnknown' : 'KubeletNotReady'),
    message:            o.ready?.message ?? (readyStatus === 'Unknown' ? 'Kubelet stopped posting node status.' : 'container runtime is down'),
    lastHeartbeatTime:  readyStatus === 'Unknown' ? since : o.heartbeat,
    lastTransitionTime: since,
  };

  const node: NodeObject = {
    apiVersion: 'v1',
    kind:       'Node',
    metadata:   meta('Node', {
      name: o.name, createdAt: o.createdAt, labels, annotations
    }),
    spec:       {
      podCIDR:  `10.42.${ podIndex }.0/24`,
      podCIDRs: [`10.42.${ podIndex }.0/24`],
    },
    status: {
      addresses:   [{ type: 'InternalIP', address: internal }, ...(o.address !== internal ? [{ type: 'ExternalIP' as const, address: o.address }] : []), { type: 'Hostname', address: o.name }],
      allocatable: {
        cpu: String(cpu), 'ephemeral-storage': '99833802265', memory: `${ memoryKi }Ki`, pods: '110'
      },
      capacity:    {
        cpu: String(cpu), 'ephemeral-storage': '102626232Ki', memory: `${ memoryKi }Ki`, pods: '110'
      },
      conditions:  windows ? [readyCondition] : [
        pressure('MemoryPressure', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
        pressure('DiskPressure', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
        pressure('PIDPressure', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
        readyCondition,
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      nodeInfo:        info,
    },
  };

  if (o.providerID) node.spec.providerID = o.providerID;
  if (taints.length) node.spec.taints = taints;
  if (o.unschedulable) node.spec.unschedulable = true;
  if (windows) {
    node.status.allocatable['ephemeral-storage'] = '84297749500';
    node.status.capacity['ephemeral-storage'] = '83334144Ki';
  }

  return node;
}

export interface ManagementNodeOptions {
  /** management Node name (Norman style `machine-xxxxx`) */
  name?: string;
  mgmtId: string;
  createdAt: string;
  /** the downstream Node it mirrors; absent for a node that never registered */
  node?: NodeObject;
  requestedHostname: string;
  roles: Roles;
  imported?: boolean;
}

export function managementNode(o: ManagementNodeOptions): KubeObject {
  const name = o.name ?? `machine-${ stableSuffix(`mgmt-node:${ o.mgmtId }/${ o.requestedHostname }`) }`;
  const node = o.node;
  const nodeName = node?.metadata.name;
  const labels: Labels = { 'cattle.io/creator': 'norman' };

  if (nodeName) labels['management.cattle.io/nodename'] = nodeName;
  const ready = node?.status.conditions.find((c) => c.type === 'Ready');
  const conditions: RancherCondition[] = [
    {
      type: 'Initialized', status: 'True', lastUpdateTime: o.createdAt
    },
    {
      type: 'Provisioned', status: 'True', lastUpdateTime: o.createdAt
    },
    {
      type: 'Registered', status: node ? 'True' : 'Unknown', message: node ? 'registered with kubernetes' : undefined, lastUpdateTime: o.createdAt
    },
  ];

  if (ready) {
    conditions.push({
      type: 'Ready', status: ready.status, reason: ready.reason, message: ready.message, lastUpdateTime: ready.lastHeartbeatTime, lastTransitionTime: ready.lastTransitionTime
    });
  }
  const status: Record<string, unknown> = { conditions: conditions.map(dropUndefined) };

  if (node) {
    status.nodeName = nodeName;
    status.nodeAnnotations = { ...(node.metadata.annotations ?? {}) };
    status.nodeLabels = { ...(node.metadata.labels ?? {}) };
    status.internalNodeStatus = copyNodeStatus(node.status);
    status.requested = {
      cpu: '350m', memory: '200Mi', pods: '9'
    };
    status.limits = { memory: '340Mi' };
  }
  const spec: Record<string, unknown> = {
    controlPlane:      Boolean(o.roles.controlPlane),
    etcd:              Boolean(o.roles.etcd),
    worker:            Boolean(o.roles.worker),
    imported:          Boolean(o.imported),
    requestedHostname: o.requestedHostname,
    customConfig:      null,
    desiredNodeTaints: null,
    displayName:       '',
    metadataUpdate:    { annotations: {}, labels: {} },
    internalNodeSpec:  node ? {
      ...node.spec, ...(node.spec.taints ? { taints: node.spec.taints.map((t) => ({ ...t })) } : {}), ...(node.spec.podCIDRs ? { podCIDRs: [...node.spec.podCIDRs] } : {})
    } : {},
  };

  return {
    apiVersion: 'management.cattle.io/v3',
    kind:       'Node',
    metadata:   meta('MgmtNode', {
      name,
      namespace:    o.mgmtId,
      createdAt:    o.createdAt,
      generateName: 'machine-',
      generation:   1,
      labels,
      annotations:  { 'management.cattle.io/nodesyncer': 'true', 'lifecycle.cattle.io/create.node-controller': 'true' },
      finalizers:   ['controller.cattle.io/node-controller'],
    }),
    spec,
    status,
  };
}

function copyNodeStatus(st: NodeObject['status']): NodeObject['status'] {
  return {
    addresses:       st.addresses.map((a) => ({ ...a })),
    allocatable:     { ...st.allocatable },
    capacity:        { ...st.capacity },
    conditions:      st.conditions.map((c) => ({ ...c })),
    daemonEndpoints: { kubeletEndpoint: { ...st.daemonEndpoints.kubeletEndpoint } },
    nodeInfo:        { ...st.nodeInfo },
  };
}

function dropUndefined<T extends object>(o: T): T {
  const out = {} as T;

  for (const [k, v] of Object.entries(o)) {
    if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  }

  return out;
}

/* ------------------------------------------------------------------------------------------------ */
/* clusters and registration                                                                         */
/* ------------------------------------------------------------------------------------------------ */

export interface ProvisioningClusterOptions {
  name: string;
  namespace: string;
  mgmtId: string;
  kind: ClusterKind;
  createdAt: string;
  kubernetesVersion?: string;
  /** the planner's message: goes into Updated and Provisioned (Unknown/Waiting) */
  waitingMessage?: string;
  waitingSince?: string;
  rotateCertificatesGeneration?: number;
  appliedRotateCertificatesGeneration?: number;
  machinePools?: { name: string; quantity: number; roles: Roles; os?: OperatingSystem }[];
  annotations?: Labels;
  generation?: number;
}

export function provisioningCluster(o: ProvisioningClusterOptions): KubeObject {
  const generation = o.generation ?? 3;
  const conditions: RancherCondition[] = [
    {
      type: 'Created', status: 'True', lastUpdateTime: o.createdAt
    },
    {
      type: 'RKECluster', status: 'True', lastUpdateTime: o.createdAt
    },
    {
      type: 'BackingNamespaceCreated', status: 'True', lastUpdateTime: o.createdAt
    },
    {
      type: 'DefaultProjectCreated', status: 'True', lastUpdateTime: o.createdAt
    },
    {
      type: 'SystemProjectCreated', status: 'True', lastUpdateTime: o.createdAt
    },
    {
      type: 'InitialRolesPopulated', status: 'True', lastUpdateTime: o.createdAt
    },
    {
      type: 'CreatorMadeOwner', status: 'True', lastUpdateTime: o.createdAt
    },
    {
      type: 'Connected', status: 'True', lastUpdateTime: o.createdAt
    },
  ];

  if (o.kind === 'imported') {
    conditions.splice(1, 1);
  }
  const since = o.waitingSince ?? o.createdAt;

  if (o.waitingMessage) {
    conditions.push(
      {
        type: 'Updated', status: 'Unknown', reason: 'Waiting', message: o.waitingMessage, lastUpdateTime: since
      },
      {
        type: 'Provisioned', status: 'Unknown', reason: 'Waiting', message: o.waitingMessage, lastUpdateTime: since
      },
    );
  } else {
    conditions.push(
      {
        type: 'Updated', status: 'True', lastUpdateTime: o.createdAt
      },
      {
        type: 'Provisioned', status: 'True', lastUpdateTime: o.createdAt
      },
    );
  }
  conditions.push({
    type: 'Ready', status: 'True', lastUpdateTime: o.createdAt
  });

  const spec: Record<string, unknown> = {};

  if (o.kind !== 'imported') {
    spec.kubernetesVersion = o.kubernetesVersion;
    spec.localClusterAuthEndpoint = {};
    const rkeConfig: Record<string, unknown> = {
      chartValues:         runtimeOf(o.kubernetesVersion ?? '') === 'rke2' ? { 'rke2-calico': {} } : {},
      etcd:                { snapshotRetention: 5, snapshotScheduleCron: '0 */5 * * *' },
      machineGlobalConfig: runtimeOf(o.kubernetesVersion ?? '') === 'rke2' ? {
        cni: 'calico', 'disable-kube-proxy': false, 'etcd-expose-metrics': false
      } : {
        'disable-apiserver': false, 'disable-cloud-controller': false, 'etcd-expose-metrics': false
      },
      machineSelectorConfig: [{ config: { 'protect-kernel-defaults': false } }],
      registries:            {},
      upgradeStrategy:       {
        controlPlaneConcurrency:  '1',
        controlPlaneDrainOptions: {
          enabled: false, deleteEmptyDirData: true, gracePeriod: -1, timeout: 120
        },
        workerConcurrency:        '1',
        workerDrainOptions:       {
          enabled: false, deleteEmptyDirData: true, gracePeriod: -1, timeout: 120
        },
      },
    };

    if (o.rotateCertificatesGeneration) rkeConfig.rotateCertificates = { generation: o.rotateCertificatesGeneration };
    if (o.machinePools) {
      rkeConfig.machinePools = o.machinePools.map((p) => ({
        name:             p.name,
        quantity:         p.quantity,
        etcdRole:         Boolean(p.roles.etcd),
        controlPlaneRole: Boolean(p.roles.controlPlane),
        workerRole:       Boolean(p.roles.worker),
        machineOS:        p.os ?? 'linux',
        machineConfigRef: { kind: 'VmwarevsphereConfig', name: `nc-${ o.name }-${ p.name }-${ stableSuffix(`nc:${ o.name }/${ p.name }`) }` },
        ...(p.os === 'windows' ? { hostnameLengthLimit: 15 } : {}),
      }));
    }
    spec.rkeConfig = rkeConfig;
  }

  const annotations: Labels = {
    'field.cattle.io/creatorId': `user-${ stableSuffix(`creator:${ o.name }`) }`,
    ...(o.annotations ?? {}),
  };
  const status: Record<string, unknown> = {
    clusterName:        o.mgmtId,
    fleetWorkspaceName: o.namespace,
    conditions,
    observedGeneration: generation,
    ready:              true,
    agentDeployed:      true,
    clientSecretName:   `${ o.name }-kubeconfig`,
  };

  if (o.appliedRotateCertificatesGeneration !== undefined) {
    status.certificateRotationGeneration = o.appliedRotateCertificatesGeneration;
  }

  return {
    apiVersion: 'provisioning.cattle.io/v1',
    kind:       'Cluster',
    metadata:   meta('ProvCluster', {
      name:       o.name,
      namespace:  o.namespace,
      createdAt:  o.createdAt,
      generation,
      annotations,
      finalizers: ['wrangler.cattle.io/provisioning-cluster-remove', 'wrangler.cattle.io/rke-cluster-remove'],
    }),
    spec,
    status,
  };
}

export interface ManagementClusterOptions {
  mgmtId: string;
  displayName: string;
  namespace: string;
  kind: ClusterKind;
  createdAt: string;
  kubernetesVersion?: string;
  nodeCount: number;
  provisioningClusterName: string;
}

export function managementCluster(o: ManagementClusterOptions): KubeObject {
  const runtime = o.kubernetesVersion ? runtimeOf(o.kubernetesVersion) : 'k3s';
  const driver = o.kind === 'imported' ? 'imported' : runtime;

  return {
    apiVersion: 'management.cattle.io/v3',
    kind:       'Cluster',
    metadata:   meta('MgmtCluster', {
      name:        o.mgmtId,
      createdAt:   o.createdAt,
      generation:  5,
      labels:      { 'provider.cattle.io': runtime },
      annotations: {
        'objectset.rio.cattle.io/owner-gvk':                      'provisioning.cattle.io/v1, Kind=Cluster',
        'objectset.rio.cattle.io/owner-name':                     o.provisioningClusterName,
        'objectset.rio.cattle.io/owner-namespace':                o.namespace,
        'provisioning.cattle.io/management-cluster-display-name': o.displayName,
      },
    }),
    spec: {
      displayName:              o.displayName,
      fleetWorkspaceName:       o.namespace,
      internal:                 false,
      localClusterAuthEndpoint: { enabled: false },
    },
    status: {
      driver,
      provider:   runtime,
      connected:  true,
      conditions: [
        {
          type: 'BackingNamespaceCreated', status: 'True', lastUpdateTime: o.createdAt
        },
        {
          type: 'Provisioned', status: 'True', lastUpdateTime: o.createdAt
        },
        {
          type: 'Ready', status: 'True', lastUpdateTime: o.createdAt
        },
      ],
      info:    {
        arch: 'amd64', kubernetesVersion: o.kubernetesVersion, machineProvider: driver, nodeCount: o.nodeCount
      },
      version: { gitVersion: o.kubernetesVersion, platform: 'linux/amd64' },
    },
  };
}

export interface RegistrationCommands {
  command: string;
  insecureCommand: string;
  nodeCommand: string;
  insecureNodeCommand: string;
  windowsNodeCommand: string;
  insecureWindowsNodeCommand: string;
  manifestUrl: string;
  token: string;
}

export function registrationCommands(o: { serverUrl: string; mgmtId: string; token: string; caChecksum?: string }): RegistrationCommands {
  const manifestUrl = `${ o.serverUrl }/v3/import/${ o.token }_${ o.mgmtId }.yaml`;
  const ca = o.caChecksum ? ` --ca-checksum ${ o.caChecksum }` : '';
  const caWin = o.caChecksum ? ` -CaChecksum ${ o.caChecksum }` : '';

  return {
    command:                    `kubectl apply -f ${ manifestUrl }`,
    insecureCommand:            `curl --insecure -sfL ${ manifestUrl } | kubectl apply -f -`,
    nodeCommand:                `curl -fL ${ o.serverUrl }/system-agent-install.sh | sudo  sh -s - --server ${ o.serverUrl } --label 'cattle.io/os=linux' --token ${ o.token }${ ca }`,
    insecureNodeCommand:        `curl --insecure -fL ${ o.serverUrl }/system-agent-install.sh | sudo  sh -s - --server ${ o.serverUrl } --label 'cattle.io/os=linux' --token ${ o.token }`,
    windowsNodeCommand:         `curl.exe -fL ${ o.serverUrl }/wins-agent-install.ps1 -o install.ps1; Set-ExecutionPolicy Bypass -Scope Process -Force; ./install.ps1 -Server ${ o.serverUrl } -Label 'cattle.io/os=windows' -Token ${ o.token } -Worker${ caWin }`,
    insecureWindowsNodeCommand: `curl.exe --insecure -fL ${ o.serverUrl }/wins-agent-install.ps1 -o install.ps1; Set-ExecutionPolicy Bypass -Scope Process -Force; ./install.ps1 -Server ${ o.serverUrl } -Label 'cattle.io/os=windows' -Token ${ o.token } -Worker`,
    manifestUrl,
    token:                      o.token,
  };
}

/** A registration token value: 54 lower-case characters, beginning with the marker so leaks are detectable. */
export function registrationTokenValue(mgmtId: string, secretMarker = DEFAULT_SECRET_MARKER): string {
  const filler = stableHex(`registration-token:${ mgmtId }`, 64);

  return (secretMarker + filler).slice(0, Math.max(54, secretMarker.length + 8));
}

export interface RegistrationTokenOptions {
  mgmtId: string;
  createdAt: string;
  serverUrl?: string;
  secretMarker?: string;
  caChecksum?: string;
  name?: string;
}

/** ClusterRegistrationToken as the Kubernetes API (and Steve) serves it: commands under status. */
export function clusterRegistrationToken(o: RegistrationTokenOptions): KubeObject {
  const token = registrationTokenValue(o.mgmtId, o.secretMarker);
  const commands = registrationCommands({
    serverUrl: o.serverUrl ?? DEFAULT_SERVER_URL, mgmtId: o.mgmtId, token, caChecksum: o.caChecksum
  });

  return {
    apiVersion: 'management.cattle.io/v3',
    kind:       'ClusterRegistrationToken',
    metadata:   meta('ClusterRegistrationToken', {
      name:       o.name ?? 'default-token',
      namespace:  o.mgmtId,
      createdAt:  o.createdAt,
      generation: 1,
    }),
    spec:   { clusterName: o.mgmtId },
    status: { ...commands },
  };
}

/** The same token as Norman's /v3/clusterregistrationtokens returns it: flat, with an id and type. */
export function normanRegistrationToken(k8sToken: KubeObject, serverUrl = DEFAULT_SERVER_URL): Record<string, unknown> {
  const ns = k8sToken.metadata.namespace ?? '';
  const status = (k8sToken.status ?? {}) as Partial<RegistrationCommands>;
  const id = `${ ns }:${ k8sToken.metadata.name }`;

  return {
    id,
    type:                 'clusterRegistrationToken',
    baseType:             'clusterRegistrationToken',
    name:                 k8sToken.metadata.name,
    namespaceId:          null,
    clusterId:            ns,
    uuid:                 k8sToken.metadata.uid,
    created:              k8sToken.metadata.creationTimestamp,
    createdTS:            parseTime(k8sToken.metadata.creationTimestamp),
    creatorId:            null,
    state:                'active',
    transitioning:        'no',
    transitioningMessage: '',
    annotations:          {},
    labels:               { 'cattle.io/creator': 'norman' },
    links:                {
      self:   `${ serverUrl }/v3/clusterRegistrationTokens/${ id }`,
      update: `${ serverUrl }/v3/clusterRegistrationTokens/${ id }`,
      remove: `${ serverUrl }/v3/clusterRegistrationTokens/${ id }`,
    },
    actions:                    {},
    command:                    status.command,
    insecureCommand:            status.insecureCommand,
    nodeCommand:                status.nodeCommand,
    insecureNodeCommand:        status.insecureNodeCommand,
    windowsNodeCommand:         status.windowsNodeCommand,
    insecureWindowsNodeCommand: status.insecureWindowsNodeCommand,
    manifestUrl:                status.manifestUrl,
    token:                      status.token,
  };
}

/* ------------------------------------------------------------------------------------------------ */
/* composite: one node, one cluster                                                                  */
/* ------------------------------------------------------------------------------------------------ */

/** What the agent on the host has done with its plan. */
export type AgentState =
  | 'in-sync' // applied the current plan, probes healthy
  | 'never-checked-in' // plan written, agent never applied anything (no appliedPlan)
  | 'plan-pending' // a newer plan is waiting to be applied
  | 'plan-failed' // applying the current plan failed past the threshold
  | 'probes-failing'; // applied, but some probes are unhealthy

/** What the downstream cluster knows about the host. */
export type NodeState =
  | 'ready' // Node registered, linked to the Machine, Ready=True
  | 'not-ready' // Node registered and linked, Ready False/Unknown
  | 'never-registered' // no Node, Machine waits for its node ref
  | 'deleted' // Machine's nodeRef points at a Node that no longer exists
  | 'unlinked'; // a Node exists under registeredName but carries no machine label or annotations

export interface NodeSpec {
  /** host name as the host reports it (may be upper case: Windows) */
  hostname: string;
  machineName?: string;
  /** custom clusters: agent id hash; the machine is named custom-<first 12 hex chars> */
  machineId?: string;
  /** node-driver clusters: pool name */
  pool?: string;
  roles: Roles;
  os?: OperatingSystem;
  osImage?: string;
  kernelVersion?: string;
  cpu?: number;
  memoryKi?: number;
  address: string;
  internalAddress?: string;
  createdAgo: Duration;
  /** node name given at registration (label rke.cattle.io/node-name) */
  nodeNameLabel?: string;
  /** the host of the server this node joined (default: the init node) */
  joinedTo?: string;
  agent?: AgentState;
  /** when the current plan was written (default: shortly after creation) */
  planUpdatedAgo?: Duration;
  unhealthyProbes?: string[];
  /** false: the machine-plan secret does not exist */
  planSecret?: boolean;
  /** 'vm-missing': node-driver VM vanished; 'deleted': the infrastructure object is gone */
  infra?: 'ready' | 'vm-missing' | 'deleted';
  infraMessage?: string;
  node?: NodeState;
  /** name the downstream Node registered under (default: lower-cased hostname) */
  registeredName?: string;
  notReady?: { status: 'False' | 'Unknown'; reason?: string; message?: string; since: Duration };
  deleting?: { ago: Duration; blockedBy: 'drain' | 'etcd-hook' | 'finalizer' };
  etcdForceRemove?: boolean;
  /** replaces the planner message on the Reconciled condition */
  reconciledMessage?: string;
  /** emit the agent's ServiceAccount and token secret */
  agentCredentials?: boolean;
  /** no management Node even though a downstream Node exists */
  noManagementNode?: boolean;
}

export interface ClusterContext {
  name: string;
  namespace: string;
  mgmtId: string;
  kind: ClusterKind;
  kubernetesVersion: string;
  now: string;
  serverUrl: string;
  secretMarker: string;
  /** cluster join token (K10...::server:...) */
  joinToken: string;
  planStateKeys?: boolean;
}

export interface BuiltNode {
  spec: NodeSpec;
  machineName: string;
  /** name of the downstream Node as registered (or expected) */
  nodeName: string;
  tier: 'bootstrap' | 'etcd' | 'control plane' | 'worker';
  /** planner status for this machine ('' when in sync) */
  plannerMessage: string;
  machine: MachineV1beta1;
  planSecret?: SecretObject;
  bootstrap: KubeObject;
  infraMachine?: KubeObject;
  managementNode?: KubeObject;
  node?: NodeObject;
  credentials?: KubeObject[];
  /** objects in Rancher's local cluster */
  local: KubeObject[];
  /** objects in the downstream cluster */
  downstream: KubeObject[];
}

export function joinToken(mgmtId: string, secretMarker = DEFAULT_SECRET_MARKER): string {
  return `K10${ sha256Hex(`cluster-ca:${ mgmtId }`) }::server:${ secretMarker }-${ stableHex(`join-token:${ mgmtId }`, 24) }`;
}

/** Stand-in for the sha256 of a host's cattle-id: 64 hex characters, stable per cluster and host. */
export function agentIdFor(clusterName: string, hostname: string): string {
  return stableHex(`cattle-id:${ clusterName }/${ hostname }`, 64);
}

export function customMachineName(machineId: string): string {
  return `custom-${ machineId.slice(0, 12) }`;
}

export function joinUrlFor(address: string, kubernetesVersion: string): string {
  return `https://${ address }:${ runtimeOf(kubernetesVersion) === 'rke2' ? 9345 : 6443 }`;
}

/** The planner's per-machine status, in rancher's order (pkg/capr/planner/store.go). */
export function plannerMessageFor(spec: NodeSpec): string {
  if (spec.reconciledMessage !== undefined) return spec.reconciledMessage;
  if (spec.planSecret === false) {
    if (spec.roles.etcd) return 'waiting for bootstrap etcd to be available';
    if (spec.roles.controlPlane) return 'waiting for etcd to be available';

    return 'waiting for control plane to be available';
  }
  switch (spec.agent ?? 'in-sync') {
  case 'never-checked-in': return NO_AGENT_MESSAGE;
  case 'probes-failing': return `waiting for probes: ${ [...(spec.unhealthyProbes ?? ['kubelet'])].sort().join(', ') }`;
  case 'plan-failed': return FAILED_PLAN_MESSAGE;
  case 'plan-pending': return WAITING_PLAN_MESSAGE;
  default: return '';
  }
}

function tierOf(spec: NodeSpec, initNode: boolean): BuiltNode['tier'] {
  if (initNode) return 'bootstrap';
  if (spec.roles.etcd) return 'etcd';
  if (spec.roles.controlPlane) return 'control plane';

  return 'worker';
}

/** Node-driver machine name: `<cluster>-<pool>-<machine set hash>-<suffix>`, a pure function of its arguments. */
export function nodeDriverMachineName(cluster: string, pool: string, key: string): string {
  const setHash = stableHex(`ms:${ cluster }-${ pool }`, 9).replace(/^[0-9]/, 'b');

  return `${ cluster }-${ pool }-${ setHash }-${ stableSuffix(`machine:${ cluster }/${ pool }/${ key }`) }`;
}

/** Resolves names the way the cluster builder does, without building anything. */
export function machineNameFor(ctx: Pick<ClusterContext, 'name' | 'kind'>, spec: NodeSpec): string {
  if (spec.machineName) return spec.machineName;
  if (ctx.kind === 'node-driver') return nodeDriverMachineName(ctx.name, spec.pool ?? 'pool1', spec.hostname);

  return customMachineName(spec.machineId ?? agentIdFor(ctx.name, spec.hostname));
}

interface NodeBuildExtras {
  initNode: boolean;
  joinedToUrl?: string;
}

const installOutputs = new WeakMap<ClusterContext, Record<string, string>>();

/** What the installer printed (with `set -x`, so the token shows): the same on every node of a cluster. */
function installOutputFor(ctx: ClusterContext): Record<string, string> {
  let output = installOutputs.get(ctx);

  if (!output) {
    const runtime = runtimeOf(ctx.kubernetesVersion);

    output = {
      install: [
        `+ export ${ runtime.toUpperCase() }_TOKEN=${ ctx.joinToken }`,
        '[INFO]  finding release for channel stable',
        `[INFO]  using ${ ctx.kubernetesVersion } as release`,
        `[INFO]  downloading checksums at https://github.com/rancher/${ runtime }/releases/download/${ ctx.kubernetesVersion }/sha256sum-amd64.txt`,
      ].join('\n'),
    };
    installOutputs.set(ctx, output);
  }

  return output;
}

export function buildNode(ctx: ClusterContext, spec: NodeSpec, extras: NodeBuildExtras = { initNode: false }): BuiltNode {
  const ns = ctx.namespace;
  const os = spec.os ?? 'linux';
  const runtime = runtimeOf(ctx.kubernetesVersion);
  const machineName = machineNameFor(ctx, spec);
  const machineId = ctx.kind === 'custom' ? (spec.machineId ?? agentIdFor(ctx.name, spec.hostname)) : undefined;
  const machineUid = uidFor('Machine', ns, machineName);
  const nowMs = parseTime(ctx.now);
  const createdSeconds = durationSeconds(spec.createdAgo);
  const createdMs = nowMs - createdSeconds * 1000;
  const createdAt = rfc3339(createdMs);
  const before = (span: Duration) => rfc3339(nowMs - durationSeconds(span) * 1000);
  const nodeState: NodeState = spec.node ?? 'ready';
  const agent: AgentState = spec.agent ?? 'in-sync';
  const infraState = spec.infra ?? 'ready';
  const nodeName = spec.registeredName ?? spec.hostname.toLowerCase();
  const linked = nodeState === 'ready' || nodeState === 'not-ready' || nodeState === 'deleted';
  const providerID = linked ? `${ runtime }://${ nodeName }` : undefined;
  const nodeUid = uidFor('Node', undefined, nodeName);
  const infraReady = infraState === 'ready' || infraState === 'deleted';
  const deletingAt = spec.deleting ? before(spec.deleting.ago) : undefined;
  const poolDeployment = ctx.kind === 'node-driver' ? `${ ctx.name }-${ spec.pool ?? 'pool1' }` : undefined;
  const internalAddress = spec.internalAddress ?? spec.address;
  const server = Boolean(spec.roles.etcd || spec.roles.controlPlane);
  const joinUrl = server ? joinUrlFor(internalAddress, ctx.kubernetesVersion) : undefined;
  const plannerMessage = plannerMessageFor(spec);
  const minutesAfterCreate = (m: number) => rfc3339(createdMs + Math.min(m * 60, Math.max(0, createdSeconds - 1)) * 1000);

  // plan and what the agent did with it
  const planAt = spec.planUpdatedAgo !== undefined ? before(spec.planUpdatedAgo) : minutesAfterCreate(2);
  const planOptions = (stamp: string): NodePlanOptions => ({
    kubernetesVersion: ctx.kubernetesVersion,
    roles:             spec.roles,
    os,
    machineUid,
    token:             ctx.joinToken,
    joinServer:        extras.initNode ? undefined : extras.joinedToUrl,
    nodeName:          spec.nodeNameLabel,
    address:           spec.address,
    internalAddress,
    restartStamp:      stableHex(`restart:${ stamp }`, 64),
  });
  const currentPlan = renderNodePlan(planOptions(`${ machineName }:${ planAt }`));
  const currentPlanHash = sha256Hex(currentPlan);
  const previousPlanAt = rfc3339(Math.min(parseTime(planAt) - 3600_000, parseTime(minutesAfterCreate(2))));
  // only nodes behind on their plan need the older one
  const previousPlan = agent === 'plan-pending' || agent === 'plan-failed' ? renderNodePlan(planOptions(`${ machineName }:${ previousPlanAt }`)) : currentPlan;
  const previousPlanHash = previousPlan === currentPlan ? currentPlanHash : sha256Hex(previousPlan);
  const applyOutput = () => installOutputFor(ctx);
  const probeNames = probeNamesFor(spec.roles, runtime);
  const healthyProbes = (count: number): Record<string, ProbeStatus> => Object.fromEntries(
    probeNames.map((p) => [p, {
      healthy: true, successCount: count, failureCount: 0
    }]),
  );

  let planSecret: SecretObject | undefined;

  if (spec.planSecret !== false) {
    const base: PlanSecretOptions = {
      machineName,
      namespace:          ns,
      clusterName:        ctx.name,
      createdAt:          rfc3339(createdMs + 1000),
      bootstrapName:      machineName,
      roles:              spec.roles,
      os,
      address:            spec.address,
      internalAddress,
      registrationLabels: { 'cattle.io/os': os },
      initNode:           extras.initNode,
      joinUrl,
      joinedTo:           extras.initNode ? '' : extras.joinedToUrl,
      planLastUpdated:    planAt,
      plan:               currentPlan,
      maxFailures:        server ? 5 : undefined,
      failureThreshold:   server ? 3 : undefined,
    };
    const appliedAt = rfc3339(Math.min(parseTime(planAt) + 47_000, nowMs));
    let o: PlanSecretOptions;

    switch (agent) {
    case 'never-checked-in':
      o = {
        ...base, planProbesPassed: '', planState: ctx.planStateKeys ? 'pending' : undefined
      };
      break;
    case 'plan-pending':
      o = {
        ...base,
        planProbesPassed: '',
        appliedPlan:      previousPlan,
        appliedChecksum:  previousPlanHash,
        appliedOutput:    applyOutput(),
        successCount:     1,
        failureCount:     0,
        lastApplyTime:    rfc3339(parseTime(previousPlanAt) + 47_000),
        planState:        ctx.planStateKeys ? 'pending' : undefined,
      };
      break;
    case 'plan-failed':
      o = {
        ...base,
        planProbesPassed: '',
        appliedPlan:      previousPlan,
        appliedChecksum:  previousPlanHash,
        appliedOutput:    applyOutput(),
        failedChecksum:   currentPlanHash,
        failedOutput:     {
          install: [
            `+ export ${ runtime.toUpperCase() }_TOKEN=${ ctx.joinToken }`,
            `[INFO]  using ${ ctx.kubernetesVersion } as release`,
            `Job for ${ runtime }-${ server ? 'server' : 'agent' }.service failed because the control process exited with error code.`,
            `See "systemctl status ${ runtime }-${ server ? 'server' : 'agent' }.service" and "journalctl -xeu ${ runtime }-${ server ? 'server' : 'agent' }.service" for details.`,
          ].join('\n'),
        },
        successCount:     0,
        failureCount:     5,
        maxFailures:      5,
        failureThreshold: 3,
        lastApplyTime:    before('3m'),
        planState:        ctx.planStateKeys ? 'failed' : undefined,
      };
      break;
    case 'probes-failing': {
      const unhealthy = new Set(spec.unhealthyProbes ?? ['kubelet']);

      o = {
        ...base,
        planProbesPassed: appliedAt,
        appliedPlan:      currentPlan,
        appliedChecksum:  currentPlanHash,
        appliedOutput:    applyOutput(),
        successCount:     1,
        failureCount:     0,
        lastApplyTime:    appliedAt,
        probeStatuses:    Object.fromEntries(probeNames.map((p) => [p, unhealthy.has(p) ? {
          healthy: false, successCount: 0, failureCount: 57
        } : {
          healthy: true, successCount: 212, failureCount: 0
        }])),
        planState: ctx.planStateKeys ? 'succeeded' : undefined,
      };
      break;
    }
    default:
      o = {
        ...base,
        planProbesPassed: rfc3339(Math.min(parseTime(appliedAt) + 30_000, nowMs)),
        appliedPlan:      currentPlan,
        appliedChecksum:  currentPlanHash,
        appliedOutput:    applyOutput(),
        successCount:     1,
        failureCount:     0,
        lastApplyTime:    appliedAt,
        probeStatuses:    healthyProbes(stableInt(`probes:${ machineName }`, 40, 4000)),
        planState:        ctx.planStateKeys ? 'succeeded' : undefined,
      };
    }
    if (ctx.planStateKeys) o.planRevision = stableInt(`rev:${ machineName }:${ planAt }`, 2, 40);
    planSecret = machinePlanSecret(o);
  }

  // downstream Node
  let node: NodeObject | undefined;

  if (nodeState === 'ready' || nodeState === 'not-ready' || nodeState === 'unlinked') {
    const notReady = nodeState === 'not-ready' ? {
      status: spec.notReady?.status ?? 'False', reason: spec.notReady?.reason, message: spec.notReady?.message, since: before(spec.notReady?.since ?? '30m')
    } : undefined;

    node = downstreamNode({
      name:              nodeName,
      createdAt:         minutesAfterCreate(4),
      kubernetesVersion: ctx.kubernetesVersion,
      roles:             spec.roles,
      os,
      osImage:           spec.osImage,
      kernelVersion:     spec.kernelVersion,
      address:           spec.address,
      internalAddress,
      cpu:               spec.cpu,
      memoryKi:          spec.memoryKi,
      machineUid:        nodeState === 'unlinked' ? undefined : machineUid,
      capiMachine:       nodeState === 'unlinked' ? undefined : {
        name: machineName, clusterName: ctx.name, namespace: ns
      },
      providerID:        nodeState === 'unlinked' ? undefined : providerID,
      ready:             notReady ?? { status: 'True', since: minutesAfterCreate(5) },
      unschedulable:     Boolean(spec.deleting),
      heartbeat:         before(stableInt(`hb:${ nodeName }`, 5, 50)),
    });
  }

  // Machine conditions
  const at = (m: number) => minutesAfterCreate(m);
  const conditions: CapiCondition[] = [{
    type: 'BootstrapReady', status: 'True', lastTransitionTime: at(1)
  }];
  let failureReason: string | undefined;
  let failureMessage: string | undefined;
  const infraKind = ctx.kind === 'node-driver' ? 'VmwarevsphereMachine' : 'CustomMachine';
  const infraApiVersion = ctx.kind === 'node-driver' ? 'rke-machine.cattle.io/v1' : 'rke.cattle.io/v1';
  const vmMissingMessage = spec.infraMessage ?? `failed to get state of VM ${ machineName }: no VM found (vm '/Datacenter/vm/rancher/${ machineName }' not found)`;

  if (infraState === 'ready') {
    conditions.push({
      type: 'InfrastructureReady', status: 'True', lastTransitionTime: at(1)
    });
  } else if (infraState === 'vm-missing') {
    conditions.push({
      type: 'InfrastructureReady', status: 'False', severity: 'Error', reason: 'Error', message: vmMissingMessage, lastTransitionTime: before('3h')
    });
  } else {
    failureReason = 'InvalidConfiguration';
    failureMessage = spec.infraMessage ?? `Machine infrastructure resource ${ infraApiVersion }, Kind=${ infraKind } with name "${ machineName }" has been deleted after being ready`;
    conditions.push({
      type: 'InfrastructureReady', status: 'False', severity: 'Error', reason: 'IncorrectExternalRef', message: failureMessage, lastTransitionTime: before('1h')
    });
  }
  if (nodeState === 'ready') {
    conditions.push({
      type: 'NodeHealthy', status: 'True', lastTransitionTime: at(6)
    });
  } else if (nodeState === 'not-ready') {
    const cond = node?.status.conditions.find((c) => c.type === 'Ready');

    conditions.push({
      type:               'NodeHealthy',
      status:             'False',
      severity:           'Warning',
      reason:             'NodeConditionsFailed',
      message:            `Node condition Ready is ${ cond?.status ?? 'False' }. ${ cond?.message ?? '' }`.trim(),
      lastTransitionTime: cond?.lastTransitionTime ?? at(6),
    });
  } else if (nodeState === 'deleted') {
    conditions.push({
      type: 'NodeHealthy', status: 'False', severity: 'Error', reason: 'NodeNotFound', lastTransitionTime: before('5h')
    });
  } else {
    conditions.push({
      type: 'NodeHealthy', status: 'False', severity: 'Info', reason: 'WaitingForNodeRef', lastTransitionTime: at(1)
    });
  }
  if (plannerMessage) {
    conditions.push({
      type: 'Reconciled', status: 'Unknown', reason: 'Waiting', message: plannerMessage, lastTransitionTime: agent === 'never-checked-in' ? at(2) : planAt
    });
  } else {
    conditions.push({
      type: 'Reconciled', status: 'True', lastTransitionTime: at(8)
    });
  }
  if (agent === 'plan-failed') {
    conditions.push({
      type: 'PlanApplied', status: 'False', severity: 'Error', reason: 'Error', message: PLAN_APPLY_ERROR_MESSAGE, lastTransitionTime: before('25m')
    });
  } else if (agent !== 'never-checked-in' && spec.planSecret !== false) {
    conditions.push({
      type: 'PlanApplied', status: 'True', lastTransitionTime: at(3)
    });
  }
  if (spec.deleting && deletingAt) {
    const hadNode = linked;

    if (hadNode) {
      conditions.push({
        type: 'PreDrainDeleteHookSucceeded', status: 'True', lastTransitionTime: deletingAt
      });
      conditions.push(spec.deleting.blockedBy === 'drain' ? {
        type: 'DrainingSucceeded', status: 'False', severity: 'Info', reason: 'Draining', message: 'Draining the node before deletion', lastTransitionTime: deletingAt
      } : {
        type: 'DrainingSucceeded', status: 'True', lastTransitionTime: rfc3339(parseTime(deletingAt) + 9000)
      });
    }
    if (spec.deleting.blockedBy === 'etcd-hook') {
      conditions.push({
        type: 'PreTerminateDeleteHookSucceeded', status: 'False', severity: 'Info', reason: 'WaitingExternalHook', lastTransitionTime: rfc3339(parseTime(deletingAt) + 9000)
      });
    } else if (spec.deleting.blockedBy === 'finalizer') {
      conditions.push({
        type: 'PreTerminateDeleteHookSucceeded', status: 'True', lastTransitionTime: rfc3339(parseTime(deletingAt) + 9000)
      });
    }
  }

  let phase: MachinePhase;

  if (spec.deleting) phase = 'Deleting';
  else if (failureReason) phase = 'Failed';
  else if (!infraReady) phase = 'Provisioning';
  else if (!linked) phase = 'Provisioned';
  else phase = 'Running';

  const nodeInfo = node?.status.nodeInfo ?? (linked ? nodeSystemInfo({
    name: nodeName, kubernetesVersion: ctx.kubernetesVersion, os, osImage: spec.osImage, kernelVersion: spec.kernelVersion
  }) : undefined);
  const addresses: NodeAddress[] | undefined = infraReady ? [{ type: 'InternalIP', address: internalAddress }, ...(spec.address !== internalAddress ? [{ type: 'ExternalIP' as const, address: spec.address }] : []), { type: 'Hostname', address: spec.hostname }] : undefined;
  // the etcd hook is cleared once the machine has no node ref or etcd let it go
  const hook = Boolean(spec.roles.etcd) && !(spec.deleting && !linked);

  const machine = capiMachine({
    name:              machineName,
    namespace:         ns,
    clusterName:       ctx.name,
    createdAt,
    deletionTimestamp: deletingAt,
    roles:             spec.roles,
    os,
    machineId,
    nodeNameLabel:     spec.nodeNameLabel,
    machineDeployment: poolDeployment,
    bootstrapName:     machineName,
    infrastructure:    {
      apiVersion: infraApiVersion, kind: infraKind, name: machineName
    },
    kubernetesVersion: ctx.kubernetesVersion,
    providerID,
    nodeRef:           linked ? { name: nodeName, uid: nodeUid } : undefined,
    nodeInfo,
    addresses,
    phase,
    conditions,
    failureReason,
    failureMessage,
    preTerminateHook:  hook,
    lastUpdated:       deletingAt ?? (linked ? at(6) : at(1)),
  });

  const bootstrap = rkeBootstrap({
    name:            machineName,
    namespace:       ns,
    clusterName:     ctx.name,
    machineName,
    createdAt,
    roles:           spec.roles,
    etcdForceRemove: spec.etcdForceRemove,
  });

  let infraMachine: KubeObject | undefined;

  if (infraState !== 'deleted') {
    infraMachine = ctx.kind === 'node-driver' ? vsphereMachine({
      name:              machineName,
      namespace:         ns,
      clusterName:       ctx.name,
      machineDeployment: poolDeployment ?? `${ ctx.name }-pool1`,
      createdAt,
      os,
      providerID,
      addresses,
      ready:             infraReady,
      errorMessage:      infraState === 'vm-missing' ? vmMissingMessage : undefined,
      errorSince:        infraState === 'vm-missing' ? before('3h') : undefined,
      deletionTimestamp: undefined,
    }) : customMachine({
      name: machineName, namespace: ns, clusterName: ctx.name, createdAt, providerID
    });
  }

  let mgmtNode: KubeObject | undefined;

  if (node && !spec.noManagementNode) {
    mgmtNode = managementNode({
      mgmtId:            ctx.mgmtId,
      createdAt:         minutesAfterCreate(5),
      node,
      requestedHostname: node.metadata.name,
      roles:             spec.roles,
    });
  }

  const credentials = spec.agentCredentials ? agentCredentials({
    machineName, namespace: ns, createdAt, secretMarker: ctx.secretMarker
  }) : undefined;

  const local: KubeObject[] = [machine, bootstrap];

  if (infraMachine) local.push(infraMachine);
  if (planSecret) local.push(planSecret);
  if (credentials) local.push(...credentials);
  if (mgmtNode) local.push(mgmtNode);

  return {
    spec,
    machineName,
    nodeName,
    tier:           tierOf(spec, extras.initNode),
    plannerMessage,
    machine,
    planSecret,
    bootstrap,
    infraMachine,
    managementNode: mgmtNode,
    node,
    credentials,
    local,
    downstream:     node ? [node] : [],
  };
}

/** Mirrors rancher's atMostThree + detailMessage: sorted names, "and N more", detail only for one machine. */
export function plannerClusterMessage(nodes: Pick<BuiltNode, 'machineName' | 'tier' | 'plannerMessage'>[]): string {
  const tiers: BuiltNode['tier'][] = ['bootstrap', 'etcd', 'control plane', 'worker'];

  for (const tier of tiers) {
    const waiting = nodes.filter((n) => n.tier === tier && n.plannerMessage);

    if (!waiting.length) continue;
    const names = waiting.map((n) => n.machineName).sort();
    const list = names.length > 3 ? `${ names.slice(0, 3).join(',') } and ${ names.length - 3 } more` : names.join(',');
    const detail = waiting.length === 1 ? `: ${ waiting[0].plannerMessage }` : '';

    return `configuring ${ tier } node(s) ${ list }${ detail }`;
  }

  return '';
}

/** A Node in the downstream cluster with no Machine behind it. */
export interface LooseNodeSpec {
  name: string;
  roles: Roles;
  os?: OperatingSystem;
  osImage?: string;
  address: string;
  createdAgo: Duration;
  /** the Machine it was created for (now deleted): label and annotations point at it */
  formerMachine?: { name: string; uid?: string };
  notReady?: { status: 'False' | 'Unknown'; reason?: string; message?: string; since: Duration };
  memoryKi?: number;
  managementNode?: boolean;
  imported?: boolean;
  /** false: the Node itself is gone from the downstream cluster; only Rancher's management Node is left */
  downstream?: boolean;
}

export interface ClusterBuild {
  name: string;
  namespace?: string;
  mgmtId: string;
  kind: ClusterKind;
  kubernetesVersion: string;
  now: string;
  createdAgo: Duration;
  serverUrl?: string;
  secretMarker?: string;
  nodes: NodeSpec[];
  looseNodes?: LooseNodeSpec[];
  /** overrides the planner-derived Updated/Provisioned message */
  waitingMessage?: string;
  waitingSince?: Duration;
  rotateCertificates?: { generation: number; applied: number };
  planStateKeys?: boolean;
  machinePools?: { name: string; quantity: number; roles: Roles; os?: OperatingSystem }[];
  clusterAnnotations?: Labels;
}

export interface BuiltCluster {
  cluster: ScenarioCluster;
  context: ClusterContext;
  nodes: BuiltNode[];
  local: KubeObject[];
  downstream: KubeObject[];
  waitingMessage: string;
}

function buildLooseNode(ctx: ClusterContext, spec: LooseNodeSpec): { node: NodeObject; mgmt?: KubeObject } {
  const createdAt = ago(ctx.now, spec.createdAgo);
  const former = spec.formerMachine;
  const node = downstreamNode({
    name:              spec.name,
    createdAt,
    kubernetesVersion: ctx.kubernetesVersion,
    roles:             spec.roles,
    os:                spec.os,
    osImage:           spec.osImage,
    address:           spec.address,
    memoryKi:          spec.memoryKi,
    machineUid:        former ? (former.uid ?? uidFor('Machine', ctx.namespace, former.name)) : undefined,
    capiMachine:       former ? {
      name: former.name, clusterName: ctx.name, namespace: ctx.namespace
    } : undefined,
    providerID:        ctx.kind === 'imported' ? undefined : `${ runtimeOf(ctx.kubernetesVersion) }://${ spec.name }`,
    ready:             spec.notReady ? {
      status: spec.notReady.status, reason: spec.notReady.reason, message: spec.notReady.message, since: ago(ctx.now, spec.notReady.since)
    } : { status: 'True', since: rfc3339(parseTime(createdAt) + 60_000) },
    heartbeat: ago(ctx.now, stableInt(`hb:${ spec.name }`, 5, 50)),
  });
  const mgmt = spec.managementNode === false ? undefined : managementNode({
    mgmtId:            ctx.mgmtId,
    createdAt:         rfc3339(parseTime(createdAt) + 60_000),
    node,
    requestedHostname: spec.name,
    roles:             spec.roles,
    imported:          spec.imported ?? ctx.kind === 'imported',
  });

  return { node, mgmt };
}

/**
 * A whole cluster: provisioning and management Cluster, registration token, and every node's
 * objects, with the init node, join URLs and the planner's cluster message worked out.
 */
export function buildCluster(b: ClusterBuild): BuiltCluster {
  const namespace = b.namespace ?? DEFAULT_NAMESPACE;
  const secretMarker = b.secretMarker ?? DEFAULT_SECRET_MARKER;
  const ctx: ClusterContext = {
    name:              b.name,
    namespace,
    mgmtId:            b.mgmtId,
    kind:              b.kind,
    kubernetesVersion: b.kubernetesVersion,
    now:               b.now,
    serverUrl:         b.serverUrl ?? DEFAULT_SERVER_URL,
    secretMarker,
    joinToken:         joinToken(b.mgmtId, secretMarker),
    planStateKeys:     b.planStateKeys,
  };
  const createdAt = ago(b.now, b.createdAgo);

  const initIndex = b.nodes.findIndex((n) => n.roles.etcd);
  const initSpec = initIndex >= 0 ? b.nodes[initIndex] : undefined;
  const joinUrlByHost = new Map<string, string>();

  for (const n of b.nodes) {
    if (n.roles.etcd || n.roles.controlPlane) {
      joinUrlByHost.set(n.hostname, joinUrlFor(n.internalAddress ?? n.address, b.kubernetesVersion));
    }
  }
  const defaultJoin = initSpec ? joinUrlByHost.get(initSpec.hostname) : undefined;

  const nodes = b.nodes.map((spec, i) => buildNode(ctx, spec, {
    initNode:    i === initIndex,
    joinedToUrl: spec.joinedTo ? joinUrlByHost.get(spec.joinedTo) : defaultJoin,
  }));

  const derived = b.kind === 'imported' ? '' : plannerClusterMessage(nodes);
  const waitingMessage = b.waitingMessage ?? derived;
  const loose = (b.looseNodes ?? []).map((l) => buildLooseNode(ctx, l));
  const nodeCount = nodes.filter((n) => n.node).length + loose.length;

  const local: KubeObject[] = [
    provisioningCluster({
      name:                                b.name,
      namespace,
      mgmtId:                              b.mgmtId,
      kind:                                b.kind,
      createdAt,
      kubernetesVersion:                   b.kind === 'imported' ? undefined : b.kubernetesVersion,
      waitingMessage:                      waitingMessage || undefined,
      waitingSince:                        b.waitingSince !== undefined ? ago(b.now, b.waitingSince) : undefined,
      rotateCertificatesGeneration:        b.rotateCertificates?.generation,
      appliedRotateCertificatesGeneration: b.rotateCertificates?.applied,
      machinePools:                        b.machinePools,
      annotations:                         b.clusterAnnotations,
    }),
    managementCluster({
      mgmtId:                  b.mgmtId,
      displayName:             b.name,
      namespace,
      kind:                    b.kind,
      createdAt,
      kubernetesVersion:       b.kubernetesVersion,
      nodeCount,
      provisioningClusterName: b.name,
    }),
    clusterRegistrationToken({
      mgmtId:     b.mgmtId,
      createdAt:  rfc3339(parseTime(createdAt) + 5000),
      serverUrl:  ctx.serverUrl,
      secretMarker,
      caChecksum: sha256Hex(`rancher-ca:${ ctx.serverUrl }`),
    }),
  ];

  for (const n of nodes) local.push(...n.local);
  for (const l of loose) if (l.mgmt) local.push(l.mgmt);
  const downstream: KubeObject[] = [...nodes.flatMap((n) => n.downstream), ...loose.filter((l, i) => b.looseNodes?.[i].downstream !== false).map((l) => l.node)];

  return {
    cluster: {
      name: b.name, namespace, mgmtId: b.mgmtId, kind: b.kind, kubernetesVersion: b.kubernetesVersion
    },
    context: ctx,
    nodes,
    local,
    downstream,
    waitingMessage,
  };
}

/** Values that must never appear in any output: the marker and each raw sensitive value. */
export function canaryValues(objects: KubeObject[], secretMarker = DEFAULT_SECRET_MARKER): string[] {
  const values = new Set<string>([secretMarker]);

  for (const o of objects) {
    if (o.kind === 'Secret' && o.data && typeof o.data === 'object') {
      const data = o.data as Record<string, string>;
      const sensitiveKeys = o.type === MACHINE_PLAN_SECRET_TYPE ? SENSITIVE_PLAN_SECRET_KEYS : Object.keys(data).filter((k) => k !== 'namespace');

      for (const k of sensitiveKeys) {
        if (data[k]) values.add(data[k]);
      }
    }
    if (o.kind === 'ClusterRegistrationToken') {
      const token = (o.status as { token?: string } | undefined)?.token;

      if (token) values.add(token);
    }
  }

  return [...values];
}
