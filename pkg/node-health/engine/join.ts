/**
 * Joins Rancher's objects into one record per node, by the keys that are reliable (rancher-node-model):
 * Node label rke.cattle.io/machine = Machine uid, then Machine status.nodeRef, then the Node's
 * cluster.x-k8s.io/machine annotation; plan secrets by rke.cattle.io/machine-name; never by raw hostname.
 * Produces one record per Machine, and one per Node (or management Node, or plan secret) that has none.
 */
import type {
  ClusterInfo, InputAvailability, InputName, JoinedObjects, KubeObject, NodeRecord, ObjectKind
} from './types';
import {
  asArray, asObject, asString, annotation, label, metadata, nameOf, namespaceOf, specOf, statusOf
} from './fields';
import {
  bootstrapRef, classify, deletionTimestamp, downstreamClusterIdFromLinks, finalizers, infrastructureRef, machineClusterName, machinePhase, machineRoles, mgmtNodeOperatingSystem, mgmtNodeRoles, nodeRefName, nodeRoles, operatingSystem, planSecretMachineName
} from './objects';
import { ANNOTATIONS, LABELS } from './vocabulary';
import { readClusterInfo, resolveBlockingMachines, unknownCluster } from './cluster-info';
import { derivePlanStatus } from './plan-status';
import { expectedNamesOfUnlinkedMachines } from './expected-name';
import { NO_CAPI_OBJECTS, indexCapiObjects } from './capi-objects';
import type { CapiObjects } from './capi-objects';
import { NO_RELATIONS } from './hosts';

export interface JoinContext {
  availability: InputAvailability;
  /** Per cluster, whether any CAPI machine was seen (machine checks apply) */
  clustersWithMachines: Set<ClusterInfo>;
  /** Nodes of a cluster whose lower-cased name is this, to explain name mismatches */
  nodesNamedLike(cluster: ClusterInfo | null, lowerName: string): KubeObject[];
  /** Machines whose plan secret says they joined the cluster through this machine */
  machinesJoinedTo(namespace: string | null, machineName: string | null): string[];
  /** Whether a machine is known to exist, to tell orphans from records still being joined */
  hasMachine(namespace: string | null, machineName: string | null): boolean;
  /** The objects a cluster was read from: the provisioning cluster and, when it could be read, the management cluster */
  clusterObjectsOf(cluster: ClusterInfo): { cluster?: KubeObject; mgmtCluster?: KubeObject };
  /** Cluster API's objects of the cluster: its CAPI Cluster, pools and health checks */
  capiObjectsOf(cluster: ClusterInfo): CapiObjects;
  /** The machine a Node of this name was joined to, by a stronger key than another machine's nodeRef */
  machineOfNode(cluster: ClusterInfo | null, nodeName: string): string | null;
  /** Per cluster, the names (lower case) that machines without a Node expect */
  expectedNames: Map<ClusterInfo | null, Set<string>>;
}

export interface JoinResult {
  clusters: ClusterInfo[];
  records: NodeRecord[];
  skipped: { object: string; reason: string }[];
  context: JoinContext;
}

interface Buckets {
  cluster: KubeObject[];
  machine: KubeObject[];
  planSecret: KubeObject[];
  bootstrap: KubeObject[];
  infraMachine: KubeObject[];
  mgmtNode: KubeObject[];
  node: KubeObject[];
  registrationToken: KubeObject[];
  mgmtCluster: KubeObject[];
  capiCluster: KubeObject[];
  machineHealthCheck: KubeObject[];
  machineDeployment: KubeObject[];
  machineSet: KubeObject[];
}

const INPUT_OF_KIND: Partial<Record<ObjectKind, InputName>> = {
  machine:            'machines',
  planSecret:         'planSecrets',
  bootstrap:          'bootstraps',
  infraMachine:       'infraMachines',
  mgmtNode:           'mgmtNodes',
  node:               'nodes',
  capiCluster:        'capiClusters',
  machineHealthCheck: 'machineHealthChecks',
  machineDeployment:  'machineDeployments',
  machineSet:         'machineSets',
};

