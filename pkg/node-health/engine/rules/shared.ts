/**
 * Checks and steps that rules of more than one family use: whether the infrastructure behind a machine is
 * gone, and how to find a machine's host and read its agent.
 */
import type { Evidence, KubeObject, NodeRecord } from '../types';
import {
  conditionPath, conditionStatus, findUnhealthyConditionSaying, getCondition, nodeReadyCondition, rawCondition, readyHeartbeat
} from '../conditions';
import type { Condition } from '../conditions';
import { annotation, asObject, asString, nameOf } from '../fields';
import { INFRASTRUCTURE_GONE, bootstrapRef, failureMessage, infrastructureRef } from '../objects';
import { COPIED_FROM_ANNOTATION } from '../nodes-left-to-tab';
import { LIVE_HEARTBEAT_MS, leaseRenewTime, leaseRenewedWithinMs } from '../leases';
import {
  RuleContext, commonStep, evidence, kubectl, objectLabel, olderThan, sh
} from './rule';
import { jobSignals } from '../signals/infrastructure';
import { sameHostWith } from '../hosts';
import type { MessageArgs, Role } from '../vocabulary';
import { ANNOTATIONS } from '../vocabulary';

/** Where the system agent keeps its connection to Rancher, and so the name of its plan secret. */
export const CONNECTION_INFO_PATH = {
  linux:   '/var/lib/rancher/agent/rancher2_connection_info.json',
  windows: 'C:\\var\\lib\\rancher\\agent\\rancher2_connection_info.json',
};

function infrastructureFailureOf(kind: 'infraMachine' | 'machine', obj: KubeObject | undefined): Evidence | null {
  if (!obj) {
    return null;
  }
  const message = failureMessage(obj);

  if (message && INFRASTRUCTURE_GONE.test(message)) {
    return evidence(objectLabel(kind, obj), 'status.failureMessage', message);
  }
  const c = findUnhealthyConditionSaying(obj, INFRASTRUCTURE_GONE);

  if (c) {
    return evidence(objectLabel(kind, obj), `${ conditionPath(c) }.message`, c.message);
  }
  const stateMessage = asString(asObject(asObject(obj.metadata).state).message);

  if (stateMessage && INFRASTRUCTURE_GONE.test(stateMessage)) {
    return evidence(objectLabel(kind, obj), 'metadata.state.message', stateMessage);
  }

  return null;
}

/**
 * Rancher's infrastructure machine reports that deleting its server failed: the delete job's pod exited with an
 * error (pkg/controllers/capr/machineprovision: status.failureReason DeleteError, condition DeleteJob False, the
 * message "failed deleting server [<ns>/<name>] of kind (<Kind>) for machine <machine> in infrastructure
 * provider: DeleteError: <the driver's words>"), or the Machine mirrors it (InfrastructureReady reason DeleteError,
 * what Rancher's Machines tab offers its Force Delete on). The server may still exist.
 */
export interface InfrastructureDeleteError {
  /** where it was read: the infrastructure machine when it is there, else the Machine */
  object: string;
  evidence: Evidence[];
  message: string | null;
  since: string | null;
  /** the infrastructure machine's delete job, when it names one (status.jobName) */
  jobName: string | null;
}

/** The two jobs Rancher runs per infrastructure machine, as machineprovision names their outcome (the infrastructure signal table). */
const INFRASTRUCTURE_JOBS = { create: jobSignals('create'), delete: jobSignals('delete') } as const;

