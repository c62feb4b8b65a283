/**
 * The net under the catalogue: a record is never called healthy while Rancher or Cluster API itself says
 * the machine or its Node is not ready, and a cluster never while Rancher says it waits. When no other rule
 * explains such a record or cluster, these say so, in Rancher's own words (the conditions' reasons and
 * messages) and since when.
 */
import type { Evidence, KubeObject, NodeRecord } from '../types';
import type { Condition } from '../conditions';
import {
  conditionPath, getCondition, hasUnhealthyConditionOf, nodeReadyCondition, rawCondition
} from '../conditions';
import {
  annotation, asArray, asString, hasFields, label, parseTime, statusOf
} from '../fields';
import { machinePhase, nodeRefName } from '../objects';
import { BLOCKING_CONDITIONS } from '../cluster-info';
import { ANNOTATIONS, LABELS } from '../vocabulary';
import {
  CONFLICT, CONTROL_PLANE_WAIT, INFRASTRUCTURE_WAIT, INIT_NODE_JOIN_URL_WAIT, PLANNER_MESSAGES
} from '../signals/planner';
import { CONNECTION_DOWN } from './capi-health';
import { joinUrlsCommand } from './shared';
import type { ClusterRule } from './rule';
import {
  Rule, RuleContext, age, commonStep, conditionEvidence, duration, evidence, kubectl, kubectlMachine, objectLabel, sh, step
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

interface ClusterWait {
  condition: Condition;
  /** When the message was last written: wrangler touches lastUpdateTime whenever a condition's message changes */
  since: string | null;
  updated: string | null;
}

function clusterWait(cluster: KubeObject): ClusterWait | null {
  for (const type of BLOCKING_CONDITIONS) {
    const c = getCondition(cluster, type);

    if (c && c.status !== 'True' && c.message && !CONFLICT.test(c.message)) {
      const updated = asString(rawCondition(cluster, type)?.lastUpdateTime);

      return {
        condition: c, since: updated ?? c.lastTransitionTime, updated
      };
    }
  }

  return null;
}

/**
 * Whether a record may be what the cluster waits for: it has a warning or an error, or a finding that read the
 * cluster's message (the planner naming this machine while it is configured in time, an info).
 */
function explainsWait(r: NodeRecord, message: string): boolean {
  return r.findings.some((f) => f.severity !== 'info' || f.evidence.some((e) => e.value === message));
}

type WaitKind = 'joinUrl' | 'controlPlane' | 'infrastructure';

/** The waits of the planner that no rule reads by itself, whose source says what they wait for (signals/planner.ts). */
function waitKind(message: string): WaitKind | null {
  if (INIT_NODE_JOIN_URL_WAIT.test(message)) {
    return 'joinUrl';
  }
  if (CONTROL_PLANE_WAIT.test(message)) {
    return 'controlPlane';
  }

  return INFRASTRUCTURE_WAIT.test(message) ? 'infrastructure' : null;
}

/**
 * The join URLs such a wait reads, as the plan secrets have them: the init node's, or the control-plane machines'
 * (at most five). Rancher writes one on a server's plan secret once its Machine has the Node's nodeInfo and an address.
 */
function joinUrlEvidence(kind: WaitKind | null, records: NodeRecord[]): Evidence[] {
  const role = kind === 'joinUrl' ? LABELS.initNode : (kind === 'controlPlane' ? LABELS.controlPlaneRole : null);
  // The planner passes over a machine being deleted (roleNot(isDeleting)).
  const secrets = role ? records.filter((r) => !r.deleting).map((r) => r.objects.planSecret).filter((o): o is KubeObject => !!o && label(o, role) === 'true') : [];

  return secrets.slice(0, 5).map((o) => evidence(objectLabel('planSecret', o), `metadata.annotations[${ ANNOTATIONS.joinUrl }]`, annotation(o, ANNOTATIONS.joinUrl)));
}

/** Whether a plan secret read here has the join URL the planner waits for: if one has, the planner reads otherwise. */
type JoinUrlFound = 'yes' | 'no' | 'none';

/** Where to look for what such a wait waits for, with the command. */
function waitSteps(kind: WaitKind | null, found: JoinUrlFound, ns: string | null, name: string): ReturnType<typeof step>[] {
  switch (kind) {
  case 'joinUrl':
    return [step('unexplained-cluster-wait', 'initNodeJoinUrl', { found }, ns ? joinUrlsCommand(ns, LABELS.initNode) : undefined)];
  case 'controlPlane':
    return [step('unexplained-cluster-wait', 'controlPlaneJoinUrl', { found }, ns ? joinUrlsCommand(ns, LABELS.controlPlaneRole) : undefined)];
  case 'infrastructure':
    return [step('unexplained-cluster-wait', 'infrastructure', {}, kubectl('get', 'clusters.cluster.x-k8s.io', [name], { namespace: ns ?? undefined, flags: ['-o yaml'] }))];
  default:
    return [];
  }
}

/**
 * The cluster's net: Rancher has said for longer than an upgrade of one node may take that the cluster waits (its
 * Updated, Provisioned or Ready condition not True, with a message), and nothing of the cluster explains it: no
 * other finding about the cluster, no node with a warning or an error, no finding that read the message. The
 * message may be one the catalogue reads whose rule found nothing in the objects (the planner counts what it
 * reads, rancher#53343), or one it does not know.
 */
export const unexplainedClusterWait: ClusterRule = {
  id:               'unexplained-cluster-wait',
  severity:         'warning',
  fallback:         true,
  needsEveryRecord: true,
  check(input, ctx) {
    const wait = input.provisioning ? clusterWait(input.provisioning) : null;

    if (!wait || input.records.some((r) => explainsWait(r, wait.condition.message as string))) {
      return null;
    }
    const waited = age(ctx, wait.since);

    // A wait Rancher writes without a time still counts: silence is never health.
    if (waited !== null && waited < ctx.config.upgradeTimeoutMs) {
      return null;
    }
    const message = wait.condition.message as string;
    const reader = PLANNER_MESSAGES.find((e) => e.rule !== 'blocking-cluster-operation' && e.pattern.test(message))?.rule ?? null;
    const kind = waitKind(message);
    const ns = input.cluster.namespace;
    const name = input.cluster.name;
    const clusterLabel = objectLabel('cluster', input.provisioning as KubeObject);
    // The planner's lines start "[planner] rkecluster <namespace>/<name>:"; an imported cluster has no planner.
    const logMark = input.cluster.kind === 'provisioned' ? `[planner] rkecluster ${ ns ?? '' }/${ name }:` : input.cluster.mgmtId ?? name;
    const ev = conditionEvidence(clusterLabel, wait.condition);

    if (wait.updated && wait.updated !== wait.condition.lastTransitionTime) {
      ev.push(evidence(clusterLabel, `${ conditionPath(wait.condition) }.lastUpdateTime`, wait.updated));
    }
    const joinUrls = joinUrlEvidence(kind, input.records);
    const found: JoinUrlFound = joinUrls.length === 0 ? 'none' : (joinUrls.some((e) => e.value !== null) ? 'yes' : 'no');

    ev.push(...joinUrls, evidence(clusterLabel, 'nodes with a problem', 0));

    return {
      args: {
        cluster:   name,
        condition: wait.condition.type,
        duration:  duration(waited),
        timed:     waited === null ? 'no' : 'yes',
        known:     reader ? 'reader' : (kind ?? 'no'),
        reader:    reader ?? '-',
        found,
        nodes:     input.records.length,
        // Nodes whose health is not known may hide what the cluster waits for: said, not taken as healthy.
        unknown:   input.records.filter((r) => r.status === 'unknown').length,
      },
      evidence: ev,
      fix:      [
        ...waitSteps(kind, found, ns, name),
        step(this.id, 'conditions', {}, kubectl('get', 'clusters.provisioning.cattle.io', [name], { namespace: ns ?? undefined, flags: [`-o jsonpath='{range .status.conditions[*]}{.type}{"\\t"}{.status}{"\\t"}{.lastUpdateTime}{"\\t"}{.message}{"\\n"}{end}'`] })),
        step(this.id, 'rancherLog', {}, `kubectl -n cattle-system logs -l app=rancher --since=1h | grep -F ${ sh(logMark) }`),
        step(this.id, 'report'),
      ],
      since:   wait.since,
      actions: [],
    };
  },
};
