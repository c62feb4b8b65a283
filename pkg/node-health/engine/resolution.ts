/**
 * One plan per record and per cluster. A record's findings are not independent: an agent that never checked in
 * is why its machine waits for a Node, why its deletion hangs and why the cluster is held back. Each rule says
 * which other rules' findings it explains (rules/rule.ts `explains`); the plan leads with the finding nothing
 * else on the record explains, then the record's other problems, then the consequences, and asks for each step
 * once, leaving out what the record's state has already done.
 */
import type {
  ClusterInfo, Finding, FixStep, NodeRecord, PlanStep, Resolution
} from './types';
import { RULES } from './rules';
import { recordsByCluster } from './cluster-info';
import { AFTER_RULES } from './rules/related';
import { CLUSTER_RULES } from './rules/cluster';

const CATALOGUE = [...RULES, ...AFTER_RULES];
const EXPLAINS = new Map<string, readonly string[]>(
  CATALOGUE.filter((r) => r.explains?.length).map((r) => [r.id, r.explains as readonly string[]])
);
const SYMPTOMS = new Set([...CATALOGUE, ...CLUSTER_RULES].filter((r) => r.stepsWhenExplained === false).map((r) => r.id));
const ASKED_BY_CLUSTER = new Map(CATALOGUE.filter((r) => r.stepsTheClusterAsks).map((r) => [r.id, r.stepsTheClusterAsks as Readonly<Record<string, string>>]));

/** Whether the record's cluster has the finding that asks for this step of the record's finding already. */
function askedByCluster(f: Finding, s: FixStep, record: NodeRecord | null): boolean {
  const asked = ASKED_BY_CLUSTER.get(f.rule)?.[s.key.slice(s.key.lastIndexOf('.') + 1)];

  return !!asked && !!record?.cluster?.findings.some((c) => c.rule === asked);
}

function explainsOf(f: Finding): readonly string[] {
  return f.explains ?? EXPLAINS.get(f.rule) ?? [];
}

/** The findings that count for a plan: an info finding is a remark, not a problem to fix. */
function problems(findings: Finding[]): Finding[] {
  const worse = findings.filter((f) => f.severity !== 'info');

  return worse.length ? worse : findings;
}

/** The first finding (findings are in severity, then catalogue order) that no other finding on the record explains. */
export function rootCauseOf(findings: Finding[]): Finding | null {
  const list = problems(findings);
  const explained = (f: Finding) => list.some((other) => other !== f && other.rule !== f.rule && explainsOf(other).includes(f.rule));

  return list.find((f) => !explained(f)) ?? list[0] ?? null;
}

/** The findings the root cause explains, and those they explain in turn. */
function consequencesOf(root: Finding, findings: Finding[]): Set<Finding> {
  const out = new Set<Finding>();
  const queue = [root];

  while (queue.length) {
    const cause = queue.shift() as Finding;

    for (const f of findings) {
      if (f !== root && !out.has(f) && explainsOf(cause).includes(f.rule)) {
        out.add(f);
        queue.push(f);
      }
    }
  }

  return out;
}

/**
 * The same step, or one that only runs again a command an earlier step gave (two findings that each ask to
 * describe the Node): a step that acts is kept, its action is what it adds.
 */
function sameStep(a: FixStep, b: FixStep): boolean {
  if (b.command && !b.act && a.command === b.command) {
    return true;
  }

  return a.key === b.key && a.command === b.command && JSON.stringify(a.args ?? {}) === JSON.stringify(b.args ?? {});
}

/** Whether the record's state has already done what the step asks, or the plan says it otherwise. */
function doneAlready(s: FixStep, record: NodeRecord | null, isRoot: boolean): boolean {
  if (s.act === 'delete-machine') {
    return !!record?.deleting;
  }

  // "Settle this machine's own problem first" is what the plan does by leading with that problem.
  return s.act === 'defer' && !isRoot;
}

/** The steps of the findings in this order, each once: a step whose act an earlier step did is left out. */
function planSteps(ordered: Finding[], root: Finding | null, record: NodeRecord | null, consequences: Set<Finding>): PlanStep[] {
  const steps: PlanStep[] = [];
  const acts = new Set<string>();

  for (const f of ordered) {
    if (consequences.has(f) && SYMPTOMS.has(f.rule)) {
      continue;
    }
    for (const s of f.fix) {
      if (doneAlready(s, record, f === root) || askedByCluster(f, s, record) || steps.some((t) => sameStep(t, s)) || (s.act && acts.has(s.act))) {
        continue;
      }
      if (s.act) {
        acts.add(s.act);
      }
      steps.push({ ...s, rule: f.rule });
    }
  }

  // A deleting machine's host registers again only once the machine is gone: after every other step.
  return record?.deleting ? [...steps.filter((s) => s.act !== 're-register'), ...steps.filter((s) => s.act === 're-register')] : steps;
}

