/**
 * What Rancher's planner (pkg/capr/planner) and its cluster controllers write to a provisioning cluster's
 * Updated, Provisioned and Ready conditions, matched by stable fragments: the per-tier forms that name the
 * machines it waits for (setMachineConditionStatus, reconcile; atMostThree joins at most three names by commas,
 * then "and N more"), what it waits for, and the cluster-wide states. The rules import their patterns from here.
 */
import type { SignalEntry, SignalTable } from './table';

export interface PlannerMessageSignal extends SignalEntry {
  pattern: RegExp;
  /** A message as the planner writes it (from the source or a thread) */
  example: string;
  /**
   * The planner names the machine it was configuring, but waits for something of the whole cluster (the agent,
   * Rancher's pre-bootstrap): that machine is not what holds the cluster back.
   */
  waitsForCluster?: true;
}

const PLANNER = 'rancher pkg/capr/planner';

/** atMostThree (pkg/capr/planner/messages.go): three names joined by commas, then " and N more". */
const UNNAMED_MACHINES = /[^\s,]+,[^\s,]+,[^\s,]+ and (\d+) more\b/;

/** How many machines the planner's message leaves unnamed: the N of "a,b,c and N more", else 0. */
export function unnamedMachines(message: string | null): number {
  const m = message ? UNNAMED_MACHINES.exec(message) : null;

  return m ? Number(m[1]) : 0;
}
const CONDITIONS = 'status.conditions[Updated|Provisioned|Ready].message';

/** The planner's errors are read from Updated, False/Error (release data missing is a wait), once they outlast a plan apply. */
const STOPPED = 'False/Error (release data: not True), message matches, past the plan-apply threshold';

function message(id: string, pattern: RegExp, rule: string, severity: SignalEntry['severity'], source: string, example: string, when = 'not True, message matches'): PlannerMessageSignal {
  return {
    id, object: 'cluster', field: when === STOPPED ? 'status.conditions[Updated].message' : CONDITIONS, when, pattern, severity, rule, source, fix: [], example
  };
}

export const TIER_MACHINES = /\b(node|machine)\(s\) /i;
export const WAITING = /waiting (for|to stop)\b/i;
/**
 * The rotation's own words for each machine (assignAndCheckPlan with "[<machine>] certificate rotation"): starting,
 * waiting for it (or its probes), and failed. "certificate rotation done" is said once, as the pause is lifted.
 */
export const CERTIFICATE_ROTATION_WAITING = /\b(starting|waiting for) \[[^\]]+\] certificate rotation\b/i;
export const CERTIFICATE_ROTATION_FAILED = /\boperation \[[^\]]+\] certificate rotation failed\b/i;
/**
 * An etcd snapshot restore (pkg/capr/planner/etcdrestore.go) and an encryption key rotation
 * (encryptionkeyrotation.go) pause the CAPI cluster while they run, as a certificate rotation does, and leave it
 * paused when they fail: "operation etcd restore failed" (store.go assignAndCheckPlan), and "encryption key rotation
 * failed, please perform an etcd restore: …". Their other words: "shutting down cluster", "stopping rke2 services on
 * control plane and etcd machines/nodes", "waiting to stop rke2 services on machine [m]", "cluster shutdown complete,
 * running etcd restore", "starting|waiting for etcd restore [probes]"; "starting|waiting for encryption key rotation
 * [phase] for machine [m]", "elected m as control plane leader for encryption key rotation".
 */