export function bucketObjects(objects: unknown[]): { buckets: Buckets; skipped: JoinResult['skipped'] } {
  const buckets: Buckets = {
    cluster:            [],
    machine:            [],
    planSecret:         [],
    bootstrap:          [],
    infraMachine:       [],
    mgmtNode:           [],
    node:               [],
    registrationToken:  [],
    mgmtCluster:        [],
    capiCluster:        [],
    machineHealthCheck: [],
    machineDeployment:  [],
    machineSet:         [],
  };
  const skipped: JoinResult['skipped'] = [];

  for (let i = 0; i < objects.length; i++) {
    const obj = objects[i];
    const kind = classify(obj);

    if (!kind) {
      continue;
    }
    if (kind !== 'registrationToken' && !nameOf(obj as KubeObject)) {
      skipped.push({ object: `${ kind } (no name)`, reason: 'missing metadata.name' });
      continue;
    }
    buckets[kind].push(obj as KubeObject);
  }

  return { buckets, skipped };
}

/** The input an object belongs to (machines, planSecrets, ...), or null for objects that are none. */
export function inputOfObject(obj: unknown): InputName | null {
  const kind = classify(obj);

  return kind ? INPUT_OF_KIND[kind] ?? null : null;
}

/** Inputs that were not supplied at all count as absent, so rules that need them stay silent. */
export function effectiveAvailability(buckets: Buckets, given: InputAvailability = {}): InputAvailability {
  const out: InputAvailability = { ...given };

  for (const [kind, input] of Object.entries(INPUT_OF_KIND) as [ObjectKind, InputName][]) {
    if (!out[input]) {
      out[input] = (buckets as any)[kind].length > 0 ? 'ok' : 'absent';
    }
  }

  return out;
}

/** An input that was asked for and could not be read, as opposed to one that was read or never given. */
export function unreadableInput(availability: InputAvailability, input: InputName): boolean {
  const a = availability[input];

  return a === 'forbidden' || a === 'error';
}

/** Whether an object's absence from an input tells nothing: it could not be read, or only in part. */
export function absenceUnknown(availability: InputAvailability, input: InputName): boolean {
  return unreadableInput(availability, input) || availability[input] === 'partial';
}

/**
 * Availability per cluster. An input given explicitly (the tab, a bundle) holds for every cluster; one that was
 * not is read for a cluster only when some of its objects belong to that cluster: a directory with the Nodes of
 * one cluster says nothing about the Nodes of another.
 */
function availabilityByCluster(
  records: NodeRecord[], given: InputAvailability, unjoined: (lacking: (cluster: ClusterInfo | null, input: InputName) => boolean) => [ClusterInfo | null, InputName][]
): Map<ClusterInfo | null, InputAvailability> {
  const present = new Map<ClusterInfo | null, Set<InputName>>();

  for (let i = 0; i < records.length; i++) {
    const r = records[i];
    let inputs = present.get(r.cluster);

    if (!inputs) {
      inputs = new Set();
      present.set(r.cluster, inputs);
    }
    const o = r.objects;

    // Spelled out rather than a loop over the keys: this runs for every record of a large cluster.
    if (o.machine) {
      inputs.add('machines');
    }
    if (o.planSecret) {
      inputs.add('planSecrets');
    }
    if (o.bootstrap) {
      inputs.add('bootstraps');
    }
    if (o.infraMachine) {
      inputs.add('infraMachines');
    }
    if (o.mgmtNode) {
      inputs.add('mgmtNodes');
    }
    if (o.node) {
      inputs.add('nodes');
    }
  }
  // Only a cluster with records needs its availability; unjoined objects matter where its records show none.
  for (const [cluster, input] of unjoined((c, i) => present.get(c)?.has(i) === false)) {
    present.get(cluster)?.add(input);
  }
  const out = new Map<ClusterInfo | null, InputAvailability>();

  for (const [cluster, inputs] of present) {
    const availability: InputAvailability = { ...given };

    for (const input of Object.values(INPUT_OF_KIND) as InputName[]) {
      availability[input] ??= inputs.has(input) ? 'ok' : 'absent';
    }
    out.set(cluster, availability);
  }

  return out;
}

/** Availability as a diagnosis of these objects settles it, for callers that record it (bundles). */
export function settleAvailability(objects: unknown[], given: InputAvailability = {}): InputAvailability {
  return effectiveAvailability(bucketObjects(Array.isArray(objects) ? objects : []).buckets, given);
}

/**
 * Objects by scope (a namespace or a cluster) and name. Nested maps rather than "ns/name" keys: a large
 * cluster means hundreds of thousands of look-ups, and a concatenated key is a new string to hash each time.
 */
class ScopedIndex<T> {
  private readonly scopes = new Map<string, Map<string, T>>();

  set(scope: string | null, name: string | null, value: T): void {
    let names = this.scopes.get(scope ?? '');

    if (!names) {
      names = new Map();
      this.scopes.set(scope ?? '', names);
    }
    names.set(name ?? '', value);
  }

