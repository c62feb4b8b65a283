/**
 * Findings that only the whole cluster can show: etcd quorum (how many members are healthy against the majority
 * etcd needs), a control plane with no healthy member, a role no machine has, and Nodes nothing writes any more.
 * A member is a machine of that role that joined the cluster (it has or had a Node); its health is its Node's
 * Ready condition, as Rancher's copy or the Node itself says, and the etcd probe of its plan. A member's health is
 * not known when its Nodes could not be read, its Node says no Ready, or its Ready is stale (node-status-stale:
 * with etcd's majority lost nothing marks a silent Node Unknown, so a stale Ready is no proof of life). A check
 * whose answer such a member could change says why it is not judged instead of guessing.
 */
import type { Evidence, KubeObject, NodeRecord } from '../types';
import type { Role } from '../vocabulary';
import { conditions, nodeReadyCondition, readyHeartbeat } from '../conditions';
import {
  annotation, asArray, asObject, asString, label, nameOf, statusOf
} from '../fields';
import { LABELS } from '../vocabulary';
import { COPIED_FROM_ANNOTATION } from '../nodes-left-to-tab';
import { nodeRefName } from '../objects';
import type { ClusterRule, ClusterRuleInput, NotJudged, RuleContext } from './rule';
import { ROLES_MISSING } from '../signals/planner';
import {
  apiserverCheck, crictl, distributionOfAny, etcdEndpointHealth, NODE_HEARTBEATS, serverKubectl, serviceJournal, servicesOf
} from './host-commands';
import {
  age, conditionEvidence, duration, evidence, objectLabel, sh, step
} from './rule';
import { readLease, readMember, staleReadyBeat } from './shared';
import type { LeaseReading, MemberReading, NotKnown } from './shared';

interface Member {
  record: NodeRecord;
  health: MemberReading['health'];
  /** why it is not healthy: its Ready condition, its etcd probe, or the missing Node */
  evidence: Evidence[];
  /** why its health is unknown, and for a stale Ready how old it is */
  notKnown?: { why: NotKnown; age?: number | null };
}

function recordLabel(r: NodeRecord): string {
  return r.objects.machine ? objectLabel('machine', r.objects.machine) : `Node ${ r.nodeName ?? '?' }`;
}

/** A machine of this role that joined the cluster: it has a Node, or Cluster API once linked one. */
function joined(r: NodeRecord): boolean {
  return !!r.objects.node || (!!r.objects.machine && !!nodeRefName(r.objects.machine));
}

/** A member as the cluster's findings judge it: a Ready nothing wrote for node-status-stale's bound proves nothing. */
function memberHealth(r: NodeRecord, role: Role, ctx: RuleContext): Member {
  const reading = readMember(r, role, (n) => staleReadyBeat(n, ctx) !== null);

  switch (reading.health) {
  case 'healthy':
    return {
      record: r, health: 'healthy', evidence: []
    };
  case 'unknown':
    return {
      record: r, health: 'unknown', evidence: [], notKnown: { why: reading.why, age: reading.why === 'stale' && r.objects.node ? age(ctx, readyHeartbeat(r.objects.node)) : undefined }
    };
  default: {
    const n = r.objects.node;
    const ev = reading.cause === 'notReady' && n && reading.ready ? conditionEvidence(objectLabel('node', n), reading.ready) : [
      reading.cause === 'etcdProbe' ? evidence(recordLabel(r), 'probe-statuses[etcd].healthy', false) : evidence(recordLabel(r), 'status.nodeRef.name', r.nodeName),
    ];

    return {
      record: r, health: 'unhealthy', evidence: ev
    };
  }
  }
}

/**
 * Why a role's check could not be judged, said by the first reason its unknown members share (unreadable Nodes
 * before a missing Ready before a stale one), with the members it names and, for stale ones, the oldest status;
 * the members not known for another reason are named too (`others`, "none" without), each row saying its own.
 */
