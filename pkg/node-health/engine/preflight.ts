/**
 * What each action checks before it may write, judged by the engine so that the dialog, the report and the command
 * line say the same: a list of checks, each passed (true), failed (false) or not judged (null, with why), over the
 * record and its cluster. An action is allowed only when no check failed and every safety check passed: a fix
 * that can orphan a VM or break etcd's quorum is worse than none. Whether the user may write is a check too, read
 * from Steve's `links.update`; input without links (kubectl output, a bundle) leaves it unjudged.
 */
import type {
  ActionId, ActionPreflight, ClusterInfo, Finding, KubeObject, NodeRecord, PreflightCheck, PreflightCheckId
} from './types';
import type { MessageArgs } from './vocabulary';
import { annotation, asObject, label, nameOf } from './fields';
import { getCondition, nodeReadyCondition } from './conditions';
import { ANNOTATIONS, LABELS } from './vocabulary';
import { infrastructureRef, nodeRefName } from './objects';
import { recordsByCluster } from './cluster-info';
import {
  customHost, hostHeard, infrastructureDeleteError, readyAge, readMember
} from './rules/shared';
import { LIVE_HEARTBEAT_MS } from './leases';

interface Context {
  now: number;
  /** the records of the same cluster */
  siblings: NodeRecord[];
}

function check(id: PreflightCheckId, ok: boolean | null, outcome: string, args: MessageArgs = {}): PreflightCheck {
  return {
    id, ok, key: `nodeHealth.preflight.${ id }.${ outcome }`, args
  };
}

/**
 * Whether the machine's host is gone, by what Kubernetes says of its Node. Only Kubernetes' node lifecycle
 * controller says a kubelet stopped: it sets Ready Unknown (NodeStatusUnknown) once the kubelet renewed neither
 * its Lease nor its status for the grace period (40-50 s). Ready True or False from a recent status is a kubelet
 * that runs; from an older one, and not Unknown, a reading that is stale (or a controller that does not run):
 * nothing can be told of the host then, and the check stays unjudged, which refuses the write. `forDelete` words
 * the outcomes for the delete instead of the finalizer removal.
 */
function hostGone(r: NodeRecord, ctx: Context, forDelete = false): PreflightCheck {
  const node = r.objects.node;

  if (!node) {
    if (r.inputs.nodes !== 'ok' && r.objects.machine && nodeRefName(r.objects.machine)) {
      return check('hostGone', null, 'unknown', { node: nodeRefName(r.objects.machine) ?? '?' });
    }

    // A Node at its address that no machine owns is the host to register again, not this machine still running.
    const host = (r.related ?? []).find((x) => x.sameHost && x.node && !x.machine);

    if (host) {
      return check('hostGone', true, 'likelyHost', {
        node: host.node ?? '?', certainty: host.sameHost ?? 'likely', signal: host.shared[0]?.signal ?? '-', value: host.shared[0]?.value ?? '-'
      });
    }

    return check('hostGone', true, 'noNode');
  }
  const name = nameOf(node) ?? '?';
  const ready = nodeReadyCondition(node);

  if (ready?.status === 'Unknown') {
    return check('hostGone', true, 'unheard', { node: name });
  }
  if (ready?.status !== 'True' && ready?.status !== 'False') {
    return check('hostGone', null, 'noReady', { node: name });
  }
  const heard = hostHeard(r, ctx.now);

  if (heard?.by === 'status') {
    const outcome = ready.status === 'True' ? 'alive' : 'reporting';

    return check('hostGone', false, forDelete ? `${ outcome }Delete` : outcome, { node: name, seconds: Math.round(heard.ago / 1000) });
  }
  // An old status with a Lease the kubelet renews: the kubelet runs, only its status writes fail.
  if (heard?.by === 'lease') {
    return check('hostGone', false, forDelete ? 'leaseRenewedDelete' : 'leaseRenewed', { node: name, seconds: Math.round(heard.ago / 1000) });
  }
  const ago = readyAge(node, ctx.now);

  return check('hostGone', null, 'stale', {
    node: name, status: ready.status, minutes: ago === null ? '?' : Math.round(ago / 60000)
  });
}