/** What Rancher's infrastructure machine (else the Machine that mirrors it) says about a failed create or delete job. */
export function infrastructureJobError(r: NodeRecord, job: keyof typeof INFRASTRUCTURE_JOBS): InfrastructureDeleteError | null {
  const infra = r.objects.infraMachine;
  const m = r.objects.machine;
  const { reason, condition, message: saying } = INFRASTRUCTURE_JOBS[job];

  if (infra) {
    const status = asObject(infra.status);

    // Nearly every infrastructure machine: no failure reason, neither condition False; nothing is made of them.
    if (asString(status.failureReason) !== reason && conditionStatus(infra, condition) !== 'False' && conditionStatus(infra, 'Ready') !== 'False') {
      return null;
    }
    const jobCondition = getCondition(infra, condition);
    const ready = getCondition(infra, 'Ready');
    const failed = asString(status.failureReason) === reason;
    const jobFailed = !!jobCondition && jobCondition.status === 'False';
    const readySays = !!ready && ready.status === 'False' && (ready.reason === reason || saying.test(ready.message ?? ''));

    if (!failed && !jobFailed && !readySays) {
      return null;
    }
    const shown = jobFailed ? jobCondition : readySays ? ready : null;
    // Named only for a finding: most records have no failed job.
    const label = objectLabel('infraMachine', infra);
    const ev: Evidence[] = [
      ...(failed ? [evidence(label, 'status.failureReason', reason)] : []),
      ...(asString(status.failureMessage) ? [evidence(label, 'status.failureMessage', asString(status.failureMessage))] : []),
      ...(shown ? [evidence(label, `${ conditionPath(shown) }.message`, shown.message), evidence(label, `${ conditionPath(shown) }.lastTransitionTime`, shown.lastTransitionTime)] : []),
    ];

    return {
      object:   label,
      evidence: ev,
      message:  asString(status.failureMessage) ?? shown?.message ?? null,
      since:    shown?.lastTransitionTime ?? null,
      jobName:  asString(status.jobName),
    };
  }
  if (!m) {
    return null;
  }
  const mirroredStatus = conditionStatus(m, 'InfrastructureReady');
  const mirrored = mirroredStatus !== null && mirroredStatus !== 'True' ? getCondition(m, 'InfrastructureReady') : null;

  if (mirrored && mirrored.status !== 'True' && mirrored.reason === reason) {
    const label = objectLabel('machine', m);

    return {
      object:   label,
      evidence: [evidence(label, `${ conditionPath(mirrored) }.reason`, mirrored.reason), evidence(label, `${ conditionPath(mirrored) }.message`, mirrored.message)],
      message:  mirrored.message,
      since:    mirrored.lastTransitionTime,
      jobName:  null,
    };
  }
  // v1beta1 copies the infrastructure's failure onto the Machine ("Failure detected from referenced resource ...").
  const status = asObject(m.status);
  const failureReason = asString(status.failureReason) ?? asString(asObject(asObject(status.deprecated).v1beta1).failureReason);

  if (failureReason === reason) {
    const text = failureMessage(m);
    const label = objectLabel('machine', m);

    return {
      object:   label,
      evidence: [evidence(label, 'status.failureReason', failureReason), evidence(label, 'status.failureMessage', text)],
      message:  text,
      since:    null,
      jobName:  null,
    };
  }

  return null;
}

export function infrastructureDeleteError(r: NodeRecord): InfrastructureDeleteError | null {
  return infrastructureJobError(r, 'delete');
}

/** Infrastructure failure on the infrastructure machine, else the machine, with where it was read. */
export function infrastructureFailure(r: NodeRecord): Evidence | null {
  return infrastructureFailureOf('infraMachine', r.objects.infraMachine) ?? infrastructureFailureOf('machine', r.objects.machine);
}

/** The job Rancher runs for a machine's server, as its infrastructure machine names it (status.jobName). */
export function infrastructureJobName(r: NodeRecord): string | null {
  return r.objects.infraMachine ? asString(asObject(r.objects.infraMachine.status).jobName) : null;
}

/**
 * The last lines of a provisioning job's log, where the machine driver says what it did. `kubectl logs` takes its flags
 * before the names; the job's name comes from the cluster and is quoted.
 */
export function jobLogCommand(job: string, namespace: string | null | undefined): string {
  return kubectl('logs', '--tail=50', [`job/${ job }`], { namespace: namespace ?? undefined });
}

/** Restarts Cluster API's controller, which then reads the downstream cluster's Nodes anew through a new watch. */
export const RESTART_CAPI_CONTROLLER = 'kubectl -n cattle-provisioning-capi-system rollout restart deployment capi-controller-manager';

/** What Cluster API's controller logged of one object (a machine, a cluster) over the last `since` (1h, 2h). */
export function capiControllerLog(name: string | null | undefined, since: string): string {
  return `kubectl -n cattle-provisioning-capi-system logs deployment/capi-controller-manager --since=${ since } | grep -F ${ sh(name ?? '') }`;
}

/** Removes one annotation from the record's Machine. */
export function removeMachineAnnotation(r: NodeRecord, key: string): string {
  return kubectl('annotate', 'machines.cluster.x-k8s.io', [r.machineName], { namespace: r.machineNamespace, after: [`${ key }-`] });
}