function notJudged(check: 'etcdQuorum' | 'controlPlane', cluster: string, unknown: Member[]): NotJudged {
  const why = (['nodesUnreadable', 'noReady', 'stale'] as NotKnown[]).find((w) => unknown.some((m) => m.notKnown?.why === w)) ?? 'noReady';
  const named = unknown.filter((m) => m.notKnown?.why === why);
  const others = unknown.filter((m) => m.notKnown?.why !== why);
  const ages = named.map((m) => m.notKnown?.age).filter((a): a is number => typeof a === 'number');

  return {
    notJudged: {
      key:  'nodeHealth.notes.notJudged',
      args: {
        check, why, cluster, members: names(named), count: named.length, duration: duration(ages.length ? Math.max(...ages) : null), others: others.length ? names(others) : 'none'
      },
    },
  };
}

/** The members of a role: for a provisioned cluster its machines, for an imported one its Nodes. */
function members(input: ClusterRuleInput, role: Role, ctx: RuleContext): Member[] {
  const provisioned = input.records.some((r) => r.objects.machine);

  return input.records
    .filter((r) => r.roles.includes(role) && (provisioned ? !!r.objects.machine && joined(r) : !!r.objects.node))
    .map((r) => memberHealth(r, role, ctx));
}

/** "custom-c1a0e7d43b25 (q-cp-03)": the machine, and the host name an admin knows it by. */
function names(list: Member[]): string {
  return list.map(({ record: r }) => {
    const machine = r.objects.machine ? r.machineName : null;

    return machine && r.nodeName && r.nodeName !== machine ? `${ machine } (${ r.nodeName })` : machine ?? r.nodeName ?? '?';
  }).join(', ');
}

/** The earliest moment a member stopped being healthy, when its Ready condition says it. */
function since(list: Member[]): string | null {
  const times = list.map((m) => (m.record.objects.node ? nodeReadyCondition(m.record.objects.node)?.lastTransitionTime ?? null : null))
    .filter((t): t is string => !!t)
    .sort();

  return times[0] ?? null;
}

/**
 * Healthy members against the majority etcd needs: none (the quorum is lost), or none to spare (one more loss
 * loses it), else nothing to say. Only a member down can make the spare zero; a cluster built without spare
 * members (one or two) is a design, not a fault.
 */
function quorumState(healthy: number, down: number, quorum: number): 'lost' | 'atRisk' | null {
  if (down === 0 || healthy - 1 >= quorum) {
    return null;
  }

  return healthy < quorum ? 'lost' : 'atRisk';
}

export const etcdQuorum: ClusterRule = {
  id:       'etcd-quorum',
  severity: 'error',
  // The members that are down: each says that its loss is what puts the quorum at risk. Those whose health is not
  // known too, where the finding is that the quorum may be lost: theirs decides it.
  related(input, ctx) {
    return members(input, 'etcd', ctx).filter((m) => m.health !== 'healthy').map((m) => m.record);
  },
  relatedArgs(record, _input, ctx) {
    return { member: memberHealth(record, 'etcd', ctx).health === 'unknown' ? 'unknown' : 'down' };
  },
  check(input, ctx) {
    const etcd = members(input, 'etcd', ctx);
    const total = etcd.length;

    if (total === 0) {
      return null;
    }
    const down = etcd.filter((m) => m.health === 'unhealthy');
    const unknown = etcd.filter((m) => m.health === 'unknown');
    // At most this many: a member whose health is not known is counted healthy.
    const healthy = total - down.length;
    const quorum = Math.floor(total / 2) + 1;
    const best = quorumState(healthy, down.length, quorum);
    const worst = unknown.length ? quorumState(healthy - unknown.length, down.length + unknown.length, quorum) : best;

    if (!best && !worst) {
      return null;
    }
    // A member down and another not known: at risk for sure, lost if that one is down too. Not known whether
    // anything is wrong at all: the reason instead of a finding.
    if (best !== worst && best !== 'atRisk') {
      return notJudged('etcdQuorum', input.cluster.name, unknown);
    }
    const lost = best === 'lost' ? 'yes' : (worst === 'lost' ? 'unknown' : 'no');

    return {
      severity: lost === 'no' ? 'warning' : 'error',
      args:     {
        cluster: input.cluster.name, lost, healthy, members: total, quorum, down: names(down), unknown: names(unknown),
      },
      evidence: down.flatMap((m) => m.evidence),
      fix:      [
        step(this.id, 'members', {}, 'kubectl get nodes -l node-role.kubernetes.io/etcd=true -o wide'),
        ...(lost === 'unknown' ? [step(this.id, 'checkUnknown', { unknown: names(unknown) }, etcdEndpointHealth(distributionOfAny(etcd.map((m) => m.record))))] : []),
        step(this.id, ({
          yes: 'restore', unknown: 'bringBackFirst', no: 'bringBack'
        } as const)[lost], { down: names(down) }),
        step(this.id, 'noRemoval'),
        ...(lost === 'no' ? [step(this.id, 'addMember')] : []),
      ],
      since:   since(down),
      actions: [],
    };
  },
};