/** Removing a machine's finalizers while its infrastructure machine exists leaves the VM with nothing that owns it. */
function infrastructureGone(r: NodeRecord): PreflightCheck {
  const m = r.objects.machine;
  const ref = m ? infrastructureRef(m) : null;
  const infra = r.objects.infraMachine;

  if (infrastructureDeleteError(r)) {
    return check('infrastructureGone', false, 'deleteFailed', { object: `${ ref?.kind ?? 'InfrastructureMachine' } ${ ref?.name ?? '?' }` });
  }
  if (!ref) {
    return check('infrastructureGone', true, 'noReference');
  }
  if (ref.kind === 'CustomMachine') {
    // A custom host was never Rancher's to create: there is no VM to orphan.
    return check('infrastructureGone', true, 'custom', { object: `CustomMachine ${ ref.name }` });
  }
  if (infra) {
    return check('infrastructureGone', false, 'exists', { object: `${ ref.kind ?? 'InfrastructureMachine' } ${ ref.name }` });
  }
  if (r.inputs.infraMachines !== 'ok') {
    return check('infrastructureGone', null, 'unknown', { object: `${ ref.kind ?? 'InfrastructureMachine' } ${ ref.name }` });
  }

  return check('infrastructureGone', true, 'gone', { object: `${ ref.kind ?? 'InfrastructureMachine' } ${ ref.name }` });
}

type MemberHealth = { healthy: boolean } | { healthy: null, outcome: 'unknown' | 'stale', args: MessageArgs };

/**
 * Whether a member answers, by its Node as the kubelet last reported it. Ready True counts only from a status
 * recent enough to be the kubelet's current word: an older one that Kubernetes never marked Unknown is a stale
 * reading (the agent's view, or a control plane whose controllers stopped, as they do when etcd lost its
 * majority), and a member that may be down cannot be counted as healthy. The reading is the cluster findings'
 * (readMember), with this check's own bound: a write asks for a kubelet heard within LIVE_HEARTBEAT_MS.
 */
function healthyMember(r: NodeRecord, now: number): MemberHealth {
  const stale = (n: KubeObject) => {
    const ago = readyAge(n, now);

    return ago === null || ago > LIVE_HEARTBEAT_MS;
  };
  const reading = readMember(r, 'etcd', stale);
  const member = r.machineName ?? r.nodeName ?? '?';

  if (reading.health !== 'unknown') {
    return { healthy: reading.health === 'healthy' };
  }
  if (reading.why !== 'stale' || !r.objects.node) {
    return {
      healthy: null, outcome: 'unknown', args: { member }
    };
  }
  const ago = readyAge(r.objects.node, now);

  return {
    healthy: null,
    outcome: 'stale',
    args:    {
      member, node: nameOf(r.objects.node) ?? '?', minutes: ago === null ? '?' : Math.round(ago / 60000)
    }
  };
}

/**
 * What taking this member away leaves: never the last member, never fewer healthy members than a majority. A
 * delete goes through Rancher's safe removal (the pre-terminate hook removes the member from etcd first): the rest
 * must keep a majority of themselves. The etcd release and the finalizer removal skip it, so etcd may go on
 * listing a member that no longer answers (rancher pkg/controllers/capr/bootstrap: with etcd-force-remove the hook
 * is dropped and no member removed): the rest must keep a majority of every member etcd lists, this one included.
 */
function etcdQuorum(r: NodeRecord, ctx: Context, memberStays = false): PreflightCheck {
  if (!r.roles.includes('etcd')) {
    return check('etcdQuorum', true, 'notMember');
  }
  const members = ctx.siblings.filter((x) => x.roles.includes('etcd') && !!x.objects.machine && (!!x.objects.node || !!nodeRefName(x.objects.machine)));
  const others = members.filter((x) => x !== r);
  const health = others.map((x) => healthyMember(x, ctx.now));
  const unjudged = health.find((h) => h.healthy === null);

  if (unjudged && unjudged.healthy === null) {
    return check('etcdQuorum', null, unjudged.outcome, unjudged.args);
  }
  if (others.length === 0) {
    return check('etcdQuorum', false, 'lastMember');
  }
  const healthy = health.filter((h) => h.healthy).length;
  // A machine that never joined was never a member etcd could go on listing.
  const listed = memberStays && others.length < members.length;
  const counted = listed ? members.length : others.length;
  const quorum = Math.floor(counted / 2) + 1;
  const args = {
    healthy, members: counted, quorum
  };

  if (healthy < quorum) {
    return check('etcdQuorum', false, listed ? 'belowQuorumListed' : 'belowQuorum', args);
  }

  return check('etcdQuorum', true, listed ? 'keptListed' : 'kept', args);
}

