/**
 * Rules about the machine plan: whether the agent on the host ever checked in, applied the current plan,
 * failed applying it, or is held by its health probes. They read the planner's verdict (the Machine's
 * Reconciled and PlanApplied conditions) and the plan secret's status keys, never the plan itself.
 */
import type { Evidence, NodeRecord } from '../types';
import { getCondition } from '../conditions';
import { annotation } from '../fields';
import { ANNOTATIONS } from '../vocabulary';
import { agentEverActed, planApplyFailure, planSecretValue } from '../plan-status';
import {
  findHostSteps, infrastructureFailure, infrastructureJobError, infrastructureObjectGone, relatedHostArgs
} from './shared';
import { sameHostWith, withSharedEvidence } from '../hosts';
import {
  crictl, distributionOf, kubernetesServices, RKE2_WINDOWS_EVENTS, serviceJournal, servicesSaid
} from './host-commands';
import {
  Rule, RuleContext, age, conditionEvidence, duration, evidence, kubectlMachine, objectLabel, acting, step
} from './rule';

/** Where the plan status was read, as evidence. */
export function planEvidence(r: NodeRecord): Evidence[] {
  const out: Evidence[] = [];
  const m = r.objects.machine;
  const s = r.objects.planSecret;

  if (m) {
    for (const type of ['Reconciled', 'PlanApplied']) {
      const c = getCondition(m, type);

      if (c && (c.status !== 'True' || type === 'Reconciled')) {
        out.push(...conditionEvidence(objectLabel('machine', m), c));
      }
    }
  }
  if (s) {
    const label = objectLabel('planSecret', s);

    for (const key of ['applied-checksum', 'last-apply-time', 'failure-count', 'failed-checksum', 'probe-statuses', 'plan-state'] as const) {
      const value = planSecretValue(s, key);

      if (value !== null || key === 'applied-checksum') {
        out.push(evidence(label, `data.${ key }`, value));
      }
    }
    const updated = annotation(s, ANNOTATIONS.planLastUpdated);

    if (updated) {
      out.push(evidence(label, `metadata.annotations[${ ANNOTATIONS.planLastUpdated }]`, updated));
    }
  }

  return out;
}

function since(r: NodeRecord): string | null {
  return r.plan.since ?? r.plan.planLastUpdated ?? r.created;
}

export const agentNeverCheckedIn: Rule = {
  id:       'agent-never-checked-in',
  severity: 'error',
  explains: ['waiting-for-node-ref', 'blocking-cluster-operation', 'stuck-deleting'],
  needs:    [],
  check(r, ctx: RuleContext) {
    // With the VM gone, or never created, there is no agent to check in; infrastructure-missing and
    // infrastructure-create-failed say so. A secret that shows the agent applied, tried or failed contradicts "never".
    if (!r.objects.machine || r.plan.state !== 'waiting-for-agent' || agentEverActed(r.objects.planSecret) || infrastructureFailure(r) || infrastructureObjectGone(r, ctx) ||
      infrastructureJobError(r, 'create')) {
      return null;
    }
    const start = since(r);
    const waited = age(ctx, start);

    if (waited !== null && waited < ctx.config.agentCheckInTimeoutMs) {
      return null;
    }
    const host = relatedHostArgs(r);

    return {
      args:     { duration: duration(waited), secret: r.host.planSecretName ?? '' },
      // What says which host it is: the values this machine shares with that host's Node.
      evidence: withSharedEvidence([
        ...planEvidence(r),
        evidence(objectLabel('machine', r.objects.machine), 'metadata.creationTimestamp', r.created),
      ], sameHostWith(r, 'node')),
      fix: [
        ...findHostSteps(r),
        step(this.id, 'credentials'),
        // A machine that is deleting does not come back: the host re-registers as a new one once it is gone.
        r.deleting ? acting('re-register', step(this.id, 'reRegisterAfterDelete', { host: host?.node ?? 'none' })) : host ? acting('re-register', step(this.id, 'reRegisterOn', { node: host.node })) : acting('re-register', step(this.id, 'reRegister')),
        acting('delete-machine', step(this.id, 'hostGone', {}, r.deleting ? undefined : kubectlMachine(r, 'delete', '--wait=false'))),
      ],
      since:   start,
      actions: ['re-register'],
    };
  },
};

export const planNotApplied: Rule = {
  id:       'plan-not-applied',
  severity: 'warning',
  explains: ['blocking-cluster-operation', 'waiting-for-node-ref'],
  needs:    [],
  check(r, ctx) {
    if (!r.objects.machine || (r.plan.state !== 'waiting-for-plan' && r.plan.state !== 'applying')) {
      return null;
    }
    const start = r.plan.planLastUpdated ?? since(r);
    const waited = age(ctx, start);

    if (waited === null || waited < ctx.config.planApplyTimeoutMs) {
      return null;
    }

    return {
      args:     { duration: duration(waited) },
      evidence: planEvidence(r),
      fix:      [
        ...findHostSteps(r),
        r.os === 'windows' ? step(this.id, 'agentRunningWindows', {}, 'Get-Service rancher-wins') : step(this.id, 'agentRunning', {}, 'sudo systemctl status rancher-system-agent --no-pager'),
        step(this.id, 'reachRancher'),
      ],
      since:   start,
      actions: [],
    };
  },
};

export const planApplyFailed: Rule = {
  id:       'plan-apply-failed',
  severity: 'error',
  explains: ['blocking-cluster-operation', 'waiting-for-node-ref', 'probes-failing'],
  needs:    [],
  check(r) {
    if (!r.objects.machine || !planApplyFailure(r.objects.planSecret, r.plan)) {
      return null;
    }

    return {
      args:     { failures: r.plan.failureCount ?? '?' },
      evidence: planEvidence(r),
      fix:      [
        ...findHostSteps(r, 'failure'),
        r.os === 'windows' ? step(this.id, 'distroLogWindows', {}, RKE2_WINDOWS_EVENTS) : step(this.id, 'distroLog', { services: servicesSaid(r) }, serviceJournal(kubernetesServices(r), '--since -1h --no-pager | tail -n 100')),
        step(this.id, 'retry', {}, r.os === 'windows' ? 'Restart-Service rancher-wins' : 'sudo systemctl restart rancher-system-agent'),
      ],
      since:   r.plan.since ?? r.plan.lastApplyTime,
      actions: [],
    };
  },
};

export const probesFailing: Rule = {
  id:                 'probes-failing',
  severity:           'warning',
  explains:           ['blocking-cluster-operation'],
  stepsWhenExplained: false,
  needs:              [],
  check(r, ctx) {
    if (!r.objects.machine || (r.plan.state !== 'probes-failing' && r.plan.unhealthyProbes.length === 0)) {
      return null;
    }
    const start = r.plan.since ?? r.plan.lastApplyTime;
    const waited = age(ctx, start);

    if (waited !== null && waited < ctx.config.probeFailureTimeoutMs) {
      return null;
    }

    return {
      args:     { probes: r.plan.unhealthyProbes.join(', ') || '?', duration: duration(waited) },
      evidence: planEvidence(r),
      fix:      [
        ...findHostSteps(r).slice(0, 1),
        step(this.id, 'components', {}, r.os === 'windows' ? undefined : crictl(distributionOf(r), 'ps -a')),
        r.os === 'windows' ? step(this.id, 'distroLogWindows', {}, RKE2_WINDOWS_EVENTS) : step(this.id, 'distroLog', { services: servicesSaid(r) }, serviceJournal(kubernetesServices(r), '--since -30min --no-pager | tail -n 100')),
      ],
      since:   start,
      actions: [],
    };
  },
};
