/**
 * The one registry of what the engine reads, per kind of object. Three consumers use it: the tab asks Steve
 * for these fields only (`include`), the tab's copies of store lists keep only them, and every export keeps
 * only them (plus identity metadata) and leaves everything else out, whatever it is. So a rule or a kind that
 * reads a new field adds its path here, in one place; the registry test diagnoses the copies of every
 * scenario made from this list and fails when a field a rule reads is missing.
 *
 * A path is dot-separated; `[key]` is one key of a map (label and annotation keys hold dots and slashes)
 * and `[]` every element of a list: `metadata.labels[rke.cattle.io/machine]`, `status.conditions[].message`.
 */
import type { KubeObject, ObjectKind } from './types';
import { DRAIN_ANNOTATIONS } from './objects';
import { ANNOTATIONS, JOB_LOG_FIELD, LABELS } from './vocabulary';
import { isPlainObject } from './fields';
import { PLAN_SECRET_STATUS_KEYS } from './plan-status';
import { MACHINE_ANNOTATION_SIGNALS } from './signals/machine';

/** Where an object is and which object it is: every kind keeps these. */
export const IDENTITY_FIELDS: readonly string[] = [
  'apiVersion', 'kind', 'id', 'type', '_type', 'links.self',
  // Whether the user may change it (Steve leaves it out where not): an action's preflight reads it.
  'links.update', 'links.remove',
  'metadata.name', 'metadata.namespace', 'metadata.uid', 'metadata.resourceVersion', 'metadata.creationTimestamp',
  'metadata.deletionTimestamp', 'metadata.finalizers',
];

const label = (key: string) => `metadata.labels[${ key }]`;
const annotation = (key: string) => `metadata.annotations[${ key }]`;

/** Cluster API keeps conditions in up to three lists (v1beta1, v1beta2, and each one's copy of the other). */
const CONDITIONS = ['status.conditions', 'status.deprecated.v1beta1.conditions', 'status.v1beta2.conditions']
  .flatMap((list) => ['type', 'status', 'reason', 'message', 'lastTransitionTime', 'lastUpdateTime'].map((f) => `${ list }[].${ f }`));

const OPERATING_SYSTEM = [label(LABELS.os), label(LABELS.kubernetesOs), 'status.nodeInfo.operatingSystem'];
const MACHINE_ROLES = [label(LABELS.etcdRole), label(LABELS.controlPlaneRole), label(LABELS.workerRole)];
const REF_FIELDS = ['kind', 'name', 'apiGroup', 'apiVersion'];
const FAILURE = ['status.failureReason', 'status.failureMessage', 'status.deprecated.v1beta1.failureReason', 'status.deprecated.v1beta1.failureMessage', 'metadata.state.message'];
const ADDRESSES = ['status.addresses[].type', 'status.addresses[].address'];
const DRAINING = DRAIN_ANNOTATIONS.map(annotation);
const KUBELET_VERSION = 'status.nodeInfo.kubeletVersion';
const PAUSED = annotation(ANNOTATIONS.capiPaused);
/** v1beta1's counts, and v1beta2's (where readyReplicas moved under deprecated and availableReplicas means Available) */
const REPLICAS = ['replicas', 'readyReplicas', 'availableReplicas', 'updatedReplicas', 'upToDateReplicas', 'unavailableReplicas']
  .flatMap((f) => [`status.${ f }`, `status.deprecated.v1beta1.${ f }`]);
/** What identifies a host across records (engine/hosts.ts): kubelet's nodeInfo, which Cluster API copies to the Machine. */
const HOST_IDS = ['status.nodeInfo.systemUUID', 'status.nodeInfo.machineID'];

/** What an Event says, in core/v1's fields and events.k8s.io/v1's (timeline.ts reads both). */
const EVENT_SUBJECT = ['apiVersion', 'kind', 'name', 'namespace', 'uid'];