export const controlPlaneUnavailable: ClusterRule = {
  id:       'control-plane-unavailable',
  severity: 'error',
  related(input, ctx) {
    return members(input, 'controlplane', ctx).map((m) => m.record);
  },
  check(input, ctx) {
    const cp = members(input, 'controlplane', ctx);

    if (cp.length === 0 || cp.some((m) => m.health === 'healthy')) {
      return null;
    }
    const unknown = cp.filter((m) => m.health === 'unknown');

    // None is healthy, but one whose health is not known may be.
    if (unknown.length) {
      return notJudged('controlPlane', input.cluster.name, unknown);
    }

    const d = distributionOfAny(cp.map((m) => m.record));

    return {
      args:     {
        cluster: input.cluster.name, members: cp.length, down: names(cp)
      },
      evidence: cp.flatMap((m) => m.evidence),
      fix:      [
        step(this.id, 'hosts', { down: names(cp) }),
        step(this.id, 'apiserver', {}, apiserverCheck(d)),
        step(this.id, 'serverLog', {}, serviceJournal(servicesOf(d, ['server']), '--since -1h --no-pager | tail -n 100')),
      ],
      since:   since(cp),
      actions: [],
    };
  },
};

interface Written {
  node: KubeObject;
  at: number;
  /** the time as the Node says it, and where */
  said: string;
  path: string;
}

/** The newest moment anything wrote a Node's status: its conditions' heartbeats and transitions, or null for none. */
function lastWritten(node: KubeObject): Written | null {
  let newest: Written | null = null;

  for (const c of asArray(statusOf(node).conditions)) {
    const type = asString(asObject(c).type) ?? '?';

    for (const field of ['lastHeartbeatTime', 'lastTransitionTime']) {
      const said = asString(asObject(c)[field]);
      const at = Date.parse(said ?? '');

      // Of equal times, the Ready condition's is the one to show.
      if (said && !Number.isNaN(at) && (newest === null || at > newest.at || (at === newest.at && type === 'Ready' && !newest.path.includes('[Ready]')))) {
        newest = {
          node, at, said, path: `status.conditions[${ type }].${ field }`
        };
      }
    }
  }

  return newest;
}

const STALE_RULE = 'node-status-stale';

/**
 * Nothing has written any of the cluster's Nodes for longer than a kubelet leaves its own, while Rancher's agent is
 * connected: not one host, but what writes every Node stopped. The node lifecycle controller would have marked the
 * silent ones Unknown, and the live kubelets written theirs; neither happened, so the cluster's control plane
 * (etcd without its majority, kube-apiserver, kube-controller-manager) stopped, or Rancher's view of it did
 * (rancher/rancher#20927: a cluster shown Active with all its etcd nodes powered off). One finding says it for
 * the cluster; each stale Node's row points to it. With the agent disconnected, its own finding says as much.
 */