  get(scope: string | null, name: string | null | undefined): T | undefined {
    return this.scopes.get(scope ?? '')?.get(name ?? '');
  }
}

function nsName(ns: string | null, name: string | null): string {
  return `${ ns ?? '' }/${ name ?? '' }`;
}

function addressesOf(secret?: KubeObject, node?: KubeObject): NodeRecord['addresses'] {
  let external = secret ? annotation(secret, ANNOTATIONS.address) : null;
  let internal = secret ? annotation(secret, ANNOTATIONS.internalAddress) : null;

  if (node && (!external || !internal)) {
    for (const a of asArray(statusOf(node).addresses)) {
      const type = asString(asObject(a).type);
      const address = asString(asObject(a).address);

      if (type === 'ExternalIP' && !external) {
        external = address;
      } else if (type === 'InternalIP' && !internal) {
        internal = address;
      }
    }
  }

  return { external: external || null, internal: internal || null };
}

function emptyRecord(key: string, cluster: ClusterInfo | null, objects: JoinedObjects, inputs: InputAvailability): NodeRecord {
  return {
    key,
    cluster,
    machineName:      null,
    machineNamespace: null,
    nodeName:         null,
    roles:            [],
    os:               'unknown',
    addresses:        { external: null, internal: null },
    phase:            null,
    plan:             derivePlanStatus(objects.machine, objects.planSecret),
    machineManaged:   true,
    inputs,
    host:             {
      planSecretName: null, machineId: null, hostname: null
    },
    created:          null,
    deleting:         null,
    finalizers:       [],
    findings:         [],
    status:           'healthy',
    notes:            [],
    statusSince:      null,
    objects,
    hostReport:       null,
    related:          NO_RELATIONS,
  };
}

/** A machine and what the join has found for it so far. */
interface MachineEntry {
  obj: KubeObject;
  namespace: string | null;
  name: string;
  cluster: ClusterInfo | null;
  node: NodeEntry | null;
  /** How the node was matched: 3 machine uid label, 2 nodeRef, 1 annotation */
  nodeStrength: number;
  mgmtNode: KubeObject | undefined;
}

interface NodeEntry {
  obj: KubeObject;
  name: string;
  cluster: ClusterInfo | null;
  mgmtNode: KubeObject | undefined;
  /** the machine it was joined to */
  takenBy: string | null;
}

interface SecretEntry {
  obj: KubeObject;
  machineName: string | null;
  used: boolean;
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);

  if (list) {
    list.push(value);
  } else {
    map.set(key, [value]);
  }
}

/** Clusters, addressable by namespace/name and by management id; a machine or Node naming an unknown one adds it. */
interface ClusterIndex {
  clusters: ClusterInfo[];
  byNsName: ScopedIndex<ClusterInfo>;
  byMgmtId: Map<string, ClusterInfo>;
  objects: Map<ClusterInfo, KubeObject>;
  forMachine(ns: string | null, clusterName: string | null): ClusterInfo | null;
  forMgmtId(id: string | null): ClusterInfo | null;
  /** the cluster objects without one belong to: the one asked for, or the only one there is */
  fallback(): ClusterInfo | null;
}

function clusterKey(c: ClusterInfo | null): string {
  return c?.mgmtId ?? c?.name ?? '';
}

function indexClusters(clusterObjects: KubeObject[], defaultCluster: string | undefined): ClusterIndex {
  const clusters: ClusterInfo[] = [];
  const byNsName = new ScopedIndex<ClusterInfo>();
  const byMgmtId = new Map<string, ClusterInfo>();
  const objects = new Map<ClusterInfo, KubeObject>();

  const add = (info: ClusterInfo, obj?: KubeObject) => {
    clusters.push(info);
    if (info.namespace !== null) {
      byNsName.set(info.namespace, info.name, info);
    }
    if (info.mgmtId) {
      byMgmtId.set(info.mgmtId, info);
    }
    if (obj) {
      objects.set(info, obj);
    }

    return info;
  };

  for (const c of clusterObjects) {
    add(readClusterInfo(c), c);
  }

  const forMachine = (ns: string | null, clusterName: string | null): ClusterInfo | null => {
    if (!clusterName) {
      return null;
    }

    return byNsName.get(ns, clusterName) ?? add({
      ...unknownCluster(clusterName, null), namespace: ns, kind: 'provisioned'
    });
  };

  const forMgmtId = (id: string | null): ClusterInfo | null => {
    if (!id) {
      return null;
    }

    return byMgmtId.get(id) ?? add(unknownCluster(id, id));
  };

  const fallback = (): ClusterInfo | null => {
    if (defaultCluster) {
      return byMgmtId.get(defaultCluster) ?? clusters.find((c) => c.name === defaultCluster) ?? forMgmtId(defaultCluster);
    }

    return clusters.length === 1 ? clusters[0] : null;
  };

  return {
    clusters, byNsName, byMgmtId, objects, forMachine, forMgmtId, fallback
  };
}

