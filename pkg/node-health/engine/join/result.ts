/** What the join hands to the rules and the diagnosis: the records, and the look-ups rules make across them. */
import type { ClusterInfo, InputAvailability, KubeObject, NodeRecord } from '../types';
import type { CapiObjects } from '../capi-objects';

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
  /** Kubernetes Events in the input (a bundle's, kubectl's): what a record's timeline reads besides its objects */
  events: KubeObject[];
  /** Rancher's provisioning Jobs in the input, with their pods' last log lines */
  jobs: KubeObject[];
  skipped: { object: string; reason: string }[];
  context: JoinContext;
}