/** Lifts the pause set on the machine itself: removes its cluster.x-k8s.io/paused annotation. */
export function resumeMachineCommand(r: NodeRecord): string {
  return removeMachineAnnotation(r, ANNOTATIONS.capiPaused);
}

/**
 * The join URLs Rancher wrote on the plan secrets of one role (the label given, "true"): a server's is its
 * rke.cattle.io/join-url annotation, which the other machines join through.
 */
export function joinUrlsCommand(namespace: string | null, roleLabel: string): string {
  return `kubectl -n ${ sh(namespace) } get secrets -l ${ roleLabel }=true --field-selector type=rke.cattle.io/machine-plan -o custom-columns='NAME:.metadata.name,JOIN-URL:.metadata.annotations.${ ANNOTATIONS.joinUrl.replace(/\./g, '\\.') }'`;
}

/**
 * The server behind a machine is not ready yet, or never became so: the Machine's InfrastructureReady is not True while
 * its infrastructure machine is there (or could not be read) and a provider makes it (a node driver's create job,
 * another Cluster API provider). Cluster API links a Node only once the infrastructure is ready and reports the
 * server's providerID. A custom host's CustomMachine is ready as soon as Rancher makes it (capr/unmanaged), so it
 * never waits here.
 */
export function infrastructurePending(r: NodeRecord): Condition | null {
  const m = r.objects.machine;
  const ref = m ? infrastructureRef(m) : null;

  if (!m || !ref || ref.group === 'rke.cattle.io') {
    return null;
  }
  // Not among the infrastructure machines read: it is gone, which infrastructure-missing says, not on its way.
  if (!r.objects.infraMachine && r.inputs.infraMachines === 'ok') {
    return null;
  }

  // Nearly always True: settled without making the condition.
  return conditionStatus(m, 'InfrastructureReady') === 'True' ? null : getCondition(m, 'InfrastructureReady');
}

/**
 * Cluster API's own words that the infrastructure machine went while the Machine lives: v1beta2 InfrastructureReady
 * False with reason ObjectDeleted ("<Kind> has been deleted while the Machine still exists"), v1beta1's failure
 * message "Machine infrastructure resource <kind> with name "<name>" has been deleted after being ready".
 */
const INFRASTRUCTURE_DELETED = /has been deleted (while the Machine still exists|after being ready)/;

function infrastructureDeletedSaid(m: KubeObject): Evidence | null {
  // Nearly always True: settled without making the condition.
  const c = conditionStatus(m, 'InfrastructureReady') === 'False' ? getCondition(m, 'InfrastructureReady') : null;

  if (c && c.status === 'False' && (c.reason === 'ObjectDeleted' || INFRASTRUCTURE_DELETED.test(c.message ?? ''))) {
    return evidence(objectLabel('machine', m), `${ conditionPath(c) }.message`, c.message ?? c.reason);
  }
  const failure = failureMessage(m);

  return failure && INFRASTRUCTURE_DELETED.test(failure) ? evidence(objectLabel('machine', m), 'status.failureMessage', failure) : null;
}

/**
 * The infrastructure machine a Machine refers to is not there: not among the infrastructure machines read, or,
 * where they could not be read, Cluster API says it was deleted.
 */
export function infrastructureObjectGone(r: NodeRecord, ctx: Pick<RuleContext, 'availability'>): Evidence | null {
  const m = r.objects.machine;

  // What nearly every record settles on before its reference is read: its infrastructure machine is there.
  if (!m || r.objects.infraMachine || r.deleting) {
    return null;
  }
  if ((r.inputs ?? ctx.availability).infraMachines !== 'ok') {
    return infrastructureDeletedSaid(m);
  }
  const ref = infrastructureRef(m);

  if (!ref) {
    return null;
  }

  return evidence(`${ ref.kind ?? 'InfrastructureMachine' } ${ r.machineNamespace ?? '' }/${ ref.name }`, 'metadata.name', null);
}

/** The machine's RKEBootstrap, whole: `kubectl get -o yaml` (by the machine's name where its bootstrap ref is not read). */
export function rkeBootstrapYaml(r: NodeRecord): string {
  const m = r.objects.machine;

  return kubectl('get', 'rkebootstraps.rke.cattle.io', [(m ? bootstrapRef(m)?.name : null) ?? r.machineName], { namespace: r.machineNamespace ?? undefined, flags: ['-o yaml'] });
}

