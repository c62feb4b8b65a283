/** The records: one per machine, then one per Node, management Node and plan secret that no machine took. */
import type {
  ClusterInfo, InputAvailability, JoinedObjects, KubeObject, NodeRecord, PlanStatus
} from '../types';
import {
  annotation, asArray, asObject, asString, label, metadata, nameOf, namespaceOf, specOf, statusOf
} from '../fields';
import {
  bootstrapRef, deletionTimestamp, finalizers, infrastructureRef, machinePhase, machineRoles, mgmtNodeOperatingSystem, mgmtNodeRoles, nodeRefName, nodeRoles, operatingSystem
} from '../objects';
import { ANNOTATIONS, LABELS } from '../vocabulary';
import { derivePlanStatus, planSecretKnownMissing } from '../plan-status';
import { NO_RELATIONS } from '../hosts';
import { clusterKey } from './indexes';
import type {
  ClusterIndex, KeptIndexes, MachineIndex, MachinePartIndex, NodeIndex
} from './indexes';

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

// What a record has until the join reads its own: shared and frozen, since most records replace them and nothing
// writes to them.
const NO_ROLES: NodeRecord['roles'] = Object.freeze([]) as unknown as NodeRecord['roles'];
const NO_ADDRESSES: NodeRecord['addresses'] = Object.freeze({ external: null, internal: null });
const NO_FINALIZERS: string[] = Object.freeze([]) as unknown as string[];

/**
 * The plan as the machine and its plan secret tell it. A machine whose RKEBootstrap's plan secret is known not to
 * exist (every plan secret was read) has no plan: the planner writes it into that secret, so nothing is unknown.
 */
function planOf(objects: JoinedObjects, inputs: InputAvailability): PlanStatus {
  const plan = derivePlanStatus(objects.machine, objects.planSecret);

  if (plan.state === 'unknown' && planSecretKnownMissing(objects, inputs)) {
    plan.state = 'no-plan';
  }

  return plan;
}

function emptyRecord(key: string, cluster: ClusterInfo | null, objects: JoinedObjects, inputs: InputAvailability): NodeRecord {
  return {
    key,
    cluster,
    machineName:      null,
    machineNamespace: null,
    nodeName:         null,
    roles:            NO_ROLES,
    os:               'unknown',
    addresses:        NO_ADDRESSES,
    phase:            null,
    plan:             planOf(objects, inputs),
    machineManaged:   true,
    inputs,
    host:             {
      planSecretName: null, machineId: null, hostname: null
    },
    created:          null,
    deleting:         null,
    finalizers:       NO_FINALIZERS,
    findings:         [],
    status:           'healthy',
    notes:            [],
    statusSince:      null,
    objects,
    hostReport:       null,
    related:          NO_RELATIONS,
  };
}

/**
 * The records of an earlier join, by key, to carry over: a record whose key, cluster and joined objects (the same
 * objects, not equal ones) are what this join finds is copied rather than read again, and listed in `carried`.
 */
export interface EarlierRecords {
  byKey: ReadonlyMap<string, NodeRecord>;
  carried: Set<NodeRecord>;
  /** the indexes the earlier join kept */
  kept?: KeptIndexes;
}

const OBJECT_SLOTS = ['cluster', 'machine', 'planSecret', 'bootstrap', 'infraMachine', 'mgmtNode', 'node', 'lease'] as const;

/**
 * The earlier record of this key, copied as the join left it, added to the records when it joined these very
 * objects; false when the record is to be built. `machineManaged`: whether its cluster has machines, where that
 * is not what the objects say.
 */