export const READ_FIELDS: Readonly<Record<ObjectKind, readonly string[]>> = {
  job: [
    label(LABELS.infraMachineName), label(LABELS.infraRemove), 'status.startTime', 'status.completionTime',
    ...['type', 'status', 'reason', 'message', 'lastTransitionTime'].map((f) => `status.conditions[].${ f }`), JOB_LOG_FIELD,
  ],
  event: [
    ...EVENT_SUBJECT.map((f) => `involvedObject.${ f }`), ...EVENT_SUBJECT.map((f) => `regarding.${ f }`),
    'reason', 'message', 'note', 'type', 'count', 'firstTimestamp', 'lastTimestamp', 'eventTime', 'series.count', 'series.lastObservedTime',
    'deprecatedCount', 'deprecatedFirstTimestamp', 'deprecatedLastTimestamp', 'source.component', 'reportingController',
  ],
  cluster: [
    'spec.kubernetesVersion', 'spec.rkeConfig.rotateCertificates.generation', 'status.clusterName', 'status.certificateRotationGeneration', ...CONDITIONS,
  ],
  machine: [
    label(LABELS.capiClusterName), label(LABELS.deploymentName), label(LABELS.machineSetName), label(LABELS.machinePoolName), label(LABELS.nodeName), label(LABELS.machineId), label(LABELS.initNode), ...MACHINE_ROLES,
    ...OPERATING_SYSTEM, annotation(ANNOTATIONS.etcdHook), ...DRAINING, KUBELET_VERSION,
    ...MACHINE_ANNOTATION_SIGNALS.map((s) => annotation(s.annotation)),
    'spec.clusterName', 'spec.providerID', ...HOST_IDS,
    ...REF_FIELDS.map((f) => `spec.infrastructureRef.${ f }`), ...REF_FIELDS.map((f) => `spec.bootstrap.configRef.${ f }`),
    'status.nodeRef.name', 'status.phase', ...FAILURE, ...ADDRESSES, ...CONDITIONS,
  ],
  planSecret: [
    label(LABELS.machineName), label(LABELS.rkeClusterName), label(LABELS.capiClusterName), label(LABELS.initNode), ...MACHINE_ROLES,
    ...OPERATING_SYSTEM,
    ...[ANNOTATIONS.planLastUpdated, ANNOTATIONS.address, ANNOTATIONS.internalAddress, ANNOTATIONS.joinedTo, ANNOTATIONS.joinUrl].map(annotation),
    ...DRAINING,
    // Their values must also have the shape of a status value (splitPlanSecretData).
    ...PLAN_SECRET_STATUS_KEYS.map((k) => `data.${ k }`),
  ],
  // The tab checks every answer against the cluster's label selector (Steve's SQL cache ignores selectors).
  // Conditions of the bootstrap and Rancher's node: their transitions are part of a record's story (timeline.ts).
  // A paused RKEBootstrap gets no plan secret from Rancher.
  // Its owners: Rancher writes a plan secret only for an RKEBootstrap a Machine owns (rules/nodes.ts planSecretHeldBack).
  bootstrap:    [label(LABELS.capiClusterName), annotation(ANNOTATIONS.etcdForceRemove), PAUSED, ...['kind', 'apiVersion', 'name'].map((f) => `metadata.ownerReferences[].${ f }`), ...CONDITIONS],
  infraMachine: [
    label(LABELS.capiClusterName), annotation('provisioning.cattle.io/force-machine-remove'), 'status.ready', 'status.jobName', ...FAILURE, ...ADDRESSES, ...CONDITIONS,
    // Where the providerID stops on its way from the Node to the Machine (node-not-linked).
    'spec.providerID', 'status.initialization.provisioned',
    // The pool's cloud credential, by name, for the step to renew it when the provider refuses it.
    'status.cloudCredentialSecretName',
  ],
  mgmtNode:     [
    label(LABELS.mgmtNodeName), ...OPERATING_SYSTEM, 'spec.requestedHostname', 'status.nodeName', ...CONDITIONS,
    `status.nodeAnnotations[${ ANNOTATIONS.capiMachine }]`,
    // A management Node whose Node is gone still tells the host's roles and operating system.
    'spec.etcd', 'spec.controlPlane', 'spec.worker', 'status.internalNodeStatus.nodeInfo.operatingSystem', `status.nodeLabels[${ LABELS.kubernetesOs }]`,
  ],
  node: [
    label(LABELS.machineUid), label('kubernetes.io/hostname'), ...OPERATING_SYSTEM,
    ...['etcd', 'control-plane', 'master', 'worker'].map((role) => label(`node-role.kubernetes.io/${ role }`)),
    ...[ANNOTATIONS.capiMachine, ANNOTATIONS.capiClusterName, ANNOTATIONS.capiClusterNamespace].map(annotation),
    'spec.providerID', 'spec.unschedulable', ...['key', 'value', 'effect', 'timeAdded'].map((f) => `spec.taints[].${ f }`),
    'status.nodeInfo.osImage', KUBELET_VERSION, ...HOST_IDS, 'status.capacity.memory', ...ADDRESSES, ...CONDITIONS,
    // Whether the kubelet still reports: a live host is not a ghost (preflight.ts)
    'status.conditions[].lastHeartbeatTime',
  ],
  // The kubelet's Lease: who holds it, when it was last renewed and for how long a renewal holds.
  lease:              ['spec.holderIdentity', 'spec.renewTime', 'spec.leaseDurationSeconds'],
  // Whether the cluster agent is connected: its Connected and Ready conditions.
  mgmtCluster:        ['status.connected', ...CONDITIONS],
  // The registration command is read from Norman by the tab, never from an export.
  registrationToken:  [],
  // Cluster API's own objects of the cluster: whether it, a pool or a health check is paused; what a health
  // check may remediate, v1beta1 (maxUnhealthy, unhealthyRange) and v1beta2 (remediation.triggerIf) alike.
  capiCluster:        [PAUSED, 'spec.paused', 'status.phase', 'status.infrastructureReady', 'status.initialization.infrastructureProvisioned', ...FAILURE, ...CONDITIONS],
  machineHealthCheck: [
    label(LABELS.capiClusterName), PAUSED, 'spec.clusterName', `spec.selector.matchLabels[${ LABELS.deploymentName }]`,
    'spec.maxUnhealthy', 'spec.unhealthyRange', 'spec.nodeStartupTimeout',
    ...['type', 'status', 'timeout'].map((f) => `spec.unhealthyConditions[].${ f }`),
    'spec.remediation.triggerIf.unhealthyLessThanOrEqualTo', 'spec.remediation.triggerIf.unhealthyInRange', 'spec.checks.nodeStartupTimeoutSeconds',
    ...['type', 'status', 'timeoutSeconds'].map((f) => `spec.checks.unhealthyNodeConditions[].${ f }`),
    'status.expectedMachines', 'status.currentHealthy', 'status.remediationsAllowed', 'status.targets', ...CONDITIONS,
  ],
  machineDeployment: [
    label(LABELS.capiClusterName), label(LABELS.machinePoolName), PAUSED, 'spec.clusterName', 'spec.replicas', 'spec.paused',
    ...REPLICAS, 'status.phase', ...CONDITIONS,
  ],
  machineSet: [
    label(LABELS.capiClusterName), label(LABELS.deploymentName), PAUSED, 'spec.clusterName', 'spec.replicas', ...REPLICAS, ...FAILURE, ...CONDITIONS,
  ],
};