/** An etcd machine held by Rancher's cleanup hook must be released (Rancher told to stop waiting for its member) before anything else. */
function etcdReleased(r: NodeRecord): PreflightCheck | null {
  const m = r.objects.machine;

  if (!m || annotation(m, ANNOTATIONS.etcdHook) === null) {
    return null;
  }
  const released = !!r.objects.bootstrap && annotation(r.objects.bootstrap, ANNOTATIONS.etcdForceRemove) === 'true';

  return released ? check('etcdReleased', true, 'released') : check('etcdReleased', false, 'held');
}

function clusterFinding(cluster: ClusterInfo | null, rule: string): boolean {
  return !!cluster?.findings.some((f) => f.rule === rule);
}

/** `machine: false` when the action is the machine's own resume: only a pause above it then stands in the way. */
function notPaused(r: NodeRecord, { machine = true, finalizers = false, deleting = false } = {}): PreflightCheck {
  const m = r.objects.machine;
  const pause = r.cluster?.findings.find((f) => f.rule === 'reconciliation-paused');

  // Rancher's own pause for a certificate rotation lifts once no machine holds the rotation back: removing a gone
  // machine's finalizers does not need Cluster API, a delete or a resume does.
  if (pause?.args.scope === 'rotation') {
    if (finalizers) {
      return check('notPaused', true, 'rotationLifts', { cluster: r.cluster?.name ?? '?' });
    }

    // A gone host's machine is deleted, then its finalizers removed once it is stuck (seed 000): the delete
    // waits, it does not harm. Resuming the machine alone changes nothing while the cluster is paused.
    return deleting ? check('notPaused', true, 'rotationDelete', { cluster: r.cluster?.name ?? '?' }) : check('notPaused', false, 'rotation', { cluster: r.cluster?.name ?? '?' });
  }
  if (pause) {
    return check('notPaused', false, machine ? 'cluster' : 'clusterToo', { cluster: r.cluster?.name ?? '?' });
  }
  if (machine && m && annotation(m, ANNOTATIONS.capiPaused) !== null) {
    return check('notPaused', false, 'machine');
  }

  return check('notPaused', true, 'running');
}

/**
 * A health check that marked the machine for remediation: its owner replaces it, or holds the replacement back
 * (RemediationDeferred: too many in flight, or its preflight checks, such as a control plane that is not stable),
 * a limit a deletion by hand would go around.
 */
function noRemediation(r: NodeRecord): PreflightCheck {
  const m = r.objects.machine;
  const owner = m ? getCondition(m, 'OwnerRemediated') : null;

  if (!owner || owner.status !== 'False') {
    return check('noRemediation', true, 'none');
  }

  return owner.reason === 'RemediationDeferred' ? check('noRemediation', false, 'deferred', { message: owner.message ?? '-' }) : check('noRemediation', false, 'pending', { reason: owner.reason ?? '?' });
}

/**
 * The agent's connection now, not past the finding's threshold: a write made while it is down is carried out by
 * nothing that reaches the cluster. Not judged where no cluster object says it.
 */
function agentConnected(r: NodeRecord): PreflightCheck {
  const cluster = r.cluster?.name ?? '?';

  if (clusterFinding(r.cluster, 'cluster-agent-disconnected') || r.cluster?.agent === 'disconnected') {
    return check('agentConnected', false, 'disconnected', { cluster });
  }

  return r.cluster?.agent === 'unknown' ? check('agentConnected', null, 'unknown', { cluster }) : check('agentConnected', true, 'connected');
}

/** Steve drops `links.update` where the user may not update; an object read without links tells nothing. */
function mayUpdate(obj: KubeObject | undefined, what: string): PreflightCheck {
  const links = asObject(obj?.links);

  if (!obj || Object.keys(links).length === 0) {
    return check('mayUpdate', null, 'unknown', { object: what });
  }

  return typeof links.update === 'string' ? check('mayUpdate', true, 'allowed', { object: what }) : check('mayUpdate', false, 'denied', { object: what });
}

/** Steve's `links.remove` says whether the user may delete the object, as `links.update` says for a change. */
function mayDelete(obj: KubeObject | undefined, what: string): PreflightCheck {
  const links = asObject(obj?.links);

  if (!obj || Object.keys(links).length === 0) {
    return check('mayDelete', null, 'unknown', { object: what });
  }

  return typeof links.remove === 'string' && links.remove !== 'blocked' ? check('mayDelete', true, 'allowed', { object: what }) : check('mayDelete', false, 'denied', { object: what });
}