/** Machines, each read once into an entry that the later passes fill in, and the keys Nodes find them by. */
interface MachineIndex {
  machines: MachineEntry[];
  byUid: Map<string, MachineEntry>;
  clustersWithMachines: Set<ClusterInfo>;
  byNsName: () => ScopedIndex<MachineEntry>;
  byClusterNodeName: () => ScopedIndex<MachineEntry>;
  /** A Node whose cluster nothing tells (kubectl output of several clusters) by the one machine of any cluster naming it. */
  byNodeRefAnywhere: () => Map<string, MachineEntry | null>;
}

function indexMachines(machineObjects: KubeObject[], clusters: ClusterIndex): MachineIndex {
  const machines: MachineEntry[] = [];
  const byUid = new Map<string, MachineEntry>();
  const clustersWithMachines = new Set<ClusterInfo>();

  for (let i = 0; i < machineObjects.length; i++) {
    const m = machineObjects[i];
    const ns = namespaceOf(m);
    const name = nameOf(m) as string;
    const uid = asString(metadata(m).uid);
    const cluster = clusters.forMachine(ns, machineClusterName(m)) ?? clusters.fallback();
    const entry: MachineEntry = {
      obj: m, namespace: ns, name, cluster, node: null, nodeStrength: 0, mgmtNode: undefined
    };

    machines.push(entry);
    if (cluster) {
      clustersWithMachines.add(cluster);
    }
    if (uid) {
      byUid.set(uid, entry);
    }
  }

  // Nodes nearly always carry their machine's uid; the weaker keys are indexed only when one does not.
  return {
    machines,
    byUid,
    clustersWithMachines,
    byNsName: lazily(() => {
      const index = new ScopedIndex<MachineEntry>();

      for (const entry of machines) {
        index.set(entry.namespace, entry.name, entry);
      }

      return index;
    }),
    byClusterNodeName: lazily(() => {
      const index = new ScopedIndex<MachineEntry>();

      for (const entry of machines) {
        const refName = nodeRefName(entry.obj);

        if (refName) {
          index.set(clusterKey(entry.cluster), refName, entry);
        }
      }

      return index;
    }),
    byNodeRefAnywhere: lazily(() => {
      const index = new Map<string, MachineEntry | null>();

      for (const entry of machines) {
        const refName = nodeRefName(entry.obj);

        if (refName) {
          index.set(refName, index.has(refName) ? null : entry);
        }
      }

      return index;
    }),
  };
}

/** Plan secrets, bootstraps and infrastructure machines, by namespace and the machine they belong to. */
interface MachinePartIndex {
  secrets: SecretEntry[];
  secretByMachine: ScopedIndex<SecretEntry>;
  bootstrapByNsName: ScopedIndex<KubeObject>;
  infraFor(ns: string | null, ref: ReturnType<typeof infrastructureRef>): KubeObject | undefined;
}

function indexPlanSecrets(buckets: Buckets): MachinePartIndex {
  const secrets: SecretEntry[] = [];
  const secretByMachine = new ScopedIndex<SecretEntry>();

  for (let i = 0; i < buckets.planSecret.length; i++) {
    const s = buckets.planSecret[i];
    const entry: SecretEntry = {
      obj: s, machineName: planSecretMachineName(s), used: false
    };

    secrets.push(entry);
    secretByMachine.set(namespaceOf(s), entry.machineName, entry);
  }
  const bootstrapByNsName = new ScopedIndex<KubeObject>();

  for (let i = 0; i < buckets.bootstrap.length; i++) {
    const b = buckets.bootstrap[i];

    bootstrapByNsName.set(namespaceOf(b), nameOf(b), b);
  }
  // Infrastructure machines of different kinds may share a name; the reference's kind picks one.
  const infraByNsName = new ScopedIndex<KubeObject[]>();

  for (let i = 0; i < buckets.infraMachine.length; i++) {
    const infra = buckets.infraMachine[i];
    const ns = namespaceOf(infra);
    const name = nameOf(infra);
    const same = infraByNsName.get(ns, name);

    if (same) {
      same.push(infra);
    } else {
      infraByNsName.set(ns, name, [infra]);
    }
  }
  const infraFor = (ns: string | null, ref: ReturnType<typeof infrastructureRef>): KubeObject | undefined => {
    const candidates = ref ? infraByNsName.get(ns, ref.name) : undefined;

    if (!candidates || candidates.length === 1) {
      return candidates?.[0];
    }

    return candidates.find((i) => !ref?.kind || asString(i.kind) === ref.kind || !asString(i.kind)) ?? candidates[0];
  };

  return {
    secrets, secretByMachine, bootstrapByNsName, infraFor
  };
}

