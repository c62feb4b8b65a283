/**
 * Findings that only the whole cluster can show: etcd quorum (how many members are healthy against the majority
 * etcd needs), a control plane with no healthy member, and a role no machine has.
 * A member is a machine of that role that joined the cluster (it has or had a Node); its health is its Node's
 * Ready condition, as Rancher's copy or the Node itself says, and the etcd probe of its plan. Where a member's
 * health cannot be read (Nodes unreadable), quorum is not judged.
 */
import type { Evidence, NodeRecord } from '../types';
import type { Role } from '../vocabulary';
import { conditions, nodeReadyCondition } from '../conditions';
import { nodeRefName } from '../objects';
import type { ClusterRule, ClusterRuleInput } from './rule';
import { ROLES_MISSING } from '../signals/planner';
import { apiserverCheck, distributionOfAny } from './host-commands';
import {
  conditionEvidence, evidence, objectLabel, sh, step
} from './rule';

type MemberHealth = 'healthy' | 'unhealthy' | 'unknown';

interface Member {
  record: NodeRecord;
  health: MemberHealth;
  /** why it is not healthy: its Ready condition, or the missing Node */
  evidence: Evidence[];
}

function recordLabel(r: NodeRecord): string {
  return r.objects.machine ? objectLabel('machine', r.objects.machine) : `Node ${ r.nodeName ?? '?' }`;
}

/** A machine of this role that joined the cluster: it has a Node, or Cluster API once linked one. */
function joined(r: NodeRecord): boolean {
  return !!r.objects.node || (!!r.objects.machine && !!nodeRefName(r.objects.machine));
}

function memberHealth(r: NodeRecord, role: Role): Member {
  const n = r.objects.node;

  if (!n) {
    // Its Node is gone, or could not be read.
    return r.inputs.nodes === 'ok' ? {
      record: r, health: 'unhealthy', evidence: [evidence(recordLabel(r), 'status.nodeRef.name', r.nodeName)]
    } : {
      record: r, health: 'unknown', evidence: []
    };
  }
  const ready = nodeReadyCondition(n);

  if (!ready) {
    return {
      record: r, health: 'unknown', evidence: []
    };
  }
  if (ready.status !== 'True') {
    return {
      record: r, health: 'unhealthy', evidence: conditionEvidence(objectLabel('node', n), ready)
    };
  }
  if (role === 'etcd' && r.plan.unhealthyProbes.includes('etcd')) {
    return {
      record: r, health: 'unhealthy', evidence: [evidence(recordLabel(r), 'probe-statuses[etcd].healthy', false)]
    };
  }

  return {
    record: r, health: 'healthy', evidence: []
  };
}