function carriedOver(
  records: NodeRecord[], earlier: EarlierRecords | undefined, key: string, cluster: ClusterInfo | null, objects: JoinedObjects, inputs: InputAvailability,
  machineManaged?: boolean
): boolean {
  const before = earlier?.byKey.get(key);

  if (!before || clusterKey(before.cluster) !== clusterKey(cluster) || before.cluster?.namespace !== cluster?.namespace) {
    return false;
  }
  for (let i = 0; i < OBJECT_SLOTS.length; i++) {
    if (before.objects[OBJECT_SLOTS[i]] !== objects[OBJECT_SLOTS[i]]) {
      return false;
    }
  }
  // What the join read is the same; what judging added starts again.
  const r: NodeRecord = {
    key,
    cluster,
    machineName:      before.machineName,
    machineNamespace: before.machineNamespace,
    nodeName:         before.nodeName,
    roles:            before.roles,
    os:               before.os,
    addresses:        before.addresses,
    phase:            before.phase,
    plan:             before.plan,
    machineManaged:   machineManaged ?? before.machineManaged,
    inputs,
    host:             before.host,
    created:          before.created,
    deleting:         before.deleting,
    finalizers:       before.finalizers,
    findings:         [],
    status:           'healthy',
    notes:            [],
    statusSince:      null,
    objects:          before.objects,
    hostReport:       null,
    related:          NO_RELATIONS,
  };

  earlier?.carried.add(r);
  records.push(r);

  return true;
}

/** One record per machine, then per Node, management Node and plan secret that no machine took. */
export function buildRecords(
  clusters: ClusterIndex, machines: MachineIndex, parts: MachinePartIndex, nodes: NodeIndex, lonelyMgmtNodes: KubeObject[],
  availability: InputAvailability, earlier?: EarlierRecords
): NodeRecord[] {
  const records: NodeRecord[] = [];

  addMachineRecords(records, clusters, machines, parts, availability, earlier);
  addNodeRecords(records, clusters, machines, nodes, availability, earlier);
  addMgmtNodeRecords(records, clusters, machines, lonelyMgmtNodes, availability, earlier);
  addPlanSecretRecords(records, clusters, parts, availability, earlier);

  return records;
}

function addMachineRecords(
  records: NodeRecord[], clusters: ClusterIndex, machines: MachineIndex, parts: MachinePartIndex, availability: InputAvailability,
  earlier?: EarlierRecords
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
      lease:        nodeEntry?.lease,
    };

    if (secret) {
      secret.used = true;
    }
    const key = `machine:${ ns ?? '' }/${ name }`;

    if (carriedOver(records, earlier, key, cluster, objects, availability)) {
      continue;
    }
    const r = emptyRecord(key, cluster, objects, availability);

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
function addNodeRecords(
  records: NodeRecord[], clusters: ClusterIndex, machines: MachineIndex, nodes: NodeIndex, availability: InputAvailability, earlier?: EarlierRecords
): void {
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
      lease:    nodes.nodes[i].lease,
    };
    const key = `node:${ clusterKey(cluster) }/${ name }`;

    if (carriedOver(records, earlier, key, cluster, objects, availability, !!cluster && machines.clustersWithMachines.has(cluster))) {
      continue;
    }
    const r = emptyRecord(key, cluster, objects, availability);

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
  records: NodeRecord[], clusters: ClusterIndex, machines: MachineIndex, lonelyMgmtNodes: KubeObject[], availability: InputAvailability,
  earlier?: EarlierRecords
): void {
  for (const mn of lonelyMgmtNodes) {
    const cluster = clusters.forMgmtId(namespaceOf(mn));
    const objects: JoinedObjects = { cluster: cluster ? clusters.objects.get(cluster) : undefined, mgmtNode: mn };
    const key = `mgmt:${ namespaceOf(mn) ?? '' }/${ nameOf(mn) ?? '' }`;

    if (carriedOver(records, earlier, key, cluster, objects, availability, !!cluster && machines.clustersWithMachines.has(cluster))) {
      continue;
    }
    const r = emptyRecord(key, cluster, objects, availability);

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
function addPlanSecretRecords(
  records: NodeRecord[], clusters: ClusterIndex, parts: MachinePartIndex, availability: InputAvailability, earlier?: EarlierRecords
): void {
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
    const key = `secret:${ ns ?? '' }/${ nameOf(s) ?? '' }`;

    if (carriedOver(records, earlier, key, cluster, objects, availability)) {
      continue;
    }
    const r = emptyRecord(key, cluster, objects, availability);

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