export const nodesStatusFrozen: ClusterRule = {
  id:       'nodes-status-frozen',
  severity: 'error',
  related(input) {
    return input.records.filter((r) => r.findings.some((f) => f.rule === STALE_RULE));
  },
  check(input, ctx) {
    if (input.cluster.agent === 'disconnected' || !input.records.some((r) => r.findings.some((f) => f.rule === STALE_RULE))) {
      return null;
    }
    // A kubelet that renews its Lease writes through the cluster's API server into etcd: what writes is running, and
    // each stale Node's own finding says its status writes fail.
    const leases = input.records.filter((r) => r.objects.node).map((r) => readLease(r, ctx));

    if (leases.some((l) => l.state === 'renewed')) {
      return null;
    }
    // Where the Leases were read, the newest renewal of all says as much of them.
    let newestLease: Extract<LeaseReading, { lease: KubeObject }> | null = null;

    for (const l of leases) {
      if (l.state === 'stopped' && (!newestLease || l.age < newestLease.age)) {
        newestLease = l;
      }
    }
    const nodes = input.records.map((r) => r.objects.node).filter((n): n is KubeObject => !!n && annotation(n, COPIED_FROM_ANNOTATION) === null);
    let newest: Written | null = null;

    for (const n of nodes) {
      const w = lastWritten(n);

      // A Node whose status says no time cannot tell when it was written: not judged.
      if (!w) {
        return null;
      }
      newest = !newest || w.at > newest.at ? w : newest;
    }
    if (nodes.length < 2 || !newest || !ctx.passed(newest.at + ctx.config.nodeStatusStaleMs)) {
      return null;
    }
    const d = distributionOfAny(input.records);
    const servers = input.records.filter((r) => r.roles.includes('controlplane') || r.roles.includes('etcd'));

    return {
      args: {
        cluster: input.cluster.name, nodes: nodes.length, duration: duration(ctx.now - newest.at), newest: nameOf(newest.node) ?? '?', leases: newestLease ? 'stopped' : 'unread'
      },
      // The newest write of all, which every other Node's is older than; not every Node's, on a cluster of thousands.
      evidence: [
        evidence(objectLabel('node', newest.node), newest.path, newest.said),
        ...(newestLease ? [evidence(objectLabel('lease', newestLease.lease), 'spec.renewTime', newestLease.renewTime)] : []),
      ],
      fix:      [
        step(this.id, 'api', { servers: servers.map((r) => r.nodeName ?? r.machineName ?? '?').join(', ') || '?' },
          serverKubectl(d, NODE_HEARTBEATS)),
        step(this.id, 'etcd', {}, etcdEndpointHealth(d)),
        step(this.id, 'controllers', {}, d === 'k3s' ? apiserverCheck(d) : `${ apiserverCheck(d) }; ${ crictl(d, 'ps -a --name kube-controller-manager') }`),
        step(this.id, 'agent', {}, 'kubectl -n cattle-system rollout restart deployment cattle-cluster-agent'),
      ],
      since:   newest.said,
      actions: [],
    };
  },
};

const ROLES: Role[] = ['etcd', 'controlplane', 'worker'];

/** The labels Rancher's planner reads a machine's roles from, on its plan secret (planentry.go isEtcd, isControlPlane, isWorker). */
const PLAN_ROLE_LABELS: Record<Role, string> = {
  etcd: LABELS.etcdRole, controlplane: LABELS.controlPlaneRole, worker: LABELS.workerRole
};
/** kubectl's -L columns of those labels */
const ROLE_COLUMNS = ROLES.map((role) => PLAN_ROLE_LABELS[role]).join(',');