/**
 * Whether the machine is a custom cluster's host: its infrastructure machine is the CustomMachine Rancher made when
 * the host registered, with no provider, no server and no pool behind it.
 */
export function customHost(r: NodeRecord): 'yes' | 'no' {
  return r.objects.machine && infrastructureRef(r.objects.machine)?.kind === 'CustomMachine' ? 'yes' : 'no';
}

/**
 * The moment a Node said Ready True that nothing has written since for longer than node-status-stale allows
 * (`nodeStatusStaleMs`), or null. Rancher's copy of a Node keeps no heartbeat: it is never judged stale.
 */
export function staleReadyBeat(node: KubeObject, ctx: RuleContext): string | null {
  const raw = rawCondition(node, 'Ready');

  if (!raw || raw.status !== 'True' || annotation(node, COPIED_FROM_ANNOTATION) !== null) {
    return null;
  }
  const beat = asString(raw.lastHeartbeatTime);

  return beat && olderThan(ctx, beat, ctx.config.nodeStatusStaleMs) ? beat : null;
}

/**
 * What a record's Lease says of its kubelet: `unread` where the cluster's Leases were not read (a healthy cluster's
 * never are) or could not be, or where its Lease says no time of renewal; `missing` where they were and its Node
 * has none; `renewed` where the kubelet renewed it within three of its durations, `stopped` where it did not. `age`:
 * how long ago it was renewed (ms). Judged at `now`, or through the rule's context, which makes the moment a
 * renewed Lease stops counting as renewed one the record's judgement depends on.
 */
export type LeaseReading =
  | { state: 'unread' }
  | { state: 'missing' }
  | { state: 'renewed' | 'stopped'; lease: KubeObject; renewTime: string; age: number };

export function readLease(r: NodeRecord, at: number | RuleContext): LeaseReading {
  const lease = r.objects.lease;

  if (!lease) {
    return r.inputs.leases === 'ok' && r.objects.node ? { state: 'missing' } : { state: 'unread' };
  }
  const renewTime = leaseRenewTime(lease);
  const renewed = Date.parse(renewTime ?? '');

  // A Lease that says no time of renewal tells nothing either way.
  if (renewTime === null || Number.isNaN(renewed)) {
    return { state: 'unread' };
  }
  const now = typeof at === 'number' ? at : at.now;
  const within = leaseRenewedWithinMs(lease);
  const old = typeof at === 'number' ? now >= renewed + within : olderThan(at, renewTime, within);

  return {
    state: old ? 'stopped' : 'renewed', lease, renewTime, age: Math.max(0, now - renewed)
  };
}

/** How old the kubelet's last Ready status is (ms), or null when it says no time (Rancher's copy of a Node keeps none). */
export function readyAge(node: KubeObject, now: number): number | null {
  const beat = Date.parse(readyHeartbeat(node) ?? '');

  return Number.isNaN(beat) ? null : Math.max(0, now - beat);
}

/**
 * Whether the machine's host is heard from now, and how: its kubelet wrote its Node's Ready (True or False, not the
 * controller's Unknown) within LIVE_HEARTBEAT_MS, or, its status being older, it renews its Lease. A host heard from
 * is not gone; the delete's preflight (hostGone) and the plans that ask to delete a machine "if its host is gone" read
 * it alike.
 */
export function hostHeard(r: NodeRecord, at: number | RuleContext): { by: 'status' | 'lease'; ago: number } | null {
  const node = r.objects.node;
  const status = node ? nodeReadyCondition(node)?.status : undefined;

  if (!node || (status !== 'True' && status !== 'False')) {
    return null;
  }
  const ago = readyAge(node, typeof at === 'number' ? at : at.now);

  if (ago !== null && ago <= LIVE_HEARTBEAT_MS) {
    return { by: 'status', ago };
  }
  const lease = readLease(r, at);

  return lease.state === 'renewed' ? { by: 'lease', ago: lease.age } : null;
}

/** Why a cluster member's health cannot be told: its Nodes could not be read, its Node says no Ready, or a stale one. */
export type NotKnown = 'nodesUnreadable' | 'noReady' | 'stale';

/** An etcd or control-plane member's health, and what says it. */
export type MemberReading =
  | { health: 'healthy' }
  | { health: 'unhealthy'; cause: 'nodeGone' | 'notReady' | 'etcdProbe'; ready?: Condition }
  | { health: 'unknown'; why: NotKnown };

