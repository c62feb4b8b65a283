/**
 * Runs the catalogue over the joined records. Every rule runs in isolation: a rule that trips over an
 * object shape it did not expect marks the record "unknown" with the reason instead of failing the report.
 */
import type {
  DiagnoseOptions, DiagnosisReport, Finding, InputAvailability, NodeRecord, RecordStatus, Severity
} from './types';
import { resolveConfig } from './config';
import { join, unreadableInput } from './join';
import type { JoinResult } from './join';
import { HOST_CONFIRMATIONS, RULES } from './rules';
import { findingOf } from './rules/rule';
import type { Rule, RuleContext } from './rules';
import { toEpochMs } from './time';
import {
  asString, hasFields, metadata, parseTime, statusOf
} from './fields';
import { formerMachineOf } from './objects';
import { nameClaimsOf } from './rules/names';
import { judgeClusters } from './rules/cluster';
import { attachPoolComparisons } from './pools';
import { attachPreflights } from './preflight';
import { attachResolutions } from './resolution';
import { partialInputNotes } from './partial';
import { attachHostReports } from './host-report';
import { relateHosts, relateNamed } from './hosts';
import { AFTER_RULES } from './rules/related';
import { markNodesLeftToTab } from './nodes-left-to-tab';
import { markScoped } from './scoped';
import { judgementOf, sayAgain, sharedGround, trackedContext } from './judgements';
import type { Judgement, Reads } from './judgements';

/** Notes that tell the user something without making the record unjudgeable. */
const INFORMATIONAL_NOTES = new Set(['nodeHealth.notes.nodesUnreadable', 'nodeHealth.notes.noMachine']);
/** Notes that point to a cluster finding the record is part of: the record's own findings say its state. */
const CLUSTER_NOTE = 'nodeHealth.notes.partOf.';

const SEVERITY_RANK: Record<Severity, number> = {
  error: 0, warning: 1, info: 2
};

export const STATUS_ORDER: RecordStatus[] = ['error', 'warning', 'unknown', 'healthy'];

/** Rules whose inputs were all read; availability is the same for every record of one cluster. */
function applicableRules(availability: InputAvailability): Rule[] {
  return RULES.filter((rule) => rule.needs.every((input) => availability[input] === 'ok'));
}

function judge(record: NodeRecord, rules: Rule[], ctx: RuleContext): void {
  const findings: Finding[] = [];
  // Whether a finding so far is a problem (not info): a fallback rule then has nothing to add.
  let problem = false;

  for (let i = 0; i < rules.length; i++) {
    const rule = rules[i];

    if (rule.fallback && problem) {
      continue;
    }
    try {
      const result = rule.check(record, ctx);

      if (result === null) {
        continue;
      }
      const hits = Array.isArray(result) ? result : [result];

      for (const hit of hits) {
        const finding = findingOf(rule, hit);
        const confirmer = record.hostReport ? HOST_CONFIRMATIONS[rule.id] : undefined;
        const confirmation = confirmer && record.hostReport ? confirmer(record, hit, record.hostReport, ctx) : null;

        if (confirmation) {
          finding.evidence = [...hit.evidence, ...confirmation.evidence];
          finding.confirmation = { key: confirmation.key, args: confirmation.args };
        }
        // Confirmed: some of the evidence was read on the host itself.
        if (finding.evidence.some((e) => e.confirmed)) {
          finding.confirmed = true;
        }
        findings.push(finding);
        problem ||= finding.severity !== 'info';
      }
    } catch (e) {
      record.notes.push({ key: 'nodeHealth.notes.ruleFailed', args: { rule: rule.id, message: e instanceof Error ? e.message : String(e) } });
    }
  }
  // Stable: catalogue order breaks ties within a severity.
  findings.sort((a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity]);
  record.findings = findings;

  addNotes(record, ctx);
  settleStatus(record);
}

/**
 * The finding a record is shown by (its row, the fleet's, the Machines list) and whose severity is its status: the
 * first that is a problem, else the first note-like one; null for a record with no finding.
 */
export function topFinding(record: Pick<NodeRecord, 'findings'>): Finding | null {
  return record.findings.find((f) => f.severity !== 'info') ?? record.findings[0] ?? null;
}

/**
 * The finding a record's row names: the root cause its plan leads with (the row's detail starts there), else its
 * worst. The two differ where a finding explains a worse one: an agent that never checked in is why the machine
 * holds back the whole cluster. The record's status stays its worst finding's.
 */
