/**
 * Cluster API Machines: v1beta1 as Rancher 2.12 and 2.13 serve them, and their v1beta2 form (Rancher 2.14).
 */

import { machineSetNameFor } from './capi';
import {
  CapiCondition, ContractReference, KubeObject, Labels, MachinePhase, MachineV1beta1, MachineV1beta2, MetaCondition,
  NodeAddress, NodeSystemInfo, ObjectMeta
} from '../types';
import {
  CAPI_V1BETA1, CAPI_V1BETA2, MACHINE_FINALIZER, meta, OperatingSystem, PRE_TERMINATE_HOOK_ANNOTATION, roleLabels, Roles, uidFor
} from './common';

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
        name:               machineSetNameFor(o.machineDeployment),
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
/** A v1beta1 Machine's own v1beta2 Paused condition (status.v1beta2.conditions), which v1beta2 keeps as it is. */
function pausedOf(machine: MachineV1beta1): MetaCondition | undefined {
  const list = ((machine.status as Record<string, any>).v1beta2?.conditions ?? []) as MetaCondition[];

  return list.find((c) => c.type === 'Paused' && c.status === 'True');
}

/**
 * A v1beta1 Machine's own v1beta2 NodeHealthy or NodeReady that says the connection to the workload cluster is down
 * (ConnectionDown): Cluster API writes it from its cluster cache, not from the v1beta1 condition, and keeps it.
 */
function connectionDownOf(machine: MachineV1beta1, type: string): MetaCondition | undefined {
  const list = ((machine.status as Record<string, any>).v1beta2?.conditions ?? []) as MetaCondition[];

  return list.find((c) => c.type === type && c.reason === 'ConnectionDown');
}

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
  } else if (!nodeName) {
    // Cluster API's words while no Node is linked yet (machine_controller_status.go setNodeHealthyAndReadyConditions).
    const msg = machine.spec.providerID ? `Waiting for a Node with spec.providerID ${ machine.spec.providerID } to exist` : `Waiting for ${ infraKind } to report spec.providerID`;

    nodeHealthy = cond('NodeHealthy', 'Unknown', 'InspectionFailed', msg, nodeOld?.lastTransitionTime);
    nodeReady = cond('NodeReady', 'Unknown', 'InspectionFailed', msg, nodeOld?.lastTransitionTime);
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
    connectionDownOf(machine, 'NodeHealthy') ?? nodeHealthy,
    connectionDownOf(machine, 'NodeReady') ?? nodeReady,
    deletingCond,
    pausedOf(machine) ?? cond('Paused', 'False', 'NotPaused', undefined),
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
