/**
 * Types of the diagnosis engine. The engine is pure TypeScript: it takes Kubernetes objects as Steve or
 * kubectl return them and produces one record per node with findings. No Vue, store or Node.js imports,
 * so the tab, the command line and the tests all run the same code.
 */
import type { HostReport, HostReportMatch } from './host-report-format';
import type { MessageArgs, Role } from './vocabulary';

/** A Kubernetes object as Steve (id, type, metadata.state) or kubectl (apiVersion, kind) returns it. */
export type KubeObject = Record<string, any>;

export type Severity = 'error' | 'warning' | 'info';
export type RecordStatus = 'healthy' | 'warning' | 'error' | 'unknown';
export type OperatingSystem = 'linux' | 'windows' | 'unknown';

/** The kinds of object the engine understands; everything else in the input is ignored. */
export type ObjectKind =
  | 'event'
  | 'job'
  | 'cluster'
  | 'machine'
  | 'planSecret'
  | 'bootstrap'
  | 'infraMachine'
  | 'mgmtNode'
  | 'node'
  | 'lease'
  | 'registrationToken'
  | 'mgmtCluster'
  | 'capiCluster'
  | 'machineHealthCheck'
  | 'machineDeployment'
  | 'machineSet';

/**
 * Which inputs could be read; a rule that needs an input that could not be read stays silent. `partial`: read,
 * but the user may see only some of its objects (Steve lists only what a user may read), so what is not in it
 * may still exist.
 */
export type Availability = 'ok' | 'partial' | 'forbidden' | 'error' | 'absent';
export type InputName =
  | 'machines' | 'planSecrets' | 'bootstraps' | 'infraMachines' | 'mgmtNodes' | 'nodes' | 'leases'
  | 'capiClusters' | 'machineHealthChecks' | 'machineDeployments' | 'machineSets';
export type InputAvailability = Partial<Record<InputName, Availability>>;

/** A field the engine looked at. Values are never secret: plan secrets only contribute whitelisted status keys. */
export interface Evidence {
  /** e.g. "Machine fleet-default/custom-2d74d4c9a104" */
  object: string;
  /** e.g. "status.conditions[Reconciled].message" */
  path: string;
  value: string | number | boolean | null;
  /** Read on the node's host (a host report), not in Rancher: the host confirms what the finding says */
  confirmed?: true;
}

/**
 * What a step does, where several rules can ask for the same thing: a record's plan asks for each once, and not
 * at all where the record's state already did it (no "delete the machine" for a machine that is deleting).
 * defer: "settle this record's own problem first", which the plan says by leading with that problem.
 */
export type StepAct = 'delete-machine' | 're-register' | 'remove-finalizers' | 'inspect-machine' | 'defer';

/** One numbered fix step: translated text, optionally a command to copy. */
export interface FixStep {
  key: string;
  args?: MessageArgs;
  command?: string;
  act?: StepAct;
}

/** A step of a plan: the finding's step, with the rule it comes from. */
export interface PlanStep extends FixStep {
  rule: string;
}

/**
 * What to do about a record (or a cluster), in order: its root cause's steps first, then those of its other
 * problems, then those of the findings the root cause explains, each step once.
 */
export interface Resolution {
  /** The finding that must be fixed for the others to clear: the first one no other finding explains */
  rootCause: string | null;
  /** Findings the root cause explains (their rule ids): shown as its consequences */
  consequences: string[];
  steps: PlanStep[];
  /** A cluster's plan: the records to settle first (the machines the cluster waits for), by key */
  first?: string[];
}

/** Actions the UI may offer for a finding; eligibility is decided here so every front end agrees. */
export type ActionId = 'remove-finalizers' | 'etcd-force-remove' | 're-register' | 'force-delete' | 'delete-machine' | 'resume-machine';

export type PreflightCheckId =
  | 'hostGone' | 'infrastructureGone' | 'etcdQuorum' | 'etcdReleased' | 'notPaused' | 'noRemediation' | 'agentConnected'
  | 'mayUpdate' | 'customCluster' | 'deleteFailed' | 'serverGone' | 'notDeleting' | 'replacement' | 'lastOfRole' | 'mayDelete'
  | 'machinePaused' | 'noneJoined';