export function leadFinding(record: Pick<NodeRecord, 'findings' | 'resolution'>): Finding | null {
  const root = record.resolution?.rootCause;

  return (root ? record.findings.find((f) => f.rule === root) : undefined) ?? topFinding(record);
}

/** The record's status from its worst finding, else from its notes. */
function settleStatus(record: NodeRecord): void {
  const top = topFinding(record);
  const worst = top && top.severity !== 'info' ? top : null;

  if (worst) {
    record.status = worst.severity as RecordStatus;
    record.statusSince = worst.since;
  } else if (record.notes.some((n) => !INFORMATIONAL_NOTES.has(n.key) && !n.key.startsWith(CLUSTER_NOTE))) {
    record.status = 'unknown';
    record.statusSince = null;
  } else {
    record.status = 'healthy';
    record.statusSince = record.created;
  }
}

/** Times the time-based rules count from: one that is there but cannot be read leaves them unable to judge. */
const RECORD_TIMES = ['creationTimestamp', 'deletionTimestamp'] as const;

function unreadableTimes(r: NodeRecord): { object: string; field: string; value: string }[] {
  const obj = r.objects.machine ?? r.objects.node ?? r.objects.mgmtNode ?? r.objects.planSecret;
  const out: { object: string; field: string; value: string }[] = [];

  if (!obj) {
    return out;
  }
  const meta = metadata(obj);

  for (const field of RECORD_TIMES) {
    const value = meta[field];

    if (value !== undefined && value !== null && parseTime(value) === null) {
      const text = asString(value) ?? `(${ Array.isArray(value) ? 'array' : typeof value })`;

      out.push({
        object: r.machineName ?? r.nodeName ?? '?', field: `metadata.${ field }`, value: text.length > 80 ? `${ text.slice(0, 80) }…` : text
      });
    }
  }

  return out;
}

/** Why a record could not be judged fully; a record with such notes and no finding is "unknown". */
function addNotes(r: NodeRecord, ctx: RuleContext): void {
  const m = r.objects.machine;

  for (const bad of unreadableTimes(r)) {
    r.notes.push({ key: 'nodeHealth.notes.unreadableTime', args: bad });
  }

  if (m && !hasFields(statusOf(m))) {
    r.notes.push({ key: 'nodeHealth.notes.noStatus', args: { object: `Machine ${ r.machineName }` } });
  }
  // A Node without any status has never been reported on by its kubelet: nothing says it is healthy.
  if (r.objects.node && !hasFields(statusOf(r.objects.node))) {
    r.notes.push({ key: 'nodeHealth.notes.noStatus', args: { object: `Node ${ r.nodeName }` } });
  }
  if (m && !r.objects.planSecret && unreadableInput(r.inputs, 'planSecrets') && r.plan.state === 'unknown') {
    r.notes.push({ key: 'nodeHealth.notes.planUnreadable' });
  }
  if (!m && !r.objects.node && !r.objects.mgmtNode && !r.objects.planSecret) {
    r.notes.push({ key: 'nodeHealth.notes.nothingJoined' });
  }
  if (m && !r.objects.node && unreadableInput(r.inputs, 'nodes') && r.nodeName) {
    r.notes.push({ key: 'nodeHealth.notes.nodesUnreadable' });
  }
  const partialNotes = partialInputNotes(r);

  if (partialNotes.length) {
    r.notes.push(...partialNotes);
  }
  const n = r.objects.node;

  // Registered by another tool (no machine ever): worth saying, nothing to fix.
  if (n && !m && r.cluster && ctx.clustersWithMachines.has(r.cluster) && !formerMachineOf(n) &&
    !ctx.expectedNames.get(r.cluster)?.has((r.nodeName ?? '').toLowerCase())) {
    r.notes.push({ key: 'nodeHealth.notes.noMachine' });
  }
}