function infraLabel(r: NodeRecord): string {
  const ref = r.objects.machine ? infrastructureRef(r.objects.machine) : null;

  return `${ ref?.kind ?? r.objects.infraMachine?.kind ?? 'InfrastructureMachine' } ${ ref?.name ?? nameOf(r.objects.infraMachine) ?? '?' }`;
}

/** Rancher's Force Delete answers a delete the provider refused (its Machine model offers it on DeleteError only). */
function deleteFailed(r: NodeRecord): PreflightCheck {
  if (!r.objects.infraMachine) {
    return check('deleteFailed', r.inputs.infraMachines === 'ok' ? false : null, r.inputs.infraMachines === 'ok' ? 'gone' : 'unknown', { object: infraLabel(r) });
  }

  return infrastructureDeleteError(r) ? check('deleteFailed', true, 'reported', { object: infraLabel(r) }) : check('deleteFailed', false, 'none', { object: infraLabel(r) });
}

/** Rancher cannot see the provider: only the user can say the server is gone, and the dialog asks. */
function serverGone(r: NodeRecord): PreflightCheck {
  return { ...check('serverGone', null, 'confirm', { server: nameOf(r.objects.infraMachine) ?? r.machineName ?? '?' }), byUser: true };
}

/**
 * Rancher's own removal of an etcd member waits while any machine of the cluster names it as the server it
 * joined through (pkg/controllers/capr/bootstrap: "was still joined to deleting etcd machine"): those machines'
 * configuration points at it. Its planner gives them another server with their next plan. The etcd release and
 * the finalizer removal skip that wait, so they wait for it here.
 */
function noneJoined(r: NodeRecord, ctx: Context): PreflightCheck {
  const url = r.objects.planSecret ? annotation(r.objects.planSecret, ANNOTATIONS.joinUrl) : null;
  const joined = url ? ctx.siblings.filter((x) => x !== r && !!x.objects.planSecret && annotation(x.objects.planSecret, ANNOTATIONS.joinedTo) === url) : [];

  return joined.length ? check('noneJoined', false, 'joined', { joined: joined.map((x) => x.machineName ?? x.nodeName ?? '?').sort().join(', ') }) : check('noneJoined', true, 'none');
}

function notDeleting(r: NodeRecord): PreflightCheck {
  return r.deleting ? check('notDeleting', false, 'deleting', { since: r.deleting, custom: customHost(r) }) : check('notDeleting', true, 'running');
}

/** What comes after the delete: a node-driver pool creates a new machine; a custom host is not replaced. */
function replacement(r: NodeRecord): PreflightCheck {
  const m = r.objects.machine;

  if (!m) {
    return check('replacement', null, 'unknown');
  }
  if (customHost(r) === 'yes') {
    return check('replacement', true, 'custom');
  }
  const pool = label(m, LABELS.machinePoolName) ?? label(m, LABELS.deploymentName);

  return pool ? check('replacement', true, 'pool', { pool }) : check('replacement', null, 'unknown');
}

/**
 * Never the cluster's last etcd or control-plane machine, the rule Rancher's Scale Down keeps (dashboard's
 * `notOnlyOfRole`): machines already deleting do not count as the ones left.
 */
function lastOfRole(r: NodeRecord, ctx: Context): PreflightCheck {
  const held = (['etcd', 'controlplane'] as const).filter((role) => r.roles.includes(role));

  if (!held.length) {
    return check('lastOfRole', true, 'noSoleRole');
  }
  const last = held.filter((role) => !ctx.siblings.some((x) => x !== r && !!x.objects.machine && !x.deleting && x.roles.includes(role)));

  return last.length ? check('lastOfRole', false, 'last', { role: last.join(', ') }) : check('lastOfRole', true, 'others', { role: held.join(', ') });
}

/** The resume is for a machine that carries the pause annotation itself. */
function machinePaused(r: NodeRecord): PreflightCheck {
  const m = r.objects.machine;

  return m && annotation(m, ANNOTATIONS.capiPaused) !== null ? check('machinePaused', true, 'annotated') : check('machinePaused', false, 'notAnnotated');
}

function customCluster(r: NodeRecord): PreflightCheck {
  const custom = r.objects.machine ? infrastructureRef(r.objects.machine)?.kind === 'CustomMachine' : r.cluster?.kind !== 'imported';

  return custom ? check('customCluster', true, 'custom') : check('customCluster', false, 'pool');
}