/** Downstream Nodes and what they were joined to. */
interface NodeIndex {
  nodes: NodeEntry[];
  byClusterName: ScopedIndex<NodeEntry>;
}

/** Downstream Nodes: which cluster each belongs to, and which machine, by the strongest key. */
function attachNodes(nodeObjects: KubeObject[], clusters: ClusterIndex, machines: MachineIndex): NodeIndex {
  const nodes: NodeEntry[] = [];
  const byClusterName = new ScopedIndex<NodeEntry>();

  for (let i = 0; i < nodeObjects.length; i++) {
    const n = nodeObjects[i];
    const annotatedCluster = annotation(n, ANNOTATIONS.capiClusterName);
    const cluster = clusters.forMgmtId(downstreamClusterIdFromLinks(n)) ??
      (annotatedCluster ? clusters.byNsName.get(annotation(n, ANNOTATIONS.capiClusterNamespace), annotatedCluster) ?? null : null) ??
      clusters.fallback();
    const name = nameOf(n) as string;
    const entry: NodeEntry = {
      obj: n, name, cluster, mgmtNode: undefined, takenBy: null
    };

    nodes.push(entry);
    byClusterName.set(clusterKey(cluster), name, entry);

    const uid = label(n, LABELS.machineUid);
    let machine = uid ? machines.byUid.get(uid) : undefined;
    let strength = 3;

    if (!machine) {
      machine = machines.byClusterNodeName().get(clusterKey(cluster), name) ?? (cluster ? undefined : machines.byNodeRefAnywhere().get(name) ?? undefined);
      strength = 2;
    }
    if (!machine) {
      const annotated = annotation(n, ANNOTATIONS.capiMachine);

      machine = annotated ? machines.byNsName().get(annotation(n, ANNOTATIONS.capiClusterNamespace) ?? cluster?.namespace ?? null, annotated) : undefined;
      strength = 1;
    }
    if (machine && machine.nodeStrength < strength) {
      machine.node = entry;
      machine.nodeStrength = strength;
    }
  }
  for (let i = 0; i < machines.machines.length; i++) {
    const node = machines.machines[i].node;

    if (node) {
      node.takenBy = machines.machines[i].name;
      // kubectl output of several clusters does not say whose a Node is; the machine it belongs to does.
      if (!node.cluster && machines.machines[i].cluster) {
        node.cluster = machines.machines[i].cluster;
        byClusterName.set(clusterKey(node.cluster), node.name, node);
      }
    }
  }

  return { nodes, byClusterName };
}

/** Management nodes: to their downstream Node by name, else to a machine by the mirrored annotation; the rest are alone. */
function attachMgmtNodes(mgmtNodeObjects: KubeObject[], clusters: ClusterIndex, machines: MachineIndex, nodes: NodeIndex): KubeObject[] {
  // Nodes whose cluster nothing has told yet, by name: a management Node of one cluster naming one of them tells.
  const unattributed = lazily(() => {
    const byName = new Map<string, NodeEntry | null>();

    for (const entry of nodes.nodes) {
      if (!entry.cluster) {
        byName.set(entry.name, byName.has(entry.name) ? null : entry);
      }
    }

    return byName;
  });
  const lonely: KubeObject[] = [];

  for (let i = 0; i < mgmtNodeObjects.length; i++) {
    const mn = mgmtNodeObjects[i];
    const cluster = clusters.forMgmtId(namespaceOf(mn));
    const nodeName = asString(statusOf(mn).nodeName) ?? label(mn, LABELS.mgmtNodeName);
    let node = nodeName ? nodes.byClusterName.get(clusterKey(cluster), nodeName) : undefined;

    if (!node && nodeName && cluster && clusters.clusters.length > 1) {
      const named = unattributed().get(nodeName);

      if (named && !named.cluster && !named.mgmtNode) {
        named.cluster = cluster;
        nodes.byClusterName.set(clusterKey(cluster), named.name, named);
        node = named;
      }
    }
    if (node) {
      node.mgmtNode = mn;
      continue;
    }
    const machineName = asString(asObject(statusOf(mn).nodeAnnotations)[ANNOTATIONS.capiMachine]);
    const machine = machineName ? machines.byNsName().get(cluster?.namespace ?? null, machineName) : undefined;

    if (machine && !machine.mgmtNode) {
      machine.mgmtNode = mn;
    } else {
      lonely.push(mn);
    }
  }

  return lonely;
}

