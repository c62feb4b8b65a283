/**
 * Object shapes as `kubectl get -o json` prints them. Only the fields the scenarios fill are typed;
 * everything stays assignable to the plain `KubeObject`.
 */

export type Labels = Record<string, string>;

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ObjectMeta {
  name: string;
  namespace?: string;
  uid: string;
  resourceVersion: string;
  generation?: number;
  generateName?: string;
  creationTimestamp: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Labels;
  annotations?: Labels;
  finalizers?: string[];
  ownerReferences?: OwnerReference[];
}

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  [field: string]: unknown;
}

export type ConditionStatus = 'True' | 'False' | 'Unknown';

/** cluster.x-k8s.io/v1beta1 condition (also the shape under status.deprecated.v1beta1 in v1beta2). */
export interface CapiCondition {
  type: string;
  status: ConditionStatus;
  severity?: 'Error' | 'Warning' | 'Info';
  reason?: string;
  message?: string;
  lastTransitionTime: string;
}

/** metav1.Condition, used by CAPI v1beta2. */
export interface MetaCondition {
  type: string;
  status: ConditionStatus;
  reason: string;
  message?: string;
  lastTransitionTime: string;
  observedGeneration?: number;
}

export interface NodeCondition {
  type: string;
  status: ConditionStatus;
  reason?: string;
  message?: string;
  lastHeartbeatTime?: string;
  lastTransitionTime: string;
}

/** Rancher (wrangler) condition on provisioning / management / rke objects. */
export interface RancherCondition {
  type: string;
  status: ConditionStatus;
  reason?: string;
  message?: string;
  lastUpdateTime?: string;
  lastTransitionTime?: string;
}

export interface ObjectReferenceV1beta1 {
  apiVersion: string;
  kind: string;
  name: string;
  namespace: string;
  uid?: string;
}

export interface ContractReference {
  apiGroup: string;
  kind: string;
  name: string;
}

export interface NodeAddress {
  type: 'InternalIP' | 'ExternalIP' | 'Hostname' | 'InternalDNS' | 'ExternalDNS';
  address: string;
}

export interface NodeSystemInfo {
  architecture: string;
  bootID: string;
  containerRuntimeVersion: string;
  kernelVersion: string;
  kubeProxyVersion: string;
  kubeletVersion: string;
  machineID: string;
  operatingSystem: string;
  osImage: string;
  systemUUID: string;
}

export type MachinePhase =
  | 'Pending' | 'Provisioning' | 'Provisioned' | 'Running' | 'Deleting' | 'Deleted' | 'Failed' | 'Unknown' | 'Updating';

export interface MachineV1beta1 extends KubeObject {
  apiVersion: 'cluster.x-k8s.io/v1beta1';
  kind: 'Machine';
  spec: {
    clusterName: string;
    bootstrap: { configRef: ObjectReferenceV1beta1; dataSecretName?: string };
    infrastructureRef: ObjectReferenceV1beta1;
    providerID?: string;
    version?: string;
    nodeDeletionTimeout?: string;
  };
  status: {
    bootstrapReady: boolean;
    infrastructureReady: boolean;
    phase: MachinePhase;
    nodeRef?: { apiVersion: string; kind: string; name: string; uid: string };
    nodeInfo?: NodeSystemInfo;
    addresses?: NodeAddress[];
    conditions: CapiCondition[];
    failureReason?: string;
    failureMessage?: string;
    lastUpdated?: string;
    observedGeneration?: number;
  };
}

export interface MachineV1beta2 extends KubeObject {
  apiVersion: 'cluster.x-k8s.io/v1beta2';
  kind: 'Machine';
  spec: {
    clusterName: string;
    bootstrap: { configRef: ContractReference; dataSecretName?: string };
    infrastructureRef: ContractReference;
    providerID?: string;
    version?: string;
  };
  status: {
    phase: MachinePhase;
    initialization: { bootstrapDataSecretCreated: boolean; infrastructureProvisioned: boolean };
    nodeRef?: { name: string };
    nodeInfo?: NodeSystemInfo;
    addresses?: NodeAddress[];
    conditions: MetaCondition[];
    deprecated: { v1beta1: { conditions: CapiCondition[]; failureReason?: string; failureMessage?: string } };
    lastUpdated?: string;
    observedGeneration?: number;
  };
}

