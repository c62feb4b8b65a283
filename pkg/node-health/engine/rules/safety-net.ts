/**
 * The net under the catalogue: a record is never called healthy while Rancher or Cluster API itself says
 * the machine or its Node is not ready. When no other rule explains such a record, this one says so, in
 * Rancher's own words (the conditions' reasons and messages) and since when.
 */
import type { Evidence, NodeRecord } from '../types';
import type { Condition } from '../conditions';
import { getCondition, hasUnhealthyConditionOf, nodeReadyCondition } from '../conditions';
import { asArray, hasFields, parseTime, statusOf } from '../fields';
import { machinePhase, nodeRefName } from '../objects';
import { CONNECTION_DOWN } from './capi-health';
import {
  Rule, RuleContext, age, commonStep, conditionEvidence, duration, evidence, kubectlMachine, objectLabel, sh, step
} from './rule';

/**
 * The machine conditions Cluster API and Rancher summarise readiness with, v1beta1 and v1beta2 names alike.
 * Reconciled and PlanApplied are the plan rules' business, Deleting and the drain/hook conditions the deletion rules'.
 */
const READINESS_CONDITIONS = ['Ready', 'NodeHealthy', 'NodeReady', 'InfrastructureReady', 'BootstrapReady', 'BootstrapConfigReady'];
const READINESS = new Set(READINESS_CONDITIONS);

export interface NotReadySignal {
  /** short words for the cause: "NodeHealthy False (WaitingForNodeRef)", "phase Provisioning" */
  summary: string;
  evidence: Evidence[];
  since: string | null;
}

/** Past the threshold, or since an unknown time: a state Rancher reports without a time still counts. */
function lasted(ctx: RuleContext, since: string | null, thresholdMs: number): boolean {
  const waited = age(ctx, since);

  return waited === null || waited >= thresholdMs;
}

function conditionSummary(c: Condition): string {
  return `${ c.type } ${ c.status }${ c.reason ? ` (${ c.reason })` : '' }${ c.message ? `: ${ c.message }` : '' }`;
}

/**
 * What Rancher and Cluster API report as not ready about this record, past the thresholds. A machine being
 * deleted is left to the deletion rules; a machine without any status cannot be judged (a note says so).
 */
export function notReadySignals(r: NodeRecord, ctx: RuleContext): NotReadySignal[] {
  const out: NotReadySignal[] = [];
  const m = r.objects.machine;
  const startup = ctx.config.nodeStartupTimeoutMs;

  if (m && !r.deleting && hasFields(statusOf(m))) {
    const phase = machinePhase(m);

    if (phase !== null && phase !== 'Running' && lasted(ctx, r.created, startup)) {
      out.push({
        summary: `phase ${ phase }`, evidence: [evidence(objectLabel('machine', m), 'status.phase', phase)], since: r.created
      });
    }
    // Nearly every machine has all of them True: one pass that reads no True condition settles that.
    const anyUnready = hasUnhealthyConditionOf(m, READINESS);

    for (const type of anyUnready ? READINESS_CONDITIONS : []) {
      const c = getCondition(m, type);

      // Cluster API cannot reach the cluster: a word about its connection, which the cluster's finding carries.
      if (c && c.status !== 'True' && c.reason !== CONNECTION_DOWN && lasted(ctx, c.lastTransitionTime ?? r.created, startup)) {
        out.push({
          summary: conditionSummary(c), evidence: conditionEvidence(objectLabel('machine', m), c), since: c.lastTransitionTime ?? r.created
        });
      }
    }
    if (!nodeRefName(m) && lasted(ctx, r.created, startup)) {
      out.push({
        summary: 'no status.nodeRef', evidence: [evidence(objectLabel('machine', m), 'status.nodeRef', null)], since: r.created
      });
    }
  }
  const n = r.objects.node;
  const ready = n && !readyInTopList(n) ? nodeReadyCondition(n) : null;

  if (n && ready && ready.status !== 'True' && lasted(ctx, ready.lastTransitionTime, ctx.config.nodeNotReadyTimeoutMs)) {
    out.push({
      summary: `Node ${ conditionSummary(ready) }`, evidence: conditionEvidence(objectLabel('node', n), ready), since: ready.lastTransitionTime
    });
  }

  return out;
}

/** Whether the Node's own condition list says Ready True, read without making a condition of it. */
function readyInTopList(n: NonNullable<NodeRecord['objects']['node']>): boolean {
  const list = asArray(statusOf(n).conditions);

  for (let i = 0; i < list.length; i++) {
    const c = list[i];

    if (c !== null && typeof c === 'object' && c.type === 'Ready') {
      return c.status === 'True';
    }
  }

  return false;
}

function earliest(times: (string | null)[]): string | null {
  let best: string | null = null;
  let bestMs = Infinity;

  for (const t of times) {
    const ms = parseTime(t);

    if (ms !== null && ms < bestMs) {
      best = t;
      bestMs = ms;
    }
  }

  return best;
}

export const unexplainedNotReady: Rule = {
  id:       'unexplained-not-ready',
  severity: 'warning',
  needs:    [],
  fallback: true,
  check(r, ctx) {
    const signals = notReadySignals(r, ctx);

    if (signals.length === 0) {
      return null;
    }
    const since = earliest(signals.map((s) => s.since));

    return {
      args:     { signals: signals.map((s) => s.summary).join('; '), duration: duration(age(ctx, since)) },
      evidence: signals.flatMap((s) => s.evidence),
      fix:      [
        r.objects.machine ? step(this.id, 'readConditions', {}, kubectlMachine(r, 'describe')) : commonStep('describeNode', {}, `kubectl describe node ${ sh(r.nodeName) }`),
        step(this.id, 'nodeState'),
        step(this.id, 'rancherLogs', {}, 'kubectl -n cattle-system logs -l app=rancher --since=1h | grep -iE "machine|planner"'),
        step(this.id, 'report'),
      ],
      since,
      actions: [],
    };
  },
};
