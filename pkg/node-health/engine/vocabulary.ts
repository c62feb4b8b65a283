/**
 * The words every layer shares, defined once: Rancher's label and annotation keys, node roles, the arguments of
 * a translated message and the translator that renders them, and the format names of what the extension writes.
 */

export const LABELS = {
  capiClusterName:   'cluster.x-k8s.io/cluster-name',
  rkeClusterName:    'rke.cattle.io/cluster-name',
  machineName:       'rke.cattle.io/machine-name',
  machineUid:        'rke.cattle.io/machine',
  machineId:         'rke.cattle.io/machine-id',
  nodeName:          'rke.cattle.io/node-name',
  etcdRole:          'rke.cattle.io/etcd-role',
  controlPlaneRole:  'rke.cattle.io/control-plane-role',
  workerRole:        'rke.cattle.io/worker-role',
  os:                'cattle.io/os',
  mgmtNodeName:      'management.cattle.io/nodename',
  kubernetesOs:      'kubernetes.io/os',
  initNode:          'rke.cattle.io/init-node',
  /** Cluster API's labels on a pool's machines: the MachineDeployment and the MachineSet that own them */
  deploymentName:    'cluster.x-k8s.io/deployment-name',
  machineSetName:    'cluster.x-k8s.io/set-name',
  /** Rancher's machine pool of a node-driver cluster (rancher pkg/capr) */
  machinePoolName:   'rke.cattle.io/rke-machine-pool-name',
  /** Rancher's labels on the jobs and pods that create and delete an infrastructure machine (machineprovision/template.go) */
  infraMachineName:  'rke.cattle.io/infra-machine-name',
  infraRemove:       'rke.cattle.io/infra-remove',
} as const;

/**
 * Where a Job read for a record's story keeps its pod's last log lines: not a Kubernetes field, the reader
 * (data/timeline.ts) adds it, so that a bundle and the reports carry the log with its Job.
 */
export const JOB_LOG_FIELD = 'nodeHealthLog';

export const ANNOTATIONS = {
  capiMachine:          'cluster.x-k8s.io/machine',
  capiClusterName:      'cluster.x-k8s.io/cluster-name',
  capiClusterNamespace: 'cluster.x-k8s.io/cluster-namespace',
  address:              'rke.cattle.io/address',
  internalAddress:      'rke.cattle.io/internal-address',
  joinedTo:             'rke.cattle.io/joined-to',
  joinUrl:              'rke.cattle.io/join-url',
  planLastUpdated:      'rke.cattle.io/plan-last-updated',
  etcdHook:             'pre-terminate.delete.hook.machine.cluster.x-k8s.io/rke-bootstrap-cleanup',
  etcdForceRemove:      'rke.cattle.io/etcd-force-remove',
  /** the node labels and taints a custom node was registered with (rancher pkg/controllers/capr/unmanaged) */
  registeredLabels:     'rke.cattle.io/labels',
  registeredTaints:     'rke.cattle.io/taints',
  /** Cluster API stops reconciling any object that carries it (cluster-api api/core/v1beta2 common_types.go) */
  capiPaused:           'cluster.x-k8s.io/paused',
} as const;

/** kubectl apply's copy of the whole object: it repeats every field, secrets' data included. */
export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';

/** The diagnostics bundle's format, written by the export and read by the command line. */
export const BUNDLE_FORMAT = 'node-health-bundle/v1';

export type Role = 'etcd' | 'controlplane' | 'worker';

/** Roles in the order Rancher shows them and its own Registration tab emits their flags. */
export const ROLE_ORDER: readonly Role[] = ['etcd', 'controlplane', 'worker'];

/** The arguments of a translated message. */
export type MessageArgs = Record<string, string | number>;

/**
 * Message arguments that hold a duration, in milliseconds (or "?" when it is unknown). The engine leaves them as
 * numbers; each renderer says them in its reader's language.
 */
export const DURATION_ARGS: readonly string[] = ['duration', 'age', 'median', 'leaseAge'];

/**
 * Message arguments that hold a point in time, as Kubernetes writes it (RFC 3339 in UTC). The engine leaves them as
 * written; each renderer says them as the timeline does ("2026-06-02 07:40:00 UTC"), not as a field's raw value.
 */
export const TIME_ARGS: readonly string[] = ['since', 'time', 'first', 'last', 'at', 'madeAt'];

/** Renders a translation key with its arguments in the reader's language. */
export type Translate = (key: string, args?: MessageArgs) => string;