/** One record per machine, then per Node, management Node and plan secret that no machine took. */
function buildRecords(
  clusters: ClusterIndex, machines: MachineIndex, parts: MachinePartIndex, nodes: NodeIndex, lonelyMgmtNodes: KubeObject[],
  availability: InputAvailability
): NodeRecord[] {
  const records: NodeRecord[] = [];

  addMachineRecords(records, clusters, machines, parts, availability);
  addNodeRecords(records, clusters, machines, nodes, availability);
  addMgmtNodeRecords(records, clusters, machines, lonelyMgmtNodes, availability);
  addPlanSecretRecords(records, clusters, parts, availability);

  return records;
}

function addMachineRecords(
  records: NodeRecord[], clusters: ClusterIndex, machines: MachineIndex, parts: MachinePartIndex, availability: InputAvailability
): void {
  const { secretByMachine, bootstrapByNsName, infraFor } = parts;

  for (let i = 0; i < machines.machines.length; i++) {
    const {
      obj: m, namespace: ns, name, cluster
    } = machines.machines[i];
    const nodeEntry = machines.machines[i].node;
    const node = nodeEntry?.obj;
    const secret = secretByMachine.get(ns, name);
    const planSecret = secret?.obj;
    const bRef = bootstrapRef(m);
    const objects: JoinedObjects = {
      cluster:      cluster ? clusters.objects.get(cluster) : undefined,
      machine:      m,
      planSecret,
      bootstrap:    bootstrapByNsName.get(ns, bRef?.name ?? name),
      infraMachine: infraFor(ns, infrastructureRef(m)),
      mgmtNode:     nodeEntry?.mgmtNode ?? machines.machines[i].mgmtNode,
      node,
    };

    if (secret) {
      secret.used = true;
    }
    const r = emptyRecord(`machine:${ nsName(ns, name) }`, cluster, objects, availability);

    r.machineName = name;
    r.machineNamespace = ns;
    r.nodeName = (nodeEntry ? nodeEntry.name : null) ?? nodeRefName(m) ?? (objects.mgmtNode ? asString(statusOf(objects.mgmtNode).nodeName) : null);
    r.roles = machineRoles(m);
    if (r.roles.length === 0 && planSecret) {
      r.roles = machineRoles(planSecret);
    }
    if (r.roles.length === 0 && node) {
      r.roles = nodeRoles(node);
    }
    r.os = operatingSystem(m, planSecret, node);
    r.addresses = addressesOf(planSecret, node);
    r.phase = machinePhase(m);
    r.host.planSecretName = planSecret ? nameOf(planSecret) : `${ name }-machine-plan`;
    r.host.machineId = label(m, LABELS.machineId);
    r.host.hostname = label(m, LABELS.nodeName) ?? (objects.mgmtNode ? asString(specOf(objects.mgmtNode).requestedHostname) : null) ?? (node ? label(node, 'kubernetes.io/hostname') : null);
    r.created = asString(metadata(m).creationTimestamp);
    r.deleting = deletionTimestamp(m);
    r.finalizers = finalizers(m);
    records.push(r);
  }
}

/** Nodes no machine took: registered by other means, or left behind by a deleted machine. */
function addNodeRecords(records: NodeRecord[], clusters: ClusterIndex, machines: MachineIndex, nodes: NodeIndex, availability: InputAvailability): void {
  for (let i = 0; i < nodes.nodes.length; i++) {
    const {
      obj: n, name, cluster, takenBy
    } = nodes.nodes[i];

    if (takenBy) {
      continue;
    }
    const objects: JoinedObjects = {
      cluster:  cluster ? clusters.objects.get(cluster) : undefined,
      node:     n,
      mgmtNode: nodes.nodes[i].mgmtNode,
    };
    const r = emptyRecord(`node:${ clusterKey(cluster) }/${ name }`, cluster, objects, availability);

    r.nodeName = name;
    r.roles = nodeRoles(n);
    r.os = operatingSystem(n);
    r.addresses = addressesOf(undefined, n);
    r.host.hostname = label(n, 'kubernetes.io/hostname');
    r.created = asString(metadata(n).creationTimestamp);
    r.deleting = deletionTimestamp(n);
    r.finalizers = finalizers(n);
    r.machineName = annotation(n, ANNOTATIONS.capiMachine);
    r.machineNamespace = r.machineName ? (annotation(n, ANNOTATIONS.capiClusterNamespace) ?? cluster?.namespace ?? null) : null;
    r.machineManaged = !!cluster && machines.clustersWithMachines.has(cluster);
    records.push(r);
  }
}