/** The members of a role: for a provisioned cluster its machines, for an imported one its Nodes. */
function members(input: ClusterRuleInput, role: Role): Member[] {
  const provisioned = input.records.some((r) => r.objects.machine);

  return input.records
    .filter((r) => r.roles.includes(role) && (provisioned ? !!r.objects.machine && joined(r) : !!r.objects.node))
    .map((r) => memberHealth(r, role));
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

export const etcdQuorum: ClusterRule = {
  id:       'etcd-quorum',
  severity: 'error',
  // The members that are down: each says that its loss is what puts the quorum at risk.
  related(input) {
    return members(input, 'etcd').filter((m) => m.health === 'unhealthy').map((m) => m.record);
  },
  check(input) {
    const etcd = members(input, 'etcd');
    const total = etcd.length;

    if (total === 0 || etcd.some((m) => m.health === 'unknown')) {
      return null;
    }
    const down = etcd.filter((m) => m.health === 'unhealthy');
    const healthy = total - down.length;
    const quorum = Math.floor(total / 2) + 1;
    const lost = healthy < quorum;

    // Healthy members beyond the majority: the cluster survives that many more failures. Only a member down
    // can make that zero; a cluster built without spare members (one or two) is a design, not a fault.
    if (down.length === 0 || (!lost && healthy - 1 >= quorum)) {
      return null;
    }

    return {
      severity: lost ? 'error' : 'warning',
      args:     {
        cluster: input.cluster.name, lost: lost ? 'yes' : 'no', healthy, members: total, quorum, down: names(down),
      },
      evidence: down.flatMap((m) => m.evidence),
      fix:      [
        step(this.id, 'members', {}, 'kubectl get nodes -l node-role.kubernetes.io/etcd=true -o wide'),
        step(this.id, lost ? 'restore' : 'bringBack', { down: names(down) }),
        step(this.id, 'noRemoval'),
        ...(lost ? [] : [step(this.id, 'addMember')]),
      ],
      since:   since(down),
      actions: [],
    };
  },
};

export const controlPlaneUnavailable: ClusterRule = {
  id:       'control-plane-unavailable',
  severity: 'error',
  related(input) {
    return members(input, 'controlplane').map((m) => m.record);
  },
  check(input) {
    const cp = members(input, 'controlplane');

    if (cp.length === 0 || cp.some((m) => m.health !== 'unhealthy')) {
      return null;
    }

    return {
      args:     {
        cluster: input.cluster.name, members: cp.length, down: names(cp)
      },
      evidence: cp.flatMap((m) => m.evidence),
      fix:      [
        step(this.id, 'hosts', { down: names(cp) }),
        step(this.id, 'apiserver', {}, apiserverCheck(distributionOfAny(cp.map((m) => m.record)))),
        step(this.id, 'serverLog', {}, 'sudo journalctl -u rke2-server -u k3s --since -1h --no-pager | tail -n 100'),
      ],
      since:   since(cp),
      actions: [],
    };
  },
};

const ROLES: Role[] = ['etcd', 'controlplane', 'worker'];

export const roleMissing: ClusterRule = {
  id:       'role-missing',
  severity: 'error',
  check(input, ctx) {
    const machines = input.records.filter((r) => r.objects.machine && !r.deleting);

    // Only a Rancher-provisioned cluster whose machines were all read needs every role on its machines.
    if (input.cluster.kind !== 'provisioned' || machines.length === 0 || ctx.availability.machines !== 'ok') {
      return null;
    }
    // One record's load (the record tab) reads the etcd and control-plane machines in full; of the workers, only whether there is one.
    const notRead = (role: Role) => role === 'worker' && !!ctx.scoped && ctx.scoped.workers !== false;
    const missing = ROLES.filter((role) => !notRead(role) && !machines.some((r) => r.roles.includes(role)));

    if (missing.length === 0) {
      return null;
    }
    const ns = input.cluster.namespace;
    const clusterLabel = input.provisioning ? objectLabel('cluster', input.provisioning) : `Cluster ${ input.cluster.name }`;
    // The planner's own sanity check (clusterIsSane) says the same, and since when.
    const said = input.provisioning ? conditions(input.provisioning).find((c) => c.status !== 'True' && ROLES_MISSING.test(c.message ?? '')) : undefined;

    return {
      args: {
        cluster: input.cluster.name, roles: missing.join(', '), machines: machines.length
      },
      evidence: [
        ...(said ? conditionEvidence(clusterLabel, said) : []),
        evidence(clusterLabel, 'machines (not deleting)', machines.length),
        ...missing.map((role) => evidence(clusterLabel, `machines with role ${ role }`, 0)),
      ],
      fix: [
        step(this.id, 'roles', {}, ns ? `kubectl -n ${ sh(ns) } get machines.cluster.x-k8s.io -l cluster.x-k8s.io/cluster-name=${ sh(input.cluster.name) } -L rke.cattle.io/etcd-role,rke.cattle.io/control-plane-role,rke.cattle.io/worker-role` : undefined),
        step(this.id, 'add', { roles: missing.join(', ') }),
      ],
      since:   said?.lastTransitionTime ?? null,
      actions: [],
    };
  },
};