/** One check an action makes before it writes: passed (true), failed (false) or not judged (null), in words. */
export interface PreflightCheck {
  id: PreflightCheckId;
  ok: boolean | null;
  /** nodeHealth.preflight.<id>.<outcome>, with its args */
  key: string;
  args: MessageArgs;
  /**
   * Only the user can judge it (whether a server still runs at the provider): not judged here, and the dialog
   * asks the user to confirm it before the write.
   */
  byUser?: true;
}

export interface ActionPreflight {
  id: ActionId;
  allowed: boolean;
  checks: PreflightCheck[];
}

export interface Finding {
  rule: string;
  /** The signal-table entry the finding reads (`<table>/<entry>`), for rules that read a table */
  signal?: string;
  severity: Severity;
  titleKey: string;
  causeKey: string;
  args: MessageArgs;
  evidence: Evidence[];
  fix: FixStep[];
  /** When the problem started, as far as the objects tell (RFC3339), for "how long it has been so". */
  since: string | null;
  actions: ActionId[];
  /** Rules whose findings this one explains, where the hit says so instead of its rule (rules/rule.ts `explains`) */
  explains?: string[];
  /** Set when facts from the node's host (its host report) confirm the finding; the host's evidence says which */
  confirmed?: true;
  /** What the host showed, in words (a translation key), for findings a host fact confirms */
  confirmation?: { key: string; args?: MessageArgs };
}

/**
 * Who a provisioning cluster is, as whoever read it already knows (the tab's, the fleet's and the command line's
 * target, data/target.ts): given to the engine in DiagnoseOptions.clusters, it is used as given. The engine reads it
 * from the cluster object itself (cluster-info.ts clusterIdentityOf) only for a cluster none was given for.
 */
export interface ClusterIdentity {
  /** provisioning cluster name */
  name: string;
  /** provisioning cluster namespace (fleet-default, fleet-local, ...) */
  namespace: string;
  /** management cluster id (c-m-xxxx), once Rancher has assigned it */
  mgmtId: string | null;
  /** provisioning v2 with an rkeConfig: Rancher provisions its machines (kind 'provisioned', else 'imported') */
  machineManaged: boolean;
}

export interface ClusterInfo {
  /** provisioning cluster name (or the management id for clusters known only by id) */
  name: string;
  namespace: string | null;
  mgmtId: string | null;
  /** 'provisioned' when the cluster has CAPI machines or is a provisioning v2 cluster with an rkeConfig */
  kind: 'provisioned' | 'imported' | 'unknown';
  /** The planner's "what am I waiting for" message, from Updated/Provisioned/Ready */
  blockingMessage: string | null;
  blockingCondition: string | null;
  blockingSince: string | null;
  /**
   * The blocking condition's status: the planner's controller writes a hard error as False (reason Error) and its
   * progress as Unknown (reason Waiting) (pkg/controllers/capr/planner OnChange); the cluster's conditions copy it
   */
  blockingStatus: string | null;
  /** Machine names the blocking message names */
  blockingMachines: string[];
  /** A certificate rotation the planner waits for (a machine's rotation plan), or one that failed on a machine */
  certificateRotation: 'waiting' | 'failed' | null;
  /** Findings about the whole cluster rather than one node (init node lost, cluster agent disconnected) */
  findings: Finding[];
  /**
   * Whether the cluster agent is connected now, whatever the finding's threshold: an action's preflight reads it.
   * `unknown` where neither the provisioning nor the management cluster was read; absent before the cluster is judged.
   */
  agent?: 'connected' | 'disconnected' | 'unknown';
  /** Why a check of the whole cluster could not judge it (it threw): the cluster is not known to be fine */
  notes?: { key: string; args?: MessageArgs }[];
  /** What to do first across the cluster (engine/resolution.ts) */
  resolution?: Resolution;
}

export type PlanState =
  | 'in-sync'
  | 'waiting-for-agent'
  | 'waiting-for-plan'
  | 'applying'
  | 'apply-failed'
  | 'probes-failing'
  | 'no-plan'
  | 'unknown';

