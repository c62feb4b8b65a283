/**
 * What each action checks before it may write, judged by the engine so that the dialog, the report and the command
 * line say the same: a list of checks, each passed (true), failed (false) or not judged (null, with why), over the
 * record and its cluster. An action is allowed only when no check failed and every safety check passed: a fix
 * that can orphan a VM or break etcd's quorum is worse than none. Whether the user may write is a check too, read
 * from Steve's `links.update`; input without links (kubectl output, a bundle) leaves it unjudged.
 */
import type {
  ActionId, ActionPreflight, ClusterInfo, KubeObject, NodeRecord, PreflightCheck, PreflightCheckId
} from './types';
import type { MessageArgs } from './vocabulary';
import {
  annotation, asArray, asObject, asString, nameOf, statusOf
} from './fields';
import { getCondition, nodeReadyCondition } from './conditions';
import { ANNOTATIONS } from './vocabulary';
import { infrastructureRef, nodeRefName } from './objects';
import { infrastructureDeleteError } from './rules/shared';

/** A Node heartbeat this recent says its kubelet is alive on the host (the node lifecycle's default grace is 40 s). */
export const LIVE_HEARTBEAT_MS = 5 * 60 * 1000;

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

/** A Ready Node linked to this machine, with a heartbeat within LIVE_HEARTBEAT_MS, is a host still alive. */
function hostGone(r: NodeRecord, ctx: Context): PreflightCheck {
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
  const ready = nodeReadyCondition(node);
  // The wrapped condition keeps no heartbeat: it is read from the Node's own list.
  const raw = asArray(statusOf(node).conditions).find((c) => asObject(c).type === 'Ready');
  const beat = Date.parse(asString(asObject(raw).lastHeartbeatTime) ?? '');
  const ago = Number.isNaN(beat) ? null : Math.max(0, ctx.now - beat);

  if (ready?.status === 'True' && ago !== null && ago <= LIVE_HEARTBEAT_MS) {
    return check('hostGone', false, 'alive', { node: nameOf(node) ?? '?', seconds: Math.round(ago / 1000) });
  }
  if (ready?.status === 'True') {
    return check('hostGone', true, 'silent', { node: nameOf(node) ?? '?', minutes: ago === null ? '?' : Math.round(ago / 60000) });
  }

  return check('hostGone', true, 'notReady', { node: nameOf(node) ?? '?', status: ready?.status ?? '?' });
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

function healthyMember(r: NodeRecord): boolean | null {
  const n = r.objects.node;

  if (!n) {
    return r.inputs.nodes === 'ok' ? false : null;
  }
  const ready = nodeReadyCondition(n);

  return ready ? ready.status === 'True' && !r.plan.unhealthyProbes.includes('etcd') : null;
}

/** What taking this member away leaves: never the last member, never fewer healthy members than a majority of the rest. */
function etcdQuorum(r: NodeRecord, ctx: Context): PreflightCheck {
  if (!r.roles.includes('etcd')) {
    return check('etcdQuorum', true, 'notMember');
  }
  const members = ctx.siblings.filter((x) => x.roles.includes('etcd') && !!x.objects.machine && (!!x.objects.node || !!nodeRefName(x.objects.machine)));
  const others = members.filter((x) => x !== r);
  const health = others.map(healthyMember);

  if (health.some((h) => h === null)) {
    return check('etcdQuorum', null, 'unknown');
  }
  const healthy = health.filter(Boolean).length;
  const quorum = Math.floor(others.length / 2) + 1;

  if (others.length === 0) {
    return check('etcdQuorum', false, 'lastMember');
  }
  if (healthy < quorum) {
    return check('etcdQuorum', false, 'belowQuorum', {
      healthy, members: others.length, quorum
    });
  }

  return check('etcdQuorum', true, 'kept', {
    healthy, members: others.length, quorum
  });
}

/** An etcd machine held by Rancher's cleanup hook must be released (its member removed) before anything else. */
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

function notPaused(r: NodeRecord): PreflightCheck {
  const m = r.objects.machine;

  if (clusterFinding(r.cluster, 'reconciliation-paused')) {
    return check('notPaused', false, 'cluster', { cluster: r.cluster?.name ?? '?' });
  }
  if (m && annotation(m, ANNOTATIONS.capiPaused) !== null) {
    return check('notPaused', false, 'machine');
  }

  return check('notPaused', true, 'running');
}

/** A health check that marked the machine for remediation: its owner is about to replace it. */
function noRemediation(r: NodeRecord): PreflightCheck {
  const m = r.objects.machine;
  const owner = m ? getCondition(m, 'OwnerRemediated') : null;

  return owner && owner.status === 'False' ? check('noRemediation', false, 'pending', { reason: owner.reason ?? '?' }) : check('noRemediation', true, 'none');
}

function agentConnected(r: NodeRecord): PreflightCheck {
  return clusterFinding(r.cluster, 'cluster-agent-disconnected') ? check('agentConnected', false, 'disconnected', { cluster: r.cluster?.name ?? '?' }) : check('agentConnected', true, 'connected');
}

/** Steve drops `links.update` where the user may not update; an object read without links tells nothing. */
function mayUpdate(obj: KubeObject | undefined, what: string): PreflightCheck {
  const links = asObject(obj?.links);

  if (!obj || Object.keys(links).length === 0) {
    return check('mayUpdate', null, 'unknown', { object: what });
  }

  return typeof links.update === 'string' ? check('mayUpdate', true, 'allowed', { object: what }) : check('mayUpdate', false, 'denied', { object: what });
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
      etcdQuorum(r, ctx), notPaused(r), noRemediation(r), agentConnected(r), mayUpdate(r.objects.machine, machine),
    ];
  case 'etcd-force-remove':
    return [etcdQuorum(r, ctx), agentConnected(r), mayUpdate(r.objects.bootstrap, `RKEBootstrap ${ nameOf(r.objects.bootstrap) ?? '?' }`)];
  case 're-register':
    return [customCluster(r), mayUpdate(r.objects.cluster, `Cluster ${ r.cluster?.name ?? '?' }`)];
  default:
    return [];
  }
}

/** The permission check may stay unjudged (offline input); a safety check may not. */
function allowedBy(checks: PreflightCheck[]): boolean {
  return checks.every((c) => c.ok === true || (c.ok === null && c.id === 'mayUpdate'));
}

export function preflightOf(id: ActionId, r: NodeRecord, now: number, siblings: NodeRecord[]): ActionPreflight {
  const checks = checksOf(id, r, { now, siblings });

  return {
    id, allowed: allowedBy(checks), checks
  };
}

/** Every action a record's findings offer, each once, with its preflight. */
export function attachPreflights(records: NodeRecord[], now: number): void {
  const byCluster = new Map<ClusterInfo | null, NodeRecord[]>();

  for (const r of records) {
    const list = byCluster.get(r.cluster);

    if (list) {
      list.push(r);
    } else {
      byCluster.set(r.cluster, [r]);
    }
  }
  for (const r of records) {
    let ids: ActionId[] | null = null;

    for (const f of r.findings) {
      for (const a of f.actions) {
        ids ??= [];
        if (!ids.includes(a)) {
          ids.push(a);
        }
      }
    }
    r.preflight = ids ? ids.map((id) => preflightOf(id, r, now, byCluster.get(r.cluster) ?? [])) : [];
  }
}