export const roleMissing: ClusterRule = {
  id:       'role-missing',
  severity: 'error',
  check(input, ctx) {
    // Only a Rancher-provisioned cluster whose machines were all read needs every role on its machines.
    if (input.cluster.kind !== 'provisioned' || ctx.availability.machines !== 'ok') {
      return null;
    }
    const machines = input.records.filter((r) => r.objects.machine && !r.deleting);
    const ns = input.cluster.namespace;
    const clusterLabel = input.provisioning ? objectLabel('cluster', input.provisioning) : `Cluster ${ input.cluster.name }`;
    // The planner's own sanity check (clusterIsSane) says the same, and since when.
    const said = input.provisioning ? conditions(input.provisioning).find((c) => c.status !== 'True' && ROLES_MISSING.test(c.message ?? '')) : undefined;
    const saidEvidence = said ? conditionEvidence(clusterLabel, said) : [];
    const byRole = (kind: string) => (ns ? `kubectl -n ${ sh(ns) } get ${ kind } -l cluster.x-k8s.io/cluster-name=${ sh(input.cluster.name) } -L ${ ROLE_COLUMNS }` : undefined);

    // No machine at all: a new cluster (or one emptied on purpose) that Rancher says waits for its first machines.
    if (machines.length === 0) {
      return said ? {
        severity: 'info',
        args:     {
          cluster: input.cluster.name, roles: ROLES.join(', '), machines: 0, state: 'none', count: 0, holders: ''
        },
        evidence: [...saidEvidence, evidence(clusterLabel, 'machines (not deleting)', 0)],
        fix:      [step(this.id, 'add', { roles: ROLES.join(', ') })],
        since:    said.lastTransitionTime,
        actions:  [],
      } : null;
    }
    // One record's load (the record tab) reads the etcd and control-plane machines in full; of the workers, only whether there is one.
    const notRead = (role: Role) => role === 'worker' && !!ctx.scoped && ctx.scoped.workers !== false;
    const missing = ROLES.filter((role) => !notRead(role) && !machines.some((r) => r.roles.includes(role)));
    // The planner counts a machine's roles from its plan secret's labels, not the Machine's: a role only Machines
    // carry is no role to it (a plan secret missing, or written without the label). Judged where every plan secret
    // of the cluster was read, and only once Rancher has said so for as long as a node may take to start: a new
    // machine's plan secret is written a moment after it, and the planner says the same meanwhile.
    const saidFor = said ? age(ctx, said.lastTransitionTime) : null;
    const planRead = ctx.availability.planSecrets === 'ok' && !ctx.scoped && saidFor !== null && saidFor >= ctx.config.nodeStartupTimeoutMs;
    const inPlans = (role: Role) => machines.some((r) => !!r.objects.planSecret && label(r.objects.planSecret, PLAN_ROLE_LABELS[role]) === 'true');
    const unplanned = missing.length || !planRead ? [] : ROLES.filter((role) => !inPlans(role));

    if (missing.length === 0 && unplanned.length === 0) {
      return null;
    }
    const roles = missing.length ? missing : unplanned;
    const holders = unplanned.length ? machines.filter((r) => r.roles.some((role) => unplanned.includes(role))) : [];
    const withoutSecret = holders.filter((r) => !r.objects.planSecret);

    return {
      args: {
        cluster:  input.cluster.name,
        roles:    roles.join(', '),
        machines: machines.length,
        state:    missing.length ? 'machines' : 'planSecrets',
        count:    holders.length,
        holders:  holders.slice(0, 5).map((r) => r.machineName).join(', ') + (holders.length > 5 ? ', …' : ''),
      },
      evidence: [
        ...saidEvidence,
        evidence(clusterLabel, 'machines (not deleting)', machines.length),
        ...missing.map((role) => evidence(clusterLabel, `machines with role ${ role }`, 0)),
        ...holders.slice(0, 5).map((r) => (r.objects.planSecret ? evidence(objectLabel('planSecret', r.objects.planSecret), `metadata.labels[${ PLAN_ROLE_LABELS[unplanned.find((role) => r.roles.includes(role)) as Role] }]`, null) : evidence(objectLabel('machine', r.objects.machine as KubeObject), 'plan secret', null))),
      ],
      fix: missing.length ? [
        step(this.id, 'roles', {}, byRole('machines.cluster.x-k8s.io')),
        step(this.id, 'add', { roles: missing.join(', ') }),
      ] : [
        step(this.id, 'planRoles', {}, ns ? `kubectl -n ${ sh(ns) } get secrets --field-selector type=rke.cattle.io/machine-plan -l ${ LABELS.rkeClusterName }=${ sh(input.cluster.name) } -L ${ ROLE_COLUMNS }` : undefined),
        ...(withoutSecret.length ? [step(this.id, 'noPlanSecret', { count: withoutSecret.length, machines: withoutSecret.slice(0, 5).map((r) => r.machineName).join(', ') })] : []),
        step(this.id, 'bootstrapRoles', { roles: unplanned.join(', ') }, byRole('rkebootstraps.rke.cattle.io')),
      ],
      since:   said?.lastTransitionTime ?? null,
      actions: [],
    };
  },
};