function checksOf(id: ActionId, r: NodeRecord, ctx: Context): PreflightCheck[] {
  const machine = `Machine ${ r.machineName ?? '?' }`;

  switch (id) {
  case 'remove-finalizers':
    return [
      hostGone(r, ctx), infrastructureGone(r), ...[etcdReleased(r)].filter((c): c is PreflightCheck => !!c),
      etcdQuorum(r, ctx, true), ...(r.roles.includes('etcd') ? [noneJoined(r, ctx)] : []), notPaused(r, { finalizers: true }), noRemediation(r), agentConnected(r), mayUpdate(r.objects.machine, machine),
    ];
  case 'etcd-force-remove':
    return [etcdQuorum(r, ctx, true), noneJoined(r, ctx), agentConnected(r), mayUpdate(r.objects.bootstrap, `RKEBootstrap ${ nameOf(r.objects.bootstrap) ?? '?' }`)];
  case 're-register':
    return [customCluster(r), mayUpdate(r.objects.cluster, `Cluster ${ r.cluster?.name ?? '?' }`)];
  case 'force-delete':
    return [deleteFailed(r), serverGone(r), mayUpdate(r.objects.infraMachine, infraLabel(r))];
  case 'delete-machine':
    return [
      notDeleting(r), hostGone(r, ctx, true), replacement(r), lastOfRole(r, ctx), etcdQuorum(r, ctx), notPaused(r, { deleting: true }), noRemediation(r), agentConnected(r),
      mayDelete(r.objects.machine, machine),
    ];
  case 'resume-machine':
    return [machinePaused(r), notPaused(r, { machine: false }), mayUpdate(r.objects.machine, machine)];
  default:
    return [];
  }
}

/**
 * The permission checks may stay unjudged (offline input), and so may what only the user can judge (the dialog
 * asks for it); a safety check may not.
 */
export function allowedBy(checks: PreflightCheck[]): boolean {
  return checks.every((c) => c.ok === true || (c.ok === null && userConfirmable(c)));
}

/** A check left unjudged that does not refuse: a permission offline input cannot tell, or what the user confirms. */
export function userConfirmable(c: PreflightCheck): boolean {
  return c.id === 'mayUpdate' || c.id === 'mayDelete' || !!c.byUser;
}

/**
 * Actions offered where they fit the record. A finding whose steps delete the machine offers the delete itself, for a machine not yet deleting whose host
 * is not alive (those steps say "if its host is gone"): a pool then creates a new one, as Rancher's Delete does.
 */
function derivedActions(f: Finding, r: NodeRecord, ctx: Context): void {
  // A node-driver pool replaces its machines itself: re-registering a host does not fit there, so it is not offered.
  if (f.actions.includes('re-register') && r.objects.machine && customCluster(r).ok === false) {
    f.actions = f.actions.filter((a) => a !== 're-register');
  }
  if (r.objects.machine && !r.deleting && !f.actions.includes('delete-machine') && f.fix.some((s) => s.act === 'delete-machine') &&
    hostGone(r, ctx).ok !== false) {
    f.actions = [...f.actions, 'delete-machine'];
  }
}

export function preflightOf(id: ActionId, r: NodeRecord, now: number, siblings: NodeRecord[]): ActionPreflight {
  const checks = checksOf(id, r, { now, siblings });

  return {
    id, allowed: allowedBy(checks), checks
  };
}

/** A record whose findings offer no action (nearly every one): shared and frozen, since nothing writes to it. */
const NO_PREFLIGHT: ActionPreflight[] = Object.freeze([]) as unknown as ActionPreflight[];

/** Every action a record's findings offer, each once, with its preflight. */
export function attachPreflights(records: NodeRecord[], now: number): void {
  // A record's siblings are asked for only by its findings' actions: the records are grouped on the first that has one.
  let byCluster: Map<ClusterInfo | null, NodeRecord[]> | null = null;
  const siblingsOf = (r: NodeRecord): NodeRecord[] => {
    byCluster ??= recordsByCluster(records);

    return byCluster.get(r.cluster) ?? [];
  };

  for (const r of records) {
    if (r.findings.length === 0) {
      r.preflight = NO_PREFLIGHT;
      continue;
    }
    let ids: ActionId[] | null = null;
    const siblings = siblingsOf(r);

    for (const f of r.findings) {
      derivedActions(f, r, { now, siblings });
      for (const a of f.actions) {
        ids ??= [];
        if (!ids.includes(a)) {
          ids.push(a);
        }
      }
    }
    r.preflight = ids ? ids.map((id) => preflightOf(id, r, now, siblings)) : NO_PREFLIGHT;
  }
}