/**
 * A member's health by its Node as the kubelet last reported it and, for etcd, its plan's etcd probe. Ready True
 * counts only where `stale` does not call it too old to be the kubelet's current word: the cluster's findings take
 * node-status-stale's bound, a write's preflight its own stricter one. The one reading both judge by.
 */
export function readMember(r: NodeRecord, role: Role, stale: (node: KubeObject) => boolean): MemberReading {
  const n = r.objects.node;

  if (!n) {
    // Its Node is gone, or could not be read.
    return r.inputs.nodes === 'ok' ? { health: 'unhealthy', cause: 'nodeGone' } : { health: 'unknown', why: 'nodesUnreadable' };
  }
  const ready = nodeReadyCondition(n);

  if (!ready) {
    return { health: 'unknown', why: 'noReady' };
  }
  if (ready.status !== 'True') {
    return {
      health: 'unhealthy', cause: 'notReady', ready
    };
  }
  if (role === 'etcd' && r.plan.unhealthyProbes.includes('etcd')) {
    return { health: 'unhealthy', cause: 'etcdProbe' };
  }

  return stale(n) ? { health: 'unknown', why: 'stale' } : { health: 'healthy' };
}

/**
 * The Node another record has that is most likely this machine's host, in the words of a step: its name, how sure,
 * and the strongest value they share. Null when no record is.
 */
export function relatedHostArgs(r: NodeRecord): MessageArgs | null {
  const host = sameHostWith(r, 'node');

  if (!host || !host.node) {
    return null;
  }
  const shared = host.shared[0];

  return {
    node: host.node, certainty: host.sameHost ?? 'likely', signal: shared?.signal ?? '-', value: shared?.value ?? '-'
  };
}

/**
 * The address the machine's agent registered with: the plan secret's rke.cattle.io/address (the registration
 * command's --address, or what the agent found), 'none' where the secret does not say.
 */
function registeredAddress(r: NodeRecord): string {
  const secret = r.objects.planSecret;

  return (secret ? annotation(secret, ANNOTATIONS.address) ?? annotation(secret, ANNOTATIONS.internalAddress) : null) || 'none';
}

/**
 * The agent's last hour: all of it, or the plan's command that failed and the lines before it. system-agent's
 * applyinator logs "error executing instruction N" only for a one-time instruction of the plan; the periodic ones
 * (the init node's etcd address and name, the encryption-key status) fail every cycle while etcd is down and log no
 * such line, where their "exit code" lines would crowd out the plan's.
 */
const AGENT_LOG_LINUX = {
  connection: 'sudo journalctl -u rancher-system-agent --since -1h --no-pager | tail -n 50',
  failure:    "sudo journalctl -u rancher-system-agent --since -1h --no-pager | grep -B 40 'error executing instruction' | tail -n 80",
} as const;

/**
 * Steps to find the host that serves a machine, and read its agent's log: for why it cannot reach Rancher, or, once it
 * applied the plan and failed, for the command that failed (system-agent's applyinator logs each one as it ends).
 */
export function findHostSteps(r: NodeRecord, lookFor: 'connection' | 'failure' = 'connection'): ReturnType<typeof commonStep>[] {
  const windows = r.os === 'windows';
  const file = windows ? CONNECTION_INFO_PATH.windows : CONNECTION_INFO_PATH.linux;
  const secret = r.host.planSecretName ?? '';
  const command = windows ? `Select-String -Path '${ file }' -Pattern 'secretName'` : `sudo grep -o '"secretName": *"[^"]*"' ${ file }`;
  const ownNode = r.objects.machine && r.objects.node ? nameOf(r.objects.node) : null;
  const host = ownNode ? null : relatedHostArgs(r);

  return [
    // The machine's own Node is its host; else another record may show it: say which, rather than have every host searched.
    ownNode ? commonStep('hostOfNode', { node: ownNode, address: r.addresses.internal ?? r.addresses.external ?? 'none' }) : host ? commonStep('hostIs', {
      ...host, secret, file
    }, command) : commonStep('findHost', {
      secret, file, address: registeredAddress(r)
    }, command),
    windows ? commonStep('agentLogWindows', { lookFor }, 'Get-WinEvent -ProviderName rancher-wins -MaxEvents 50 | Format-List') : commonStep('agentLogLinux', { lookFor }, AGENT_LOG_LINUX[lookFor]),
  ];
}