/** Judges the records, saying again what the earlier judging said where nothing it stood on changed. */
function judgeRemembering(joined: JoinResult, memo: JudgingMemo, rulesFor: Map<InputAvailability, Rule[]>, ctx: RuleContext): void {
  const reads: Reads = {
    clock: false, others: false, until: Infinity
  };
  const tracked = trackedContext(ctx, reads);
  const ground = sharedGround(joined.clusters, [joined.context.availability, ...rulesFor.keys()]);
  const earlier = memo.earlier && memo.earlier.ground === ground ? memo.earlier : null;
  const timeMoved = !earlier || earlier.now !== ctx.now;
  const judgements = new Map<string, Judgement>();

  memo.judged = 0;
  for (const record of joined.records) {
    if (earlier && (memo.carried === 'all' || memo.carried.has(record))) {
      const kept = earlier.judgements.get(record.key);

      if (kept && sayAgain(record, kept, timeMoved, ctx.now)) {
        judgements.set(record.key, kept);
        continue;
      }
    }
    reads.clock = false;
    reads.others = false;
    reads.until = Infinity;
    judge(record, rulesFor.get(record.inputs) as Rule[], tracked);
    memo.judged++;
    const judgement = judgementOf(record, reads);

    if (judgement) {
      judgements.set(record.key, judgement);
    }
  }
  memo.next = {
    judgements, now: ctx.now, ground
  };
}

/** The rules that read other records' findings, on the records those findings name. */
function judgeAfterOthers(named: NodeRecord[], ctx: RuleContext): void {
  for (const record of new Set(named)) {
    let added = false;

    for (const rule of AFTER_RULES) {
      try {
        const hit = rule.check(record, ctx);

        if (hit && !Array.isArray(hit)) {
          record.findings.push(findingOf(rule, hit));
          added = true;
        }
      } catch (e) {
        record.notes.push({ key: 'nodeHealth.notes.ruleFailed', args: { rule: rule.id, message: e instanceof Error ? e.message : String(e) } });
        added = true;
      }
    }
    if (added) {
      record.findings.sort((a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity]);
      settleStatus(record);
    }
  }
}

export function diagnose(objects: unknown[], options: DiagnoseOptions): DiagnosisReport {
  return judgeJoined(join(objects, options.availability, options.defaultCluster, options.clusters), options);
}

/**
 * What an earlier judging said, for a diagnosis whose join carried records over (engine/incremental.ts): `next` is
 * filled with what this judging says, for the one after it.
 */
export interface JudgingMemo {
  /** the judgements by record key, the time they were made at and the ground they stood on (see sharedGround) */
  earlier: { judgements: Map<string, Judgement>; now: number; ground: string } | null;
  /** the records the join carried over unchanged; 'all' when judging the same join again */
  carried: Set<NodeRecord> | 'all';
  next: { judgements: Map<string, Judgement>; now: number; ground: string } | null;
  /** how many records were judged (the rest were said again) */
  judged: number;
}

/** The judging half of a diagnosis, on the records as the join left them. */
export function judgeJoined(joined: JoinResult, options: DiagnoseOptions, memo?: JudgingMemo): DiagnosisReport {
  const now = toEpochMs(options.now);
  const config = resolveConfig(options.config);
  const ctx: RuleContext = {
    ...joined.context, now, config, nameClaims: nameClaimsOf(joined.records), passed: (at) => now >= at, ...(options.scoped ? { scoped: options.scoped } : {})
  };
  const counts: Record<RecordStatus, number> = {
    healthy: 0, warning: 0, error: 0, unknown: 0
  };

  const rulesFor = new Map<InputAvailability, Rule[]>();
  const hosts = attachHostReports(joined.records, options.hostReports ?? []);

  relateHosts(joined.records);
  for (const record of joined.records) {
    let rules = rulesFor.get(record.inputs);

    if (!rules) {
      rules = applicableRules(record.inputs);
      rulesFor.set(record.inputs, rules);
    }
    if (!memo) {
      judge(record, rules, ctx);
    }
  }
  if (memo) {
    judgeRemembering(joined, memo, rulesFor, ctx);
  }
  judgeAfterOthers(relateNamed(joined.records), ctx);
  for (const record of joined.records) {
    counts[record.status]++;
  }
  judgeClusters(joined.clusters, joined.records, ctx);
  attachResolutions(joined.clusters, joined.records);
  // After the cluster's findings: an action's checks read them (paused, agent disconnected).
  attachPreflights(joined.records, now);
  attachPoolComparisons(joined.records, now);
  if (options.nodesLeftToTab) {
    markNodesLeftToTab(joined.records, counts);
  }
  if (options.scoped) {
    markScoped(joined.records, counts, options.scoped);
  }

  return {
    now:      new Date(now).toISOString(),
    clusters: joined.clusters,
    records:  joined.records,
    counts,
    skipped:  joined.skipped,
    hosts,
    ...(joined.events.length ? { events: joined.events } : {}),
    ...(joined.jobs.length ? { jobs: joined.jobs } : {}),
  };
}