export interface SecretObject extends KubeObject {
  apiVersion: 'v1';
  kind: 'Secret';
  type: string;
  data: Record<string, string>;
}

export interface NodeObject extends KubeObject {
  apiVersion: 'v1';
  kind: 'Node';
  spec: {
    providerID?: string;
    podCIDR?: string;
    podCIDRs?: string[];
    taints?: { key: string; value?: string; effect: string; timeAdded?: string }[];
    unschedulable?: boolean;
  };
  status: {
    addresses: NodeAddress[];
    allocatable: Record<string, string>;
    capacity: Record<string, string>;
    conditions: NodeCondition[];
    daemonEndpoints: { kubeletEndpoint: { Port: number } };
    nodeInfo: NodeSystemInfo;
  };
}

export type ClusterKind = 'custom' | 'node-driver' | 'imported';

export interface ScenarioCluster {
  /** provisioning.cattle.io Cluster name */
  name: string;
  /** namespace of the provisioning cluster, machines and plan secrets (usually fleet-default) */
  namespace: string;
  /** management cluster id (c-m-xxxxxxxx); also the namespace of management Nodes */
  mgmtId: string;
  kind: ClusterKind;
  kubernetesVersion?: string;
}

/** What is wrong with one machine or node, as the diagnosis is expected to name it. */
export type FailureFamily =
  | 'agent-never-checked-in'
  | 'plan-not-applied'
  | 'plan-apply-failed'
  | 'probes-failing'
  | 'stuck-deleting'
  | 'infrastructure-delete-failed'
  | 'infrastructure-create-failed'
  | 'etcd-removal-hook-blocked'
  | 'waiting-for-node-ref'
  | 'infrastructure-missing'
  | 'node-not-linked'
  | 'node-name-mismatch'
  | 'orphan-node'
  | 'node-missing'
  | 'node-not-ready'
  | 'node-condition'
  | 'node-taint'
  | 'node-status-stale'
  | 'machine-signal'
  | 'plan-secret-missing'
  | 'machine-missing'
  | 'blocking-cluster-operation'
  | 'windows-version-unsupported'
  | 'windows-memory-low'
  | 'provider-id-missing'
  | 'cloud-provider-uninitialized'
  | 'kubelet-version-skew'
  | 'drain-stuck'
  | 'duplicate-node-name'
  | 'serving-certs-expired'
  | 'related-record'
  | 'unexplained-not-ready';

/** What is wrong with a whole cluster, as the diagnosis is expected to name it. */
export type ClusterFailureFamily =
  | 'init-node-missing'
  | 'init-node-not-viable'
  | 'unexplained-cluster-wait'
  | 'planner-error'
  | 'cluster-agent-disconnected'
  | 'pre-bootstrap-pending'
  | 'capi-connection-down'
  | 'etcd-quorum'
  | 'control-plane-unavailable'
  | 'nodes-status-frozen'
  | 'role-missing'
  | 'reconciliation-paused'
  | 'health-check-cannot-remediate';

export interface Scenario {
  name: string;
  title: string;
  description: string;
  /** the scenario's clock (RFC 3339); every timestamp in it is relative to this */
  now: string;
  /** the marker embedded in every sensitive value */
  secretMarker: string;
  clusters: ScenarioCluster[];
  /** objects in Rancher's own (local) cluster: what /v1 and kubectl against Rancher return */
  objects: KubeObject[];
  /** objects inside each downstream cluster, keyed by management cluster id (its /k8s/clusters/<id> API) */
  downstream: Record<string, KubeObject[]>;
  /**
   * Machine name (or, for a Node with no Machine, the downstream Node name) -> every failure family
   * that applies, first the root cause. Names absent from the map are healthy.
   */
  expected: Record<string, FailureFamily[]>;
  /** cluster name -> the findings about the whole cluster; clusters absent from the map have none */
  expectedClusters?: Record<string, ClusterFailureFamily[]>;
  /** the logs of the scenario's pods in Rancher's own cluster (its provisioning jobs), keyed `namespace/pod` */
  podLogs?: Record<string, string>;
}