/** Identity and what the engine reads, for one kind. */
export function fieldsOf(kind: ObjectKind): string[] {
  return [...IDENTITY_FIELDS, ...READ_FIELDS[kind]];
}

type Segment = { key: string } | { each: true };

function parsePath(path: string): Segment[] {
  const out: Segment[] = [];

  for (const m of path.matchAll(/([^.[\]]+)|\[([^\]]*)\]/g)) {
    if (m[1] !== undefined) {
      out.push({ key: m[1] });
    } else {
      out.push(m[2] === '' ? { each: true } : { key: m[2] });
    }
  }

  return out;
}

/**
 * Steve's `include` for one kind: dot paths up to the first map key or list (Steve splits its paths at dots
 * and does not look into lists), each once, none under another.
 */
export function steveIncludePaths(kind: ObjectKind): string[] {
  const coarse = fieldsOf(kind).map((path) => path.replace(/\[.*$/, ''));
  const unique = [...new Set(coarse)].sort();

  return unique.filter((p) => !unique.some((q) => q !== p && p.startsWith(`${ q }.`)));
}

interface FieldTree {
  leaf: boolean;
  keys: Map<string, FieldTree>;
  each: FieldTree | null;
}

function emptyTree(): FieldTree {
  return {
    leaf: false, keys: new Map(), each: null
  };
}

function buildTree(paths: string[]): FieldTree {
  const root = emptyTree();

  for (const path of paths) {
    let node = root;

    for (const segment of parsePath(path)) {
      if ('each' in segment) {
        node.each ??= emptyTree();
        node = node.each;
      } else {
        let next = node.keys.get(segment.key);

        if (!next) {
          next = emptyTree();
          node.keys.set(segment.key, next);
        }
        node = next;
      }
    }
    node.leaf = true;
  }

  return root;
}

const trees = new Map<ObjectKind, FieldTree>();

function treeOf(kind: ObjectKind): FieldTree {
  let tree = trees.get(kind);

  if (!tree) {
    tree = buildTree(fieldsOf(kind));
    trees.set(kind, tree);
  }

  return tree;
}

function isScalar(value: unknown): boolean {
  return value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/**
 * A field's value as it is kept: text, numbers, booleans and lists of them. An object or a list of objects
 * where the engine reads a value is read by it as nothing, and is left out as such.
 */
function keepLeaf(value: unknown): unknown {
  if (isScalar(value)) {
    return value;
  }
  if (Array.isArray(value)) {
    return value.map((v) => (isScalar(v) ? v : null));
  }

  return undefined;
}

function pick(value: unknown, tree: FieldTree): unknown {
  if (tree.leaf) {
    return keepLeaf(value);
  }
  if (Array.isArray(value)) {
    const each = tree.each;

    // Every element stays in its place, so that evidence paths with an index name the same element.
    return each ? value.map((v) => pick(v, each) ?? null) : undefined;
  }
  if (!isPlainObject(value)) {
    return undefined;
  }
  const out: Record<string, unknown> = {};

  for (const [key, child] of tree.keys) {
    if (Object.prototype.hasOwnProperty.call(value, key)) {
      const kept = pick(value[key], child);

      if (kept !== undefined) {
        out[key] = kept;
      }
    }
  }

  return out;
}

/**
 * A copy of an object with only its identity and the fields the engine reads for its kind. Nothing else
 * survives, whatever it is called; objects along a kept path stay objects (empty if nothing under them is
 * read), so that what the engine reads of the copy is what it reads of the original.
 */
export function keepReadFields(obj: KubeObject, kind: ObjectKind): KubeObject {
  return (pick(obj, treeOf(kind)) ?? {}) as KubeObject;
}