function addMgmtNodeRecords(
  records: NodeRecord[], clusters: ClusterIndex, machines: MachineIndex, lonelyMgmtNodes: KubeObject[], availability: InputAvailability
): void {
  for (const mn of lonelyMgmtNodes) {
    const cluster = clusters.forMgmtId(namespaceOf(mn));
    const objects: JoinedObjects = { cluster: cluster ? clusters.objects.get(cluster) : undefined, mgmtNode: mn };
    const r = emptyRecord(`mgmt:${ nsName(namespaceOf(mn), nameOf(mn)) }`, cluster, objects, availability);

    r.nodeName = asString(statusOf(mn).nodeName) ?? label(mn, LABELS.mgmtNodeName) ?? asString(specOf(mn).requestedHostname);
    r.roles = mgmtNodeRoles(mn);
    r.os = mgmtNodeOperatingSystem(mn);
    r.host.hostname = asString(specOf(mn).requestedHostname);
    r.created = asString(metadata(mn).creationTimestamp);
    r.machineName = asString(asObject(statusOf(mn).nodeAnnotations)[ANNOTATIONS.capiMachine]);
    r.machineNamespace = r.machineName ? cluster?.namespace ?? null : null;
    r.machineManaged = !!cluster && machines.clustersWithMachines.has(cluster);
    records.push(r);
  }
}

/** Plan secrets no machine took: their machine is gone, or was never read. */
function addPlanSecretRecords(records: NodeRecord[], clusters: ClusterIndex, parts: MachinePartIndex, availability: InputAvailability): void {
  for (let i = 0; i < parts.secrets.length; i++) {
    const { obj: s, machineName, used } = parts.secrets[i];

    if (used) {
      continue;
    }
    const ns = namespaceOf(s);
    const cluster = clusters.forMachine(ns, label(s, LABELS.rkeClusterName) ?? label(s, LABELS.capiClusterName)) ?? clusters.fallback();
    const objects: JoinedObjects = {
      cluster:    cluster ? clusters.objects.get(cluster) : undefined,
      planSecret: s,
      bootstrap:  parts.bootstrapByNsName.get(ns, machineName),
    };
    const r = emptyRecord(`secret:${ nsName(ns, nameOf(s)) }`, cluster, objects, availability);

    r.machineName = machineName;
    r.machineNamespace = ns;
    r.roles = machineRoles(s);
    r.os = operatingSystem(s);
    r.addresses = addressesOf(s);
    r.host.planSecretName = nameOf(s);
    r.created = asString(metadata(s).creationTimestamp);
    records.push(r);
  }
}

/** Each record's inputs as its cluster's: bootstraps and infrastructure machines no machine refers to still show their cluster's list was read. */
function settleRecordInputs(records: NodeRecord[], buckets: Buckets, availabilityIn: InputAvailability, clusters: ClusterIndex): void {
  const byCluster = availabilityByCluster(records, availabilityIn, (lacking) => {
    const found: [ClusterInfo | null, InputName][] = [];
    const clusterOf = (obj: KubeObject) => {
      const name = label(obj, LABELS.capiClusterName);

      return (name ? clusters.byNsName.get(namespaceOf(obj), name) : undefined) ?? clusters.fallback();
    };

    for (const [input, list] of [['bootstraps', buckets.bootstrap], ['infraMachines', buckets.infraMachine]] as [InputName, KubeObject[]][]) {
      if (list.length && [...clusters.clusters, null].some((c) => lacking(c, input))) {
        for (let i = 0; i < list.length; i++) {
          found.push([clusterOf(list[i]), input]);
        }
      }
    }

    return found;
  });

  for (let i = 0; i < records.length; i++) {
    records[i].inputs = byCluster.get(records[i].cluster) ?? records[i].inputs;
  }
}