export const ETCD_RESTORE = /\betcd restore\b|^shutting down cluster$|^stopping \S+ services on control plane and etcd machines|\bwaiting to stop \S+ services on (machine|node) \[/i;
export const ETCD_RESTORE_FAILED = /\boperation etcd restore failed\b/i;
export const ENCRYPTION_KEY_ROTATION = /\bencryption key rotation\b/i;
export const ENCRYPTION_KEY_ROTATION_FAILED = /\bencryption key rotation failed\b/i;
export const WAITING_FOR_KUBELET = /waiting for kubelet to update/i;
/** The planner's drain words; a failing drain or uncordon is "error draining machine <m>: <error>" (drain.go checkForDrainError). */
export const DRAIN_MESSAGE = /^(draining|uncordoning) |draining node|waiting for uncordon to finish|\berror (un)?draining machine\b/i;
export const RECONCILIATION_PAUSED = /CAPI cluster or RKEControlPlane is paused/i;
export const INIT_NODE_LOST = /init node not found|unable to find designated init node/i;
/**
 * planner.go Process, once the control plane was initialized: "rkecontrolplane was already initialized but no etcd
 * machines exist that have plans, indicating the etcd plane has been entirely replaced. Restoration from etcd
 * snapshot is required." Rancher elects no new init node then; only a restore brings the cluster back.
 */
export const ETCD_PLANE_REPLACED = /no etcd machines exist that have plans|etcd plane has been entirely replaced/i;
export const AGENT_WAITING = /waiting for cluster agent to connect/i;
/**
 * planner.go reconcile, for a control-plane machine while the cluster has pre-bootstrap manifests left (feature
 * provisioningprebootstrap): Rancher has not yet copied the secrets marked for pre-bootstrap into the cluster
 * (managementuser/secret bootstrap), which then sets the management cluster's PreBootstrapped True. Until then it
 * keeps the management cluster's Connected False, whatever the agent does (clusterconnected.go).
 */
export const PRE_BOOTSTRAP_WAITING = /waiting for cluster pre-bootstrap to complete/i;
export const AGENT_NOT_CONNECTED = /cluster agent is not connected/i;
/**
 * initnode.go electInitNode: no etcd machine can be the init node, none being both not deleting, not Failed and with its
 * infrastructure ready (planentry.go canBeInitNode). The planner plans nothing until one is.
 */
export const VIABLE_INIT_NODE = /waiting for viable init node/i;
/**
 * What the planner waits for before any machine of a tier gets a plan (planner.go Process), words no rule reads on
 * their own: the CAPI Cluster's infrastructure ("waiting for infrastructure ready", before anything else), the init
 * node's join URL ("waiting for join url to be available on bootstrap node", harvester#1993), and a control-plane
 * machine with one ("waiting for control plane to be available", rancher#50065). Rancher writes a server's join URL
 * on its plan secret (store.go setMachineJoinURL) from the Machine's InternalIP or ExternalIP address once Cluster API
 * has copied the Node's nodeInfo to it (an etcd-only init node: from its agent's output). When nothing else of the
 * cluster explains such a wait, the cluster's safety net names what it waits for (rules/safety-net.ts).
 */
export const INFRASTRUCTURE_WAIT = /\bwaiting for infrastructure ready\b/i;
export const INIT_NODE_JOIN_URL_WAIT = /\bjoin url to be available on bootstrap node\b/i;
export const CONTROL_PLANE_WAIT = /\bwaiting for control plane to be available\b/i;
export const ROLES_MISSING = /waiting for at least one control plane, etcd, and worker node to be registered/i;

/**
 * The API server's optimistic-concurrency refusal ("Operation cannot be fulfilled on … the object has been modified;
 * please apply your changes to the latest version and try again", rancher#50065): the planner meets one whenever
 * another controller wrote first, and its next pass succeeds. Never a stopped planner.
 */
export const CONFLICT = /the object has been modified; please apply your changes to the latest version/i;
/**
 * Errors the planner stops on (its controller writes them False/Error) and its one wait that no pass of its own ends,
 * by their stable fragments (pkg/capr/planner planner.go Process and determineJoinURL, filter.go, config.go renderFiles,
 * initnode.go, etcdrestore.go).
 */
export const KDM_MISSING = /\bKDM release data is empty for\b|\bcould not find release data\b|\bunable to find KDM release data\b/i;
export const FILES_UNUSABLE = /\berror rendering files\b|\bwhile rendering files\b|\bdoes not contain the expected content\b|\bcloud-provider-config\b/i;
export const INIT_NODES_MANY = /\bmultiple init nodes found\b|\bmore than one init node existed\b|\bmultiple machines found with identical machine ID label\b/i;
export const NO_JOIN_URL = /\bno suitable join URL found\b/i;

export const PLANNER_MESSAGES: readonly PlannerMessageSignal[] = [
  message('tierNodes', TIER_MACHINES, 'blocking-cluster-operation', 'error', `${ PLANNER }/planner.go setMachineConditionStatus`,
    'configuring bootstrap node(s) custom-2d74d4c9a104: waiting for agent to check in and apply initial plan'),
  message('tierMachines', TIER_MACHINES, 'blocking-cluster-operation', 'error', `${ PLANNER }/planner.go reconcile (failing, non-ready)`,
    'non-ready etcd machine(s) custom-2d74d4c9a104: Node condition Ready is False'),
  message('waiting', WAITING, 'blocking-cluster-operation', 'error', `${ PLANNER }/etcdrestore.go, store.go`,
    'waiting to stop rke2 services on machine [custom-2d74d4c9a104]'),
  message('certificateRotation', CERTIFICATE_ROTATION_WAITING, 'blocking-cluster-operation', 'error', `${ PLANNER }/certificaterotation.go, store.go assignAndCheckPlan`,
    'waiting for [custom-2d74d4c9a104] certificate rotation'),
  message('certificateRotationFailed', CERTIFICATE_ROTATION_FAILED, 'blocking-cluster-operation', 'error', `${ PLANNER }/certificaterotation.go, store.go assignAndCheckPlan`,
    'operation [custom-2d74d4c9a104] certificate rotation failed'),
  message('kubeletUpdate', WAITING_FOR_KUBELET, 'kubelet-version-skew', 'warning', `${ PLANNER }/planner.go (harvester#6041)`,
    'configuring control plane node(s) custom-4f0d2b9e6a13: waiting for kubelet to update'),
  message('drain', DRAIN_MESSAGE, 'drain-stuck', 'warning', `${ PLANNER }/drain.go (rancher#37503)`,
    'draining worker node(s) custom-9a6e3d0f2c71: draining node'),
  message('paused', RECONCILIATION_PAUSED, 'reconciliation-paused', 'warning', `${ PLANNER }/planner.go`,
    'CAPI cluster or RKEControlPlane is paused'),
  message('rolesMissing', ROLES_MISSING, 'role-missing', 'error', `${ PLANNER }/planner.go clusterIsSane`,
    'waiting for at least one control plane, etcd, and worker node to be registered'),
  message('viableInitNode', VIABLE_INIT_NODE, 'init-node-not-viable', 'error', `${ PLANNER }/initnode.go electInitNode, planentry.go canBeInitNode (rancher-docs#585)`,
    'waiting for viable init node'),
  message('etcdPlaneReplaced', ETCD_PLANE_REPLACED, 'init-node-missing', 'error', `${ PLANNER }/planner.go Process`,
    'rkecontrolplane was already initialized but no etcd machines exist that have plans, indicating the etcd plane has been entirely replaced. Restoration from etcd snapshot is required.'),
  message('initNodeLost', INIT_NODE_LOST, 'init-node-missing', 'error', `${ PLANNER }/initnode.go (rancher#37133)`,
    'init node not found'),
  message('kdmMissing', KDM_MISSING, 'planner-error', 'error', `${ PLANNER }/planner.go Process, filter.go (rancher#46046)`,
    'fleet-default/prod: KDM release data is empty for v1.31.4+rke2r1', STOPPED),
  message('filesUnusable', FILES_UNUSABLE, 'planner-error', 'error', `${ PLANNER }/config.go (machineSelectorFiles, cloud-provider-config)`,
    'error rendering files: cluster fleet-default/prod was not authorized to access secret fleet-default/registry-ca', STOPPED),
  message('initNodesMany', INIT_NODES_MANY, 'planner-error', 'error', `${ PLANNER }/initnode.go, etcdrestore.go`,
    'multiple init nodes found', STOPPED),
  message('noJoinUrl', NO_JOIN_URL, 'planner-error', 'error', `${ PLANNER }/planner.go determineJoinURL`,
    'no suitable join URL found to join machine fleet-default/prod-pool1-7d9f8-x2k4q in rkecluster fleet-default/prod to', STOPPED),
  {
    ...message('agentWaiting', AGENT_WAITING, 'cluster-agent-disconnected', 'error', 'rancher pkg/controllers/provisioningv2/cluster',
      'waiting for cluster agent to connect'),
    waitsForCluster: true
  },
  {
    ...message('preBootstrap', PRE_BOOTSTRAP_WAITING, 'pre-bootstrap-pending', 'error', `${ PLANNER }/planner.go reconcile`,
      'configuring bootstrap node(s) custom-0fdaa5766c14: waiting for cluster pre-bootstrap to complete'),
    waitsForCluster: true
  },
  message('agentNotConnected', AGENT_NOT_CONNECTED, 'cluster-agent-disconnected', 'error', 'rancher management cluster Ready (rancher#48585)',
    'Cluster agent is not connected'),
];

export const PLANNER_TABLE: SignalTable = {
  id: 'planner', title: "Rancher's planner: messages on the provisioning cluster's conditions", entries: PLANNER_MESSAGES
};
