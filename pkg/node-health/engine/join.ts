/**
 * Joins Rancher's objects into one record per node, by the keys that are reliable (rancher-node-model):
 * Node label rke.cattle.io/machine = Machine uid, then Machine status.nodeRef, then the Node's
 * cluster.x-k8s.io/machine annotation; plan secrets by rke.cattle.io/machine-name; never by raw hostname.
 * Produces one record per Machine, and one per Node (or management Node, or plan secret) that has none.
 */
import type { ClusterIdentity, ClusterInfo, InputAvailability, KubeObject } from './types';
import { nameOf } from './fields';
import { resolveBlockingMachines } from './cluster-info';
import { expectedNamesOfUnlinkedMachines } from './expected-name';
import { NO_CAPI_OBJECTS, indexCapiObjects } from './capi-objects';
import { bucketObjects } from './join/buckets';
import type { Buckets } from './join/buckets';
import { effectiveAvailability, settleRecordInputs } from './join/availability';
import {
  clusterKey, indexClusters, indexMachines, indexPlanSecrets, lazyJoinedTo, lazyNodesByLowerName
} from './join/indexes';
import { attachLeases, attachMgmtNodes, attachNodes } from './join/attach';
import { buildRecords } from './join/records';
import type { JoinResult } from './join/result';
import type { EarlierRecords } from './join/records';
import type { KeptIndexes, MachinePartIndex } from './join/indexes';

export type { JoinContext, JoinResult } from './join/result';
export type { KeptIndexes } from './join/indexes';

/** A join's result with the indexes it keeps for the next join of the same input with some objects changed. */
export type KeptJoinResult = JoinResult & { kept: KeptIndexes };
export type { EarlierRecords } from './join/records';
export { bucketObjects, inputOfObject } from './join/buckets';
export {
  absenceUnknown, effectiveAvailability, settleAvailability, unreadableInput
} from './join/availability';

/** Whether two lists hold the very same objects in the same order. */
export function sameObjects(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) {
    return false;
  }
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) {
      return false;
    }
  }

  return true;
}

/**
 * The index of plan secrets, bootstraps and infrastructure machines, and the look-up of the machines joined through
 * each: an earlier join's where it was built from the very same objects in the same order (a refresh that changed
 * none of them), which is what building it again gives; built otherwise.
 */
function partsOf(buckets: Buckets, earlier: KeptIndexes | undefined): KeptIndexes['parts'] {
  const lists = [buckets.planSecret, buckets.bootstrap, buckets.infraMachine];
  const kept = earlier?.parts;

  if (kept && kept.lists.every((list, i) => sameObjects(list, lists[i]))) {
    // What the join marks on an entry starts again.
    for (let i = 0; i < kept.index.secrets.length; i++) {
      kept.index.secrets[i].used = false;
    }

    return kept;
  }
  const index: MachinePartIndex = indexPlanSecrets(buckets);

  return {
    lists, index, joinedTo: lazyJoinedTo(index.secrets)
  };
}

/**
 * `earlier`: the records of an earlier join, carried over where they joined the same objects (see buildRecords),
 * and the indexes it kept, used again where they were built from the same objects.
 */
export function join(
  objects: unknown[], availabilityIn: InputAvailability = {}, defaultCluster?: string, identities?: ClusterIdentity[], earlier?: EarlierRecords
): KeptJoinResult {
  const { buckets, skipped } = bucketObjects(Array.isArray(objects) ? objects : []);
  const availability = effectiveAvailability(buckets, availabilityIn);
  const clusters = indexClusters(buckets.cluster, defaultCluster, identities);
  const machines = indexMachines(buckets.machine, clusters);
  const kept: KeptIndexes = { parts: partsOf(buckets, earlier?.kept) };
  const parts = kept.parts.index;
  const nodes = attachNodes(buckets.node, clusters, machines);
  const lonelyMgmtNodes = attachMgmtNodes(buckets.mgmtNode, clusters, machines, nodes);

  attachLeases(buckets.lease, clusters, nodes);
  const records = buildRecords(clusters, machines, parts, nodes, lonelyMgmtNodes, availability, earlier);

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
    events:   buckets.event,
    jobs:     buckets.job,
    skipped,
    kept,
    context:  {
      availability,
      clustersWithMachines: machines.clustersWithMachines,
      nodesNamedLike:       lazyNodesByLowerName(nodes.nodes),
      machinesJoinedTo:     kept.parts.joinedTo,
      hasMachine:           (namespace, machineName) => !!machines.byNsName().get(namespace, machineName),
      clusterObjectsOf:     (info) => ({ cluster: clusters.objects.get(info), mgmtCluster: mgmtClusters.get(info) }),
      capiObjectsOf:        (info) => capiObjects.get(info) ?? NO_CAPI_OBJECTS,
      machineOfNode:        (cluster, nodeName) => nodes.byClusterName.get(clusterKey(cluster), nodeName)?.takenBy ?? null,
      expectedNames:        expectedNamesOfUnlinkedMachines(records),
    },
  };
}
