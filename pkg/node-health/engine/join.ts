/**
 * Joins Rancher's objects into one record per node, by the keys that are reliable (rancher-node-model):
 * Node label rke.cattle.io/machine = Machine uid, then Machine status.nodeRef, then the Node's
 * cluster.x-k8s.io/machine annotation; plan secrets by rke.cattle.io/machine-name; never by raw hostname.
 * Produces one record per Machine, and one per Node (or management Node, or plan secret) that has none.
 */
import type {
  ChainLink, ClusterInfo, InputAvailability, InputName, JoinedObjects, KubeObject, NodeRecord, ObjectKind
} from './types';
import {
  asArray, asObject, asString, annotation, label, metadata, nameOf, namespaceOf, specOf, statusOf
} from './fields';
import {
  ANNOTATIONS, INFRASTRUCTURE_GONE, LABELS, STEVE_TYPES, bootstrapRef, classify, deletionTimestamp, downstreamClusterIdFromLinks,
  failureMessage, finalizers, infrastructureRef, machineClusterName, machinePhase, machineRoles, nodeRefName,
  nodeRoles, operatingSystem, planSecretMachineName
} from './objects';
import { readClusterInfo, resolveBlockingMachines, unknownCluster } from './cluster-info';
import { derivePlanStatus } from './plan-status';
import { findUnhealthyCondition, getCondition } from './conditions';

export interface JoinContext {
  availability: InputAvailability;
  /** Per cluster, whether any CAPI machine was seen (machine checks apply) */
  clustersWithMachines: Set<ClusterInfo>;
  /** cluster → lower-cased node name → Nodes, to explain name mismatches */
  nodesByLowerName: Map<ClusterInfo | null, Map<string, KubeObject[]>>;
  /** namespace/machine → machines whose plan secret says they joined it */
  joinedTo: Map<string, string[]>;
  /** Machines (namespace/name) known to exist, to tell orphans from records still being joined */
  machineNames: Set<string>;
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
}

const INPUT_OF_KIND: Partial<Record<ObjectKind, InputName>> = {
  machine:      'machines',
  planSecret:   'planSecrets',
  bootstrap:    'bootstraps',
  infraMachine: 'infraMachines',
  mgmtNode:     'mgmtNodes',
  node:         'nodes',
};