export interface PlanStatus {
  state: PlanState;
  /** The planner's own words when a condition carries them */
  message: string | null;
  /** Where the state was read from */
  source: 'condition' | 'secret' | 'none';
  unhealthyProbes: string[];
  failureCount: number | null;
  lastApplyTime: string | null;
  planLastUpdated: string | null;
  since: string | null;
}

/** unlinked: the object is there (the same host, or one a finding names) but not joined to this record */
export type LinkState = 'present' | 'missing' | 'waiting' | 'failed' | 'unreadable' | 'not-loaded' | 'not-applicable' | 'unlinked';

/** One link of the chain Machine → plan secret → infrastructure machine → management Node → Node. */
export interface ChainLink {
  kind: 'machine' | 'planSecret' | 'bootstrap' | 'infraMachine' | 'mgmtNode' | 'node';
  state: LinkState;
  name: string | null;
  namespace: string | null;
  /** Steve type, so the UI can link to the object's page */
  type: string | null;
  /** Cluster id for downstream objects */
  clusterId: string | null;
  detail: string | null;
}

/**
 * What identifies a host, as two records can share it (engine/hosts.ts): the agent's id (the Machine's
 * rke.cattle.io/machine-id, a host report's cattle-id), the firmware's system UUID and the OS machine id (a
 * Node's nodeInfo), a providerID, what a host report read on the host says of itself, an address, a host name.
 */
export type HostSignal = 'machineId' | 'systemUuid' | 'osMachineId' | 'providerId' | 'hostReport' | 'address' | 'hostname';

/** One value two records share, with where each read it. */
export interface SharedValue {
  signal: HostSignal;
  value: string;
  /** this record's field first, then the other record's */
  evidence: Evidence[];
}

/** Another record this one is related to: the same host, or one a finding of either names. */
export interface RelatedRecord {
  /** the other record's key */
  key: string;
  /** its machine, when the machine exists */
  machine: string | null;
  node: string | null;
  /** certain: they share an id of the host; likely: only an address (host names only support it); null: not the same host */
  sameHost: 'certain' | 'likely' | null;
  shared: SharedValue[];
  /** rules of this record's findings that name the other record */
  names: string[];
  /** rules of the other record's findings that name this one */
  namedBy: string[];
}

/** A machine against its pool: how long it took (or is taking) to get its Node, and what is usual there (engine/pools.ts). */
export interface PoolComparison {
  /** The pool's name, or the roles of a custom cluster's machines ("controlplane, etcd") */
  pool: string;
  custom: boolean;
  /** How long the machine took to get its Node, or has been waiting so far */
  provisioningMs: number;
  /** false while it still has no Node */
  done: boolean;
  /** The median of the pool's other machines that got their Node; null with too few of them to tell */
  medianMs: number | null;
  peers: number;
  outlier: boolean;
}

export interface NodeRecord {
  /** Stable key: survives refreshes, so the UI keeps open rows and selection */
  key: string;
  cluster: ClusterInfo | null;
  machineName: string | null;
  machineNamespace: string | null;
  nodeName: string | null;
  roles: Role[];
  os: OperatingSystem;
  addresses: { external: string | null; internal: string | null };
  phase: string | null;
  plan: PlanStatus;
  /** Whether Cluster API machines manage the record's cluster, so that its chain has a machine and a plan secret */
  machineManaged: boolean;
  /** What the diagnosis could read for the record's cluster: a link not found is missing only if it was read */
  inputs: InputAvailability;
  /** Facts support needs on the host */
  host: { planSecretName: string | null; machineId: string | null; hostname: string | null };
  created: string | null;
  deleting: string | null;
  finalizers: string[];
  findings: Finding[];
  status: RecordStatus;
  /** Why the record could not be judged fully; translation keys with args */
  notes: { key: string; args?: MessageArgs }[];
  /** Since when the record has had its current status (the worst finding's since, else creation) */
  statusSince: string | null;
  objects: JoinedObjects;
  /** What the host check found on this node's host, when a host report was given and joined to this record */
  hostReport: HostReport | null;
  /** Each action the findings offer, with the checks it must pass before it may write (engine/preflight.ts) */
  preflight?: ActionPreflight[];
  /** How long the machine took (or has been taking) to get its Node, against its pool's other machines (engine/pools.ts) */
  pool?: PoolComparison;
  /** Records that are the same host as this one, or that a finding of either names (engine/hosts.ts) */
  related: RelatedRecord[];
  /** The record's one plan (engine/resolution.ts) */
  resolution?: Resolution;
}