/** Consequences in the order they follow: one that another consequence explains comes after it. */
function inCausalOrder(consequences: Finding[]): Finding[] {
  const left = [...consequences];
  const out: Finding[] = [];

  while (left.length) {
    const i = left.findIndex((f) => !left.some((o) => o !== f && o.rule !== f.rule && explainsOf(o).includes(f.rule)));
    // A cycle among consequences keeps the findings' own order.
    const next = left.splice(i < 0 ? 0 : i, 1)[0];

    out.push(next);
  }

  return out;
}

/** Root cause, then the problems it does not explain, then its consequences: the order the plan and the detail use. */
export function orderFindings(findings: Finding[]): { root: Finding | null; ordered: Finding[]; consequences: Set<Finding> } {
  const root = rootCauseOf(findings);

  if (!root) {
    return {
      root, ordered: [], consequences: new Set()
    };
  }
  const consequences = consequencesOf(root, findings);
  const others = findings.filter((f) => f !== root && !consequences.has(f));

  return {
    root, ordered: [root, ...others, ...inCausalOrder(findings.filter((f) => consequences.has(f)))], consequences
  };
}

/** The plan of a record without findings (nearly every one): nothing to do, shared and never written to. */
const NOTHING_TO_DO: Resolution = Object.freeze({
  rootCause: null, consequences: Object.freeze([]) as unknown as string[], steps: Object.freeze([]) as unknown as PlanStep[]
});

export function resolveRecord(record: NodeRecord): Resolution {
  if (record.findings.length === 0) {
    return NOTHING_TO_DO;
  }
  const { root, ordered, consequences } = orderFindings(record.findings);

  return {
    rootCause:    root?.rule ?? null,
    consequences: [...new Set(ordered.filter((f) => consequences.has(f)).map((f) => f.rule))],
    steps:        planSteps(ordered, root, record, consequences),
  };
}

/**
 * The cluster's plan: its own findings first (a disconnected agent or lost quorum comes before any one
 * machine), then the machines the cluster waits for, each named with what is wrong with it.
 */
export function resolveCluster(cluster: ClusterInfo, records: NodeRecord[]): Resolution {
  const { root, ordered, consequences } = orderFindings(cluster.findings);
  // A machine the planner is still configuring in time is progress, not one to settle first.
  const blocking = records.filter((r) => r.findings.some((f) => f.rule === 'blocking-cluster-operation' && f.severity !== 'info'));
  const own = planSteps(ordered, root, null, consequences);
  const settle: PlanStep[] = blocking.map((r) => ({
    key:  'nodeHealth.plan.settleFirst',
    args: { machine: r.machineName ?? r.nodeName ?? r.key, rule: r.resolution?.rootCause ?? 'blocking-cluster-operation' },
    rule: 'blocking-cluster-operation',
  }));
  // A remark about the whole cluster (a pause Rancher keeps while it rotates) is no cause: the machine it waits for is.
  const remarksOnly = !!root && root.severity === 'info' && settle.length > 0;
  const steps = remarksOnly ? [...settle, ...own] : [...own, ...settle];

  return {
    rootCause:    root && !remarksOnly ? root.rule : (blocking.length ? 'blocking-cluster-operation' : root?.rule ?? null),
    consequences: [...new Set(ordered.filter((f) => consequences.has(f)).map((f) => f.rule))],
    steps,
    ...(blocking.length ? { first: blocking.map((r) => r.key) } : {}),
  };
}

/**
 * Whether the machines a cluster's condition names hold it back: its plan asks to settle them first. Machines the
 * planner still configures in time are named too, and are progress.
 */
export function heldBack(cluster: Pick<ClusterInfo, 'blockingMachines' | 'resolution'>): boolean {
  return cluster.blockingMachines.length > 0 && !!cluster.resolution?.first?.length;
}

export function attachResolutions(clusters: ClusterInfo[], records: NodeRecord[]): void {
  for (const r of records) {
    r.resolution = resolveRecord(r);
  }
  const byCluster = recordsByCluster(records);

  for (const c of clusters) {
    c.resolution = resolveCluster(c, byCluster.get(c) ?? []);
  }
}