export function join(objects: unknown[], availabilityIn: InputAvailability = {}, defaultCluster?: string): JoinResult {
  const { buckets, skipped } = bucketObjects(Array.isArray(objects) ? objects : []);
  const availability = effectiveAvailability(buckets, availabilityIn);
  const clusters = indexClusters(buckets.cluster, defaultCluster);
  const machines = indexMachines(buckets.machine, clusters);
  const parts = indexPlanSecrets(buckets);
  const nodes = attachNodes(buckets.node, clusters, machines);
  const lonelyMgmtNodes = attachMgmtNodes(buckets.mgmtNode, clusters, machines, nodes);
  const records = buildRecords(clusters, machines, parts, nodes, lonelyMgmtNodes, availability);

  // A management cluster only adds to a cluster already known: a dump of every management cluster makes no records.
  const mgmtClusters = new Map<ClusterInfo, KubeObject>();

  for (const mc of buckets.mgmtCluster) {
    const info = clusters.byMgmtId.get(nameOf(mc) ?? '');

    if (info) {
      mgmtClusters.set(info, mc);
    }
  }
  settleRecordInputs(records, buckets, availabilityIn, clusters);
  const capiObjects = indexCapiObjects(buckets, (ns, name) => clusters.byNsName.get(ns, name));

  for (const info of clusters.clusters) {
    if (info.blockingMessage) {
      resolveBlockingMachines(info, machines.machines.filter((m) => m.cluster === info).map((m) => m.name));
    }
    if (machines.clustersWithMachines.has(info)) {
      info.kind = 'provisioned';
    }
  }

  return {
    clusters: clusters.clusters,
    records,
    skipped,
    context:  {
      availability,
      clustersWithMachines: machines.clustersWithMachines,
      nodesNamedLike:       lazyNodesByLowerName(nodes.nodes),
      machinesJoinedTo:     lazyJoinedTo(parts.secrets),
      hasMachine:           (namespace, machineName) => !!machines.byNsName().get(namespace, machineName),
      clusterObjectsOf:     (info) => ({ cluster: clusters.objects.get(info), mgmtCluster: mgmtClusters.get(info) }),
      capiObjectsOf:        (info) => capiObjects.get(info) ?? NO_CAPI_OBJECTS,
      machineOfNode:        (cluster, nodeName) => nodes.byClusterName.get(clusterKey(cluster), nodeName)?.takenBy ?? null,
      expectedNames:        expectedNamesOfUnlinkedMachines(records),
    },
  };
}

/** A value built on first use: indexes that only some inputs need. */
function lazily<T>(build: () => T): () => T {
  let value: { built: T } | null = null;

  return () => {
    value ??= { built: build() };

    return value.built;
  };
}

/** Only the name-mismatch rule asks, and only for machines without a Node. */
function lazyNodesByLowerName(nodes: NodeEntry[]): JoinContext['nodesNamedLike'] {
  const index = lazily(() => {
    const byCluster = new Map<ClusterInfo | null, Map<string, KubeObject[]>>();

    for (const { obj, name, cluster } of nodes) {
      let byName = byCluster.get(cluster);

      if (!byName) {
        byName = new Map();
        byCluster.set(cluster, byName);
      }
      pushTo(byName, name.toLowerCase(), obj);
    }

    return byCluster;
  });

  return (cluster, lowerName) => index().get(cluster)?.get(lowerName) ?? [];
}

/**
 * Which machines joined the cluster through which server: a deleting etcd machine waits for them.
 * rke.cattle.io/joined-to holds the server's join URL, which that server's own secret carries as join-url.
 * Only a deleting etcd machine asks.
 */
function lazyJoinedTo(secrets: SecretEntry[]): JoinContext['machinesJoinedTo'] {
  const index = lazily(() => {
    const joinedTo = new Map<string, string[]>();
    const machineByJoinUrl = new ScopedIndex<string>();

    for (const { obj, machineName } of secrets) {
      const url = annotation(obj, ANNOTATIONS.joinUrl);

      if (url && machineName) {
        machineByJoinUrl.set(namespaceOf(obj), url, machineName);
      }
    }
    for (const { obj, machineName: source } of secrets) {
      const joinedUrl = annotation(obj, ANNOTATIONS.joinedTo);
      const target = joinedUrl ? machineByJoinUrl.get(namespaceOf(obj), joinedUrl) ?? joinedUrl : null;

      if (target && source && target !== source) {
        pushTo(joinedTo, nsName(namespaceOf(obj), target), source);
      }
    }

    return joinedTo;
  });

  return (namespace, machineName) => index().get(nsName(namespace, machineName)) ?? [];
}