export function bucketObjects(objects: unknown[]): { buckets: Buckets; skipped: JoinResult['skipped'] } {
  const buckets: Buckets = {
    cluster: [], machine: [], planSecret: [], bootstrap: [], infraMachine: [], mgmtNode: [], node: [], registrationToken: []
  };
  const skipped: JoinResult['skipped'] = [];

  for (const obj of objects) {
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

export function nodeReadyCondition(node: KubeObject) {
  return getCondition(node, 'Ready');
}

function link(kind: ChainLink['kind'], state: ChainLink['state'], obj: KubeObject | undefined, type: string | null, extra?: Partial<ChainLink>): ChainLink {
  const l: ChainLink = {
    kind,
    state,
    name:      obj ? nameOf(obj) : null,
    namespace: obj ? namespaceOf(obj) : null,
    type,
    clusterId: null,
    detail:    null,
  };

  if (extra) {
    Object.assign(l, extra);
  }

  return l;
}

function unreadable(availability: InputAvailability, input: InputName): boolean {
  const a = availability[input];

  return a === 'forbidden' || a === 'error';
}

function buildChain(r: NodeRecord, availability: InputAvailability, machineManaged: boolean): ChainLink[] {
  const o = r.objects;
  const chain: ChainLink[] = [];
  const missingOr = (input: InputName) => (unreadable(availability, input) ? 'unreadable' : (availability[input] === 'absent' ? 'not-loaded' : 'missing'));

  if (!machineManaged) {
    chain.push(link('machine', 'not-applicable', undefined, STEVE_TYPES.machine));
  } else if (o.machine) {
    const phase = r.phase;
    const state = phase === 'Failed' || failureMessage(o.machine) ? 'failed' : (phase === 'Running' && !r.deleting ? 'present' : 'waiting');

    chain.push(link('machine', state, o.machine, STEVE_TYPES.machine, { detail: r.deleting ? 'Deleting' : phase }));
  } else {
    chain.push(link('machine', 'missing', undefined, STEVE_TYPES.machine, { name: r.machineName, namespace: r.machineNamespace }));
  }

  if (!machineManaged) {
    chain.push(link('planSecret', 'not-applicable', undefined, STEVE_TYPES.planSecret));
  } else if (o.planSecret) {
    const state = r.plan.state === 'in-sync' ? 'present' : (r.plan.state === 'apply-failed' ? 'failed' : (r.plan.state === 'unknown' ? 'present' : 'waiting'));

    chain.push(link('planSecret', state, o.planSecret, STEVE_TYPES.planSecret, { detail: r.plan.message ?? r.plan.state }));
  } else {
    chain.push(link('planSecret', missingOr('planSecrets'), undefined, STEVE_TYPES.planSecret, { name: r.host.planSecretName, namespace: r.machineNamespace }));
  }

  if (machineManaged && o.machine) {
    const ref = bootstrapRef(o.machine);

    if (o.bootstrap) {
      chain.push(link('bootstrap', 'present', o.bootstrap, STEVE_TYPES.bootstrap));
    } else if (ref && ref.kind === 'RKEBootstrap') {
      chain.push(link('bootstrap', missingOr('bootstraps'), undefined, STEVE_TYPES.bootstrap, { name: ref.name, namespace: r.machineNamespace }));
    }
  }

  if (machineManaged && o.machine) {
    const ref = infrastructureRef(o.machine);
    const infraType = ref?.group && ref.kind ? `${ ref.group }.${ ref.kind.toLowerCase() }` : null;

    if (o.infraMachine) {
      const gone = findUnhealthyCondition(o.infraMachine, (c) => !!c.message && INFRASTRUCTURE_GONE.test(c.message));
      const error = failureMessage(o.infraMachine) ?? gone?.message ?? null;
      const ready = asObject(statusOf(o.infraMachine)).ready;

      chain.push(link('infraMachine', error ? 'failed' : (ready === false ? 'waiting' : 'present'), o.infraMachine, infraType, { detail: error }));
    } else if (ref) {
      chain.push(link('infraMachine', missingOr('infraMachines'), undefined, infraType, { name: ref.name, namespace: r.machineNamespace }));
    }
  }

  const clusterId = r.cluster?.mgmtId ?? null;

  if (o.mgmtNode) {
    chain.push(link('mgmtNode', 'present', o.mgmtNode, STEVE_TYPES.mgmtNode));
  } else {
    chain.push(link('mgmtNode', o.node || o.machine ? missingOr('mgmtNodes') : 'not-applicable', undefined, STEVE_TYPES.mgmtNode, { namespace: clusterId }));
  }

  if (o.node) {
    const ready = nodeReadyCondition(o.node);

    chain.push(link('node', ready && ready.status !== 'True' ? 'failed' : 'present', o.node, STEVE_TYPES.node, { clusterId, detail: ready ? `Ready=${ ready.status }` : null }));
  } else if (availability.nodes !== 'ok') {
    chain.push(link('node', missingOr('nodes'), undefined, STEVE_TYPES.node, { clusterId, name: r.nodeName }));
  } else {
    chain.push(link('node', o.machine && !nodeRefName(o.machine) ? 'waiting' : 'missing', undefined, STEVE_TYPES.node, { clusterId, name: r.nodeName }));
  }

  return chain;
}

function emptyRecord(key: string, cluster: ClusterInfo | null, objects: JoinedObjects): NodeRecord {
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
    chain:            [],
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
  };
}

export function join(objects: unknown[], availabilityIn: InputAvailability = {}, defaultCluster?: string): JoinResult {
  const { buckets, skipped } = bucketObjects(Array.isArray(objects) ? objects : []);
  const availability = effectiveAvailability(buckets, availabilityIn);

  // Clusters, addressable by namespace/name and by management id.
  const clustersByNsName = new ScopedIndex<ClusterInfo>();
  const clustersByMgmtId = new Map<string, ClusterInfo>();
  const clusterObjects = new Map<ClusterInfo, KubeObject>();
  const clusters: ClusterInfo[] = [];

  const addCluster = (info: ClusterInfo, obj?: KubeObject) => {
    clusters.push(info);
    if (info.namespace !== null) {
      clustersByNsName.set(info.namespace, info.name, info);
    }
    if (info.mgmtId) {
      clustersByMgmtId.set(info.mgmtId, info);
    }
    if (obj) {
      clusterObjects.set(info, obj);
    }

    return info;
  };

  for (const c of buckets.cluster) {
    addCluster(readClusterInfo(c), c);
  }

  const clusterForMachine = (ns: string | null, clusterName: string | null): ClusterInfo | null => {
    if (!clusterName) {
      return null;
    }

    return clustersByNsName.get(ns, clusterName) ?? addCluster({
      ...unknownCluster(clusterName, null), namespace: ns, kind: 'provisioned'
    });
  };

  const clusterForMgmtId = (id: string | null): ClusterInfo | null => {
    if (!id) {
      return null;
    }

    return clustersByMgmtId.get(id) ?? addCluster(unknownCluster(id, id));
  };

  const fallbackCluster = (): ClusterInfo | null => {
    if (defaultCluster) {
      return clustersByMgmtId.get(defaultCluster) ?? clusters.find((c) => c.name === defaultCluster) ?? clusterForMgmtId(defaultCluster);
    }

    return clusters.length === 1 ? clusters[0] : null;
  };

  const clusterKey = (c: ClusterInfo | null) => c?.mgmtId ?? c?.name ?? '';

  // Machines.
  const machineByUid = new Map<string, KubeObject>();
  const machineByNsName = new ScopedIndex<KubeObject>();
  const machineCluster = new Map<KubeObject, ClusterInfo | null>();
  const machineByClusterNodeName = new ScopedIndex<KubeObject>();
  const clustersWithMachines = new Set<ClusterInfo>();

  for (const m of buckets.machine) {
    const ns = namespaceOf(m);
    const uid = asString(metadata(m).uid);
    const cluster = clusterForMachine(ns, machineClusterName(m)) ?? fallbackCluster();

    machineCluster.set(m, cluster);
    if (cluster) {
      clustersWithMachines.add(cluster);
    }
    if (uid) {
      machineByUid.set(uid, m);
    }
    machineByNsName.set(ns, nameOf(m), m);
    const refName = nodeRefName(m);

    if (refName) {
      machineByClusterNodeName.set(clusterKey(cluster), refName, m);
    }
  }

  // Plan secrets, bootstraps and infrastructure machines, by namespace and machine name.
  const secretByMachine = new ScopedIndex<KubeObject>();

  for (const s of buckets.planSecret) {
    secretByMachine.set(namespaceOf(s), planSecretMachineName(s), s);
  }
  const bootstrapByNsName = new ScopedIndex<KubeObject>();

  for (const b of buckets.bootstrap) {
    bootstrapByNsName.set(namespaceOf(b), nameOf(b), b);
  }
  // Infrastructure machines of different kinds may share a name; the reference's kind picks one.
  const infraByNsName = new ScopedIndex<KubeObject[]>();

  for (const i of buckets.infraMachine) {
    const same = infraByNsName.get(namespaceOf(i), nameOf(i));

    if (same) {
      same.push(i);
    } else {
      infraByNsName.set(namespaceOf(i), nameOf(i), [i]);
    }
  }
  const infraFor = (ns: string | null, ref: ReturnType<typeof infrastructureRef>): KubeObject | undefined => {
    const candidates = ref ? infraByNsName.get(ns, ref.name) : undefined;

    return candidates?.find((i) => !ref?.kind || asString(i.kind) === ref.kind || !asString(i.kind)) ?? candidates?.[0];
  };

  // Downstream Nodes: which cluster each belongs to, and which machine, by the strongest key.
  const nodeCluster = new Map<KubeObject, ClusterInfo | null>();
  const nodeOfMachine = new Map<KubeObject, { node: KubeObject; strength: number }>();
  const nodesByLowerName: JoinContext['nodesByLowerName'] = new Map();
  const nodeByClusterName = new ScopedIndex<KubeObject>();

  for (const n of buckets.node) {
    const annotatedCluster = annotation(n, ANNOTATIONS.capiClusterName);
    const cluster = clusterForMgmtId(downstreamClusterIdFromLinks(n)) ??
      (annotatedCluster ? clustersByNsName.get(annotation(n, ANNOTATIONS.capiClusterNamespace), annotatedCluster) ?? null : null) ??
      fallbackCluster();

    nodeCluster.set(n, cluster);
    const name = nameOf(n) as string;

    nodeByClusterName.set(clusterKey(cluster), name, n);
    let byName = nodesByLowerName.get(cluster);

    if (!byName) {
      byName = new Map();
      nodesByLowerName.set(cluster, byName);
    }
    const lower = name.toLowerCase();

    const sameName = byName.get(lower);

    if (sameName) {
      sameName.push(n);
    } else {
      byName.set(lower, [n]);
    }

    const uid = label(n, LABELS.machineUid);
    let machine: KubeObject | undefined;
    let strength = 0;

    if (uid && machineByUid.has(uid)) {
      machine = machineByUid.get(uid);
      strength = 3;
    } else if (machineByClusterNodeName.get(clusterKey(cluster), name)) {
      machine = machineByClusterNodeName.get(clusterKey(cluster), name);
      strength = 2;
    } else {
      const annotated = annotation(n, ANNOTATIONS.capiMachine);
      const ns = annotation(n, ANNOTATIONS.capiClusterNamespace) ?? cluster?.namespace ?? null;

      if (annotated && machineByNsName.get(ns, annotated)) {
        machine = machineByNsName.get(ns, annotated);
        strength = 1;
      }
    }
    if (machine) {
      const current = nodeOfMachine.get(machine);

      if (!current || current.strength < strength) {
        nodeOfMachine.set(machine, { node: n, strength });
      }
    }
  }
  const nodeTaken = new Set<KubeObject>();

  for (const { node } of nodeOfMachine.values()) {
    nodeTaken.add(node);
  }

  // Management nodes: to their downstream Node by name, else to a machine by the mirrored annotation.
  const mgmtOfNode = new Map<KubeObject, KubeObject>();
  const mgmtOfMachine = new Map<KubeObject, KubeObject>();
  const lonelyMgmtNodes: KubeObject[] = [];

  for (const mn of buckets.mgmtNode) {
    const cluster = clusterForMgmtId(namespaceOf(mn));
    const nodeName = asString(statusOf(mn).nodeName) ?? label(mn, LABELS.mgmtNodeName);
    const node = nodeName ? nodeByClusterName.get(clusterKey(cluster), nodeName) : undefined;

    if (node) {
      mgmtOfNode.set(node, mn);
      continue;
    }
    const machineName = asString(asObject(statusOf(mn).nodeAnnotations)[ANNOTATIONS.capiMachine]);
    const machine = machineName ? machineByNsName.get(cluster?.namespace ?? null, machineName) : undefined;

    if (machine && !mgmtOfMachine.has(machine)) {
      mgmtOfMachine.set(machine, mn);
    } else {
      lonelyMgmtNodes.push(mn);
    }
  }

  // Which machines joined the cluster through which server: a deleting etcd machine waits for them.
  // rke.cattle.io/joined-to holds the server's join URL, which that server's own secret carries as join-url.
  const machineByJoinUrl = new ScopedIndex<string>();

  for (const s of buckets.planSecret) {
    const url = annotation(s, ANNOTATIONS.joinUrl);
    const machine = planSecretMachineName(s);

    if (url && machine) {
      machineByJoinUrl.set(namespaceOf(s), url, machine);
    }
  }
  const joinedTo = new Map<string, string[]>();

  for (const s of buckets.planSecret) {
    const joinedUrl = annotation(s, ANNOTATIONS.joinedTo);
    const target = joinedUrl ? machineByJoinUrl.get(namespaceOf(s), joinedUrl) ?? joinedUrl : null;
    const source = planSecretMachineName(s);

    if (target && source && target !== source) {
      const key = nsName(namespaceOf(s), target);
      const list = joinedTo.get(key);

      if (list) {
        list.push(source);
      } else {
        joinedTo.set(key, [source]);
      }
    }
  }

  const records: NodeRecord[] = [];
  const usedSecrets = new Set<KubeObject>();

  for (const m of buckets.machine) {
    const ns = namespaceOf(m);
    const name = nameOf(m) as string;
    const cluster = machineCluster.get(m) ?? null;
    const node = nodeOfMachine.get(m)?.node;
    const planSecret = secretByMachine.get(ns, name);
    const bRef = bootstrapRef(m);
    const iRef = infrastructureRef(m);
    const objects: JoinedObjects = {
      cluster:      cluster ? clusterObjects.get(cluster) : undefined,
      machine:      m,
      planSecret,
      bootstrap:    bootstrapByNsName.get(ns, bRef?.name ?? name),
      infraMachine: infraFor(ns, iRef),
      mgmtNode:     (node ? mgmtOfNode.get(node) : undefined) ?? mgmtOfMachine.get(m),
      node,
    };

    if (planSecret) {
      usedSecrets.add(planSecret);
    }
    const r = emptyRecord(`machine:${ nsName(ns, name) }`, cluster, objects);

    r.machineName = name;
    r.machineNamespace = ns;
    r.nodeName = (node ? nameOf(node) : null) ?? nodeRefName(m) ?? (objects.mgmtNode ? asString(statusOf(objects.mgmtNode).nodeName) : null);
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
    r.host = {
      planSecretName: planSecret ? nameOf(planSecret) : `${ name }-machine-plan`,
      machineId:      label(m, LABELS.machineId),
      hostname:       label(m, LABELS.nodeName) ?? (objects.mgmtNode ? asString(specOf(objects.mgmtNode).requestedHostname) : null) ?? (node ? label(node, 'kubernetes.io/hostname') : null),
    };
    r.created = asString(metadata(m).creationTimestamp);
    r.deleting = deletionTimestamp(m);
    r.finalizers = finalizers(m);
    r.chain = buildChain(r, availability, true);
    records.push(r);
  }

  for (const n of buckets.node) {
    if (nodeTaken.has(n)) {
      continue;
    }
    const cluster = nodeCluster.get(n) ?? null;
    const objects: JoinedObjects = {
      cluster:  cluster ? clusterObjects.get(cluster) : undefined,
      node:     n,
      mgmtNode: mgmtOfNode.get(n),
    };
    const r = emptyRecord(`node:${ clusterKey(cluster) }/${ nameOf(n) }`, cluster, objects);

    r.nodeName = nameOf(n);
    r.roles = nodeRoles(n);
    r.os = operatingSystem(n);
    r.addresses = addressesOf(undefined, n);
    r.host.hostname = label(n, 'kubernetes.io/hostname');
    r.created = asString(metadata(n).creationTimestamp);
    r.deleting = deletionTimestamp(n);
    r.finalizers = finalizers(n);
    r.machineName = annotation(n, ANNOTATIONS.capiMachine);
    r.machineNamespace = r.machineName ? (annotation(n, ANNOTATIONS.capiClusterNamespace) ?? cluster?.namespace ?? null) : null;
    r.chain = buildChain(r, availability, !!cluster && clustersWithMachines.has(cluster));
    records.push(r);
  }

  for (const mn of lonelyMgmtNodes) {
    const cluster = clusterForMgmtId(namespaceOf(mn));
    const objects: JoinedObjects = { cluster: cluster ? clusterObjects.get(cluster) : undefined, mgmtNode: mn };
    const r = emptyRecord(`mgmt:${ nsName(namespaceOf(mn), nameOf(mn)) }`, cluster, objects);

    r.nodeName = asString(statusOf(mn).nodeName) ?? label(mn, LABELS.mgmtNodeName) ?? asString(specOf(mn).requestedHostname);
    r.os = operatingSystem(mn);
    r.host.hostname = asString(specOf(mn).requestedHostname);
    r.created = asString(metadata(mn).creationTimestamp);
    r.machineName = asString(asObject(statusOf(mn).nodeAnnotations)[ANNOTATIONS.capiMachine]);
    r.machineNamespace = r.machineName ? cluster?.namespace ?? null : null;
    r.chain = buildChain(r, availability, !!cluster && clustersWithMachines.has(cluster));
    records.push(r);
  }

  for (const s of buckets.planSecret) {
    if (usedSecrets.has(s)) {
      continue;
    }
    const ns = namespaceOf(s);
    const machineName = planSecretMachineName(s);
    const cluster = clusterForMachine(ns, label(s, LABELS.rkeClusterName) ?? label(s, LABELS.capiClusterName)) ?? fallbackCluster();
    const objects: JoinedObjects = {
      cluster:    cluster ? clusterObjects.get(cluster) : undefined,
      planSecret: s,
      bootstrap:  bootstrapByNsName.get(ns, machineName),
    };
    const r = emptyRecord(`secret:${ nsName(ns, nameOf(s)) }`, cluster, objects);

    r.machineName = machineName;
    r.machineNamespace = ns;
    r.roles = machineRoles(s);
    r.os = operatingSystem(s);
    r.addresses = addressesOf(s);
    r.host.planSecretName = nameOf(s);
    r.created = asString(metadata(s).creationTimestamp);
    r.chain = buildChain(r, availability, true);
    records.push(r);
  }

  const machineNames = new Set<string>();

  for (const m of buckets.machine) {
    machineNames.add(nsName(namespaceOf(m), nameOf(m)));
  }
  for (const info of clusters) {
    if (info.blockingMessage) {
      resolveBlockingMachines(info, buckets.machine.filter((m) => machineCluster.get(m) === info).map((m) => nameOf(m) as string));
    }
    if (clustersWithMachines.has(info)) {
      info.kind = 'provisioned';
    }
  }

  return {
    clusters,
    records,
    skipped,
    context: {
      availability, clustersWithMachines, nodesByLowerName, joinedTo, machineNames
    },
  };
}