export interface JoinedObjects {
  cluster?: KubeObject;
  machine?: KubeObject;
  planSecret?: KubeObject;
  bootstrap?: KubeObject;
  infraMachine?: KubeObject;
  mgmtNode?: KubeObject;
  node?: KubeObject;
  /** the kubelet's Lease of its Node (kube-node-lease), read only while some Node's status is stale */
  lease?: KubeObject;
}

export interface EngineConfig {
  /** How long a machine may wait for its agent before it counts as never checked in (ms) */
  agentCheckInTimeoutMs: number;
  /** Like Cluster API's MachineHealthCheck nodeStartupTimeout */
  nodeStartupTimeoutMs: number;
  planApplyTimeoutMs: number;
  probeFailureTimeoutMs: number;
  stuckDeletingTimeoutMs: number;
  nodeNotReadyTimeoutMs: number;
  /**
   * A Ready Node whose status is older than this was written by nothing since: kubelet writes it at least every
   * 5 min (nodeStatusReportFrequency), and Kubernetes marks a Node it stopped hearing from Unknown within a minute
   */
  nodeStatusStaleMs: number;
  /** Windows workers below this much memory fail to start kubelet reliably */
  windowsMinMemoryBytes: number;
  /** How long a node may run another kubelet version than the cluster's while an upgrade goes on */
  upgradeTimeoutMs: number;
  /** How long a node may stay cordoned or draining */
  drainTimeoutMs: number;
  /** Lifetime of the self-signed kube-controller-manager and kube-scheduler serving certificates */
  servingCertLifetimeMs: number;
  /** How long the cluster agent may be disconnected before it counts */
  clusterAgentTimeoutMs: number;
}

/** What a scoped load (one record's objects, engine/scoped.ts) read beyond the record's own chain. */
export interface RecordScope {
  /** every machine of the record's pool was read (with its Node), so it is compared with its pool */
  poolRead: boolean;
  /** whether the cluster has a worker machine (one was asked for); absent when that could not be told */
  workers?: boolean;
}

export interface DiagnoseOptions {
  /** RFC3339 or epoch ms; results are computed against it so they are reproducible */
  now: string | number | Date;
  config?: Partial<EngineConfig>;
  availability?: InputAvailability;
  /** Cluster (provisioning name or management id) to attach Nodes to when the objects do not tell */
  defaultCluster?: string;
  /**
   * The clusters' identity as the caller read it, each for the cluster object of the same namespace and name among
   * the objects; a cluster object without one has it read from itself (kubectl output)
   */
  clusters?: ClusterIdentity[];
  /** Host reports (read with readHostReport), joined to their machines as evidence */
  hostReports?: HostReport[];
  /**
   * The downstream Node list was not read and the Nodes given are Rancher's copies (the fleet): what only that list
   * can tell is left to the cluster's tab, and the records say so (engine/nodes-left-to-tab.ts).
   */
  nodesLeftToTab?: boolean;
  /**
   * The objects are one record's and its cluster's context, not the whole cluster's (the record tab): what only the
   * whole cluster tells is said in a note on the record (engine/scoped.ts).
   */
  scoped?: RecordScope;
}

export interface DiagnosisReport {
  now: string;
  clusters: ClusterInfo[];
  records: NodeRecord[];
  counts: Record<RecordStatus, number>;
  /** Objects that were recognised but could not be used, with the reason */
  skipped: { object: string; reason: string }[];
  /** Every host report given, with the record it was joined to (null: it matches no machine) */
  hosts: HostReportMatch[];
  /** Kubernetes Events given with the objects (a bundle's, kubectl's), for the records' timelines; absent when none */
  events?: KubeObject[];
  /** Rancher's provisioning Jobs given with the objects, each with its pod's last log lines (timeline.ts); absent when none */
  jobs?: KubeObject[];
}
