/**
 * The fleet's lists that the dashboard store already holds complete: Cluster Management's cluster list loads
 * every provisioning cluster, CAPI Machine and management Node before it draws, and the store holds every
 * management cluster from the start. Copies are shaped like the fleet's own answers (the same fields,
 * engine/read-fields.ts and the management Nodes' copies of their Node), so a diagnosis reads the same objects
 * whichever way they came.
 */
import { STEVE_TYPES, steveIncludePaths } from '../engine';
import type { KubeObject } from '../engine';
import { plainCopy, storeCopies } from '../data/store-lists';
import type { StoreGetters, Unwrap } from '../data/store-lists';
import { trimMgmtCluster } from '../data/mgmt-cluster';
import { CLUSTER_FLEET_FIELDS, MGMT_NODE_FLEET_FIELDS } from './requests';

export type FleetStoreLists = Partial<Record<'clusters' | 'mgmtClusters' | 'machines' | 'mgmtNodes', KubeObject[]>>;

const everyOne = () => true;

export function fleetStoreLists(getters: StoreGetters, unwrap: Unwrap = (m) => m): FleetStoreLists {
  const out: FleetStoreLists = {};
  const machineFields = steveIncludePaths('machine');
  const clusters = storeCopies(getters, STEVE_TYPES.cluster, unwrap, everyOne, (raw) => plainCopy(raw, CLUSTER_FLEET_FIELDS));
  const machines = storeCopies(getters, STEVE_TYPES.machine, unwrap, everyOne, (raw) => plainCopy(raw, machineFields));
  const mgmtNodes = storeCopies(getters, STEVE_TYPES.mgmtNode, unwrap, everyOne, (raw) => plainCopy(raw, MGMT_NODE_FLEET_FIELDS));
  // The store holds every management cluster from the start; each is trimmed as one cluster's tab trims its own.
  const mgmtClusters = storeCopies(getters, STEVE_TYPES.mgmtCluster, unwrap, (raw) => !!trimMgmtCluster(raw), (raw) => trimMgmtCluster(raw) as KubeObject);

  if (clusters) {
    out.clusters = clusters;
  }
  if (machines) {
    out.machines = machines;
  }
  if (mgmtNodes) {
    out.mgmtNodes = mgmtNodes;
  }
  if (mgmtClusters) {
    out.mgmtClusters = mgmtClusters;
  }

  return out;
}
