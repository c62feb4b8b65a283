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
import { effectiveAvailability, settleRecordInputs } from './join/availability';
import {
  clusterKey, indexClusters, indexMachines, indexPlanSecrets, lazyJoinedTo, lazyNodesByLowerName
} from './join/indexes';
import { attachMgmtNodes, attachNodes } from './join/attach';
import { buildRecords } from './join/records';
import type { JoinResult } from './join/result';
import type { EarlierRecords } from './join/records';

export type { JoinContext, JoinResult } from './join/result';
export type { EarlierRecords } from './join/records';
export { bucketObjects, inputOfObject } from './join/buckets';
export {
  absenceUnknown, effectiveAvailability, settleAvailability, unreadableInput
} from './join/availability';

/** `earlier`: the records of an earlier join, carried over where they joined the same objects (see buildRecords). */
export function join(
  objects: unknown[], availabilityIn: InputAvailability = {}, defaultCluster?: string, identities?: ClusterIdentity[], earlier?: EarlierRecords
): JoinResult {
  const { buckets, skipped } = bucketObjects(Array.isArray(objects) ? objects : []);
  const availability = effectiveAvailability(buckets, availabilityIn);
  const clusters = indexClusters(buckets.cluster, defaultCluster, identities);
  const machines = indexMachines(buckets.machine, clusters);
  const parts = indexPlanSecrets(buckets);
  const nodes = attachNodes(buckets.node, clusters, machines);
  const lonelyMgmtNodes = attachMgmtNodes(buckets.mgmtNode, clusters, machines, nodes);
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
