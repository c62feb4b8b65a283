/**
 * Readable renderings of a diagnosis: plain text for a terminal, Markdown for a support ticket, and the
 * stable JSON report format. All text comes from the translator; cluster text is passed through as data.
 */
import type {
  PoolComparison,
  DiagnosisReport, Finding, MessageArgs, NodeRecord, RecordStatus, Resolution, TimelineEntry
} from '../engine';
import {
  DURATION_ARGS, STATUS_ORDER, eventsIndex, formatDuration, jobsIndex, timelineOf
} from '../engine';
import { sayTime, withLocalArgs } from './durations';
import type { Translate } from './translate';
import { hostReportName } from './host-facts';
import { relationText } from './related';
import { poolSentence } from './pool';
import { sinceSentence } from './since';
import { sayObject } from './objects';

export const REPORT_FORMAT = 'node-health-report/v1';

export interface JsonFinding {
  rule: string;
  severity: string;
  title: string;
  cause: string;
  since: string | null;
  evidence: { object: string; path: string; value: string | number | boolean | null; confirmed?: true }[];
  fix: { text: string; command?: string }[];
  /** Facts read on the node's host confirm the finding */
  confirmed?: true;
  /** What the host showed, in words */
  confirmation?: string;
  /** The durations the title and cause say, as numbers (milliseconds) and in the compact form (2d 4h) */
  durations?: Record<string, { ms: number; text: string }>;
}

/** A host report given to the diagnosis, and the record it was joined to. */
export interface JsonHost {
  host: string;
  secretName: string | null;
  namespace: string | null;
  machineId: string | null;
  collectedAt: string | null;
  /** the machine (or node) of the record it joined, null when it matches no machine */
  matched: string | null;
  by: 'plan-secret' | 'machine-id' | null;
}

/** Another record that is the same host, or that a finding of either names (engine/hosts.ts). */
export interface JsonRelated {
  /** its machine (when the machine exists) and its Node, as `records[]` name them */
  machine: string | null;
  node: string | null;
  /** the relation in words */
  why: string;
  /** certain: they share an id of the host; likely: an address; null: not the same host */
  sameHost: 'certain' | 'likely' | null;
  /** what they share, with where each record read it (this record's field first) */
  shared: { signal: string; value: string; evidence: JsonFinding['evidence'] }[];
  /** rules of this record's findings that name the other, and of the other's that name this one */
  names: string[];
  namedBy: string[];
}

/** What to do, in order: the root cause's rule, then each step once (engine/resolution.ts). */
export interface JsonResolution {
  rootCause: string | null;
  /** rules of the findings the root cause explains */
  consequences: string[];
  steps: { text: string; command?: string; rule: string }[];
  /** a cluster's plan: the records to settle first, by the name `records[]` gives them */
  first?: string[];
}

export interface JsonRecord {
  cluster: string | null;
  machine: string | null;
  node: string | null;
  status: RecordStatus;
  roles: string[];
  os: string;
  plan: string;
  notes: string[];
  findings: JsonFinding[];
  /** Each action the findings offer, with its preflight: allowed only when its checks pass */
  actions: { id: string; allowed: boolean; checks: { id: string; ok: boolean | null; text: string; byUser?: true }[] }[];
  related: JsonRelated[];
  resolution: JsonResolution;
  /** How long the machine took (or is taking) to get its Node, against the other machines of its pool */
  pool?: PoolComparison;
}

export interface JsonReport {
  format: typeof REPORT_FORMAT;
  now: string;
  clusters: {
    name: string; namespace: string | null; id: string | null; kind: string; blockedBy: string[]; message: string | null;
    /** what concerns the whole cluster (init node lost, cluster agent disconnected), shaped like a record's findings */
    findings: JsonFinding[];
    /** checks of the whole cluster that could not judge it, with the reason */
    notes: string[];
    resolution: JsonResolution;
  }[];
  counts: Record<RecordStatus, number>;
  records: JsonRecord[];
  hosts: JsonHost[];
}

/** How much of a record's story the text and Markdown reports print: the newest entries. */
export const REPORT_TIMELINE_ENTRIES = 12;

/** Worst first, then by cluster and name, so the report reads top-down by urgency. */

export function sortRecords(records: NodeRecord[]): NodeRecord[] {
  const rank = (s: RecordStatus) => STATUS_ORDER.indexOf(s);
  const name = (r: NodeRecord) => r.machineName ?? r.nodeName ?? '';

  return [...records].sort((a, b) => rank(a.status) - rank(b.status) ||
    (a.cluster?.name ?? '').localeCompare(b.cluster?.name ?? '') ||
    name(a).localeCompare(name(b)));
}

export function findingToJson(f: Finding, translate: Translate): JsonFinding {
  const t = withLocalArgs(translate);

  const out: JsonFinding = {
    rule:     f.rule,
    severity: f.severity,
    title:    t(f.titleKey, f.args),
    cause:    t(f.causeKey, f.args),
    since:    f.since,
    evidence: f.evidence.map((e) => ({ ...e })),
    fix:      f.fix.map((s) => (s.command ? { text: t(s.key, s.args), command: s.command } : { text: t(s.key, s.args) })),
  };

  if (f.confirmed) {
    out.confirmed = true;
  }
  if (f.confirmation) {
    out.confirmation = t(f.confirmation.key, f.confirmation.args);
  }
  const durations = durationsOf(f.args);

  if (durations) {
    out.durations = durations;
  }

  return out;
}

function durationsOf(args: MessageArgs | undefined): JsonFinding['durations'] | null {
  let out: NonNullable<JsonFinding['durations']> | null = null;

  for (const key of DURATION_ARGS) {
    const ms = args?.[key];

    if (typeof ms === 'number') {
      out ??= {};
      out[key] = { ms, text: formatDuration(ms) };
    }
  }

  return out;
}

/** The record a host report joined, by the name the reports use for records. */
function matchedName(report: DiagnosisReport, key: string | null): string | null {
  const r = key ? report.records.find((x) => x.key === key) : undefined;

  return r ? recordTitle(r) : null;
}

/** What a host report was joined to, and by what; or what it could not be matched by. */
export function hostMatchText(h: JsonHost, t: Translate): string {
  if (!h.matched) {
    return t('nodeHealth.host.unmatched', { secret: h.secretName ?? '-', machineId: h.machineId ?? '-' });
  }

  // The way is worded in the message: Chinese spaces a Latin name ("Plan Secret") but not a Chinese one ("机器 ID").
  return t('nodeHealth.host.matched', { record: h.matched, by: h.by === 'machine-id' ? 'machineId' : 'planSecret' });
}

export function hostsToJson(report: DiagnosisReport): JsonHost[] {
  return (report.hosts ?? []).map((m) => ({
    host:        hostReportName(m),
    secretName:  m.report.connectionInfo.secretName,
    namespace:   m.report.connectionInfo.namespace,
    machineId:   m.report.machineId,
    collectedAt: m.report.collectedAt,
    matched:     matchedName(report, m.record),
    by:          m.by,
  }));
}

const NO_PLAN: Resolution = {
  rootCause: null, consequences: [], steps: []
};

export function resolutionToJson(res: Resolution | undefined, translate: Translate, report?: DiagnosisReport): JsonResolution {
  const t = withLocalArgs(translate);
  const r = res ?? NO_PLAN;
  const out: JsonResolution = {
    rootCause:    r.rootCause,
    consequences: [...r.consequences],
    steps:        r.steps.map((s) => (s.command ? {
      text: t(s.key, s.args), command: s.command, rule: s.rule
    } : { text: t(s.key, s.args), rule: s.rule })),
  };

  if (r.first) {
    out.first = r.first.map((key) => matchedName(report as DiagnosisReport, key) ?? key);
  }

  return out;
}

/**
 * What a caller adds to the JSON report's records, each from its own record and finding as it is made (the bundle's
 * keys, chains and actions, the report file's stories): one pass, nothing paired up afterwards.
 */
export interface JsonAdditions<F extends JsonFinding = JsonFinding, R extends JsonRecord = JsonRecord> {
  finding?: (json: JsonFinding, f: Finding, r: NodeRecord) => F;
  record?: (json: JsonRecord & { findings: F[] }, r: NodeRecord) => R;
}

export function toJsonReport<F extends JsonFinding = JsonFinding, R extends JsonRecord = JsonRecord>(
  report: DiagnosisReport, t: Translate, additions: JsonAdditions<F, R> = {}
): JsonReport & { records: R[] } {
  return {
    format:   REPORT_FORMAT,
    now:      report.now,
    clusters: jsonClusters(report, t),
    counts:   report.counts,
    records:  sortRecords(report.records).map((r) => jsonRecord(r, t, additions)),
    hosts:    hostsToJson(report),
  };
}

/** The clusters as the JSON report holds them. */
export function jsonClusters(report: DiagnosisReport, t: Translate): JsonReport['clusters'] {
  return report.clusters.map((c) => ({
    name:       c.name,
    namespace:  c.namespace,
    id:         c.mgmtId,
    kind:       c.kind,
    blockedBy:  c.blockingMachines,
    message:    c.blockingMessage,
    findings:   (c.findings ?? []).map((f) => findingToJson(f, t)),
    notes:      (c.notes ?? []).map((n) => t(n.key, n.args)),
    resolution: resolutionToJson(c.resolution, t, report),
  }));
}

/** One record as the JSON report holds it, with what the caller adds. */
export function jsonRecord<F extends JsonFinding = JsonFinding, R extends JsonRecord = JsonRecord>(
  r: NodeRecord, t: Translate, additions: JsonAdditions<F, R> = {}
): R {
  const { finding, record } = additions;
  const json: JsonRecord & { findings: F[] } = {
    cluster:  r.cluster?.name ?? null,
    machine:  r.machineName && r.objects.machine ? r.machineName : null,
    node:     r.nodeName,
    status:   r.status,
    roles:    r.roles,
    os:       r.os,
    plan:     r.plan.state,
    notes:    r.notes.map((n) => t(n.key, n.args)),
    findings: r.findings.map((f) => (finding ? finding(findingToJson(f, t), f, r) : findingToJson(f, t) as F)),
    // The same checks the action's dialog shows before it may write.
    actions:  (r.preflight ?? []).map((p) => ({
      id:      p.id,
      allowed: p.allowed,
      // byUser: not judged here; the dialog asks the user to confirm it before the write.
      checks:  p.checks.map((c) => ({
        id: c.id, ok: c.ok, text: t(c.key, c.args), ...(c.byUser ? { byUser: true } : {})
      }))
    })),
    related:    relatedToJson(r, t),
    ...(r.pool ? { pool: r.pool } : {}),
    resolution: resolutionToJson(r.resolution, t),
  };

  return record ? record(json, r) : json as unknown as R;
}

export function relatedToJson(r: NodeRecord, t: Translate): JsonRelated[] {
  return (r.related ?? []).map((x) => ({
    machine:  x.machine,
    node:     x.node,
    why:      relationText(x, t),
    sameHost: x.sameHost,
    shared:   x.shared.map((v) => ({
      signal: v.signal, value: v.value, evidence: v.evidence.map((e) => ({ ...e }))
    })),
    names:    [...x.names],
    namedBy:  [...x.namedBy],
  }));
}

/** The machine's name, and its Node's where it differs (a node driver names the host after the machine). */
export function recordTitle(r: NodeRecord): string {
  const machine = r.objects.machine ? r.machineName : null;

  if (machine && r.nodeName && r.nodeName !== machine) {
    return `${ machine } (${ r.nodeName })`;
  }

  return machine ?? r.nodeName ?? r.machineName ?? r.key;
}

export function countsLine(report: DiagnosisReport, t: Translate): string {
  return STATUS_ORDER.map((s) => labelled(t, t(`nodeHealth.status.${ s }`), String(report.counts[s]))).join('  ');
}

/** The plan as indented text lines: the root cause, what it explains, then the numbered steps. */
function textPlan(res: Resolution | undefined, findings: Finding[], t: Translate, indent: string): string[] {
  if (!res || res.steps.length === 0) {
    return [];
  }
  const out: string[] = [`${ indent }${ labelled(t, t('nodeHealth.plan.title')) }`];
  const root = findings.find((f) => f.rule === res.rootCause);

  if (root) {
    out.push(`${ indent }  ${ t('nodeHealth.plan.rootCause', { title: t(root.titleKey, root.args) }) }`);
  }
  const consequences = consequenceTitles(res, findings, t);

  if (consequences) {
    out.push(`${ indent }  ${ t('nodeHealth.plan.consequences', { list: consequences }) }`);
  }
  res.steps.forEach((s, i) => {
    out.push(`${ indent }  ${ i + 1 }. ${ t(s.key, s.args) }`);
    if (s.command) {
      out.push(`${ indent }     $ ${ s.command }`);
    }
  });

  return out;
}

export function consequenceTitles(res: Resolution, findings: Finding[], t: Translate): string {
  return res.consequences.flatMap((rule) => findings.filter((f) => f.rule === rule)).map((f) => t(f.titleKey, f.args)).join(t('nodeHealth.plan.separator'));
}

/** The text and Markdown reports show the end of a job's log, where it says why it failed; the report file all of it. */
const REPORT_LOG_LINES = 20;

export function logTail(e: TimelineEntry): string[] {
  return (e.lines ?? []).slice(-REPORT_LOG_LINES);
}

/**
 * A label and its value as the language writes them: "Cluster: x" in English, "集群：x" in Chinese (the colon of
 * the translations); a label that ends its line keeps no space after it.
 */
export function labelled(t: Translate, label: string, value?: string): string {
  const colon = t('nodeHealth.colon');

  return value === undefined ? `${ label }${ colon.trimEnd() }` : `${ label }${ colon }${ value }`;
}

/** A message from the cluster may span lines (a provider's log in a condition): its next lines hang under its first. */
function hanging(text: string, indent: string): string {
  return text.replace(/\r?\n/g, `\n${ indent }`);
}

/** A finding as indented text lines: title, cause, evidence, and its steps where no plan carries them. */
function textFinding(f: Finding, t: Translate, indent: string, withSteps = true, story: TimelineEntry[] = []): string[] {
  const out: string[] = [];
  const started = sinceSentence(f, story, t);

  out.push(`${ indent }${ t(`nodeHealth.severity.${ f.severity }`).toUpperCase() } ${ f.rule }: ${ t(f.titleKey, f.args) }${ f.confirmed ? ` [${ t('nodeHealth.confirmed.label') }]` : '' }`);
  if (started) {
    out.push(`${ indent }  ${ hanging(t(started.key, started.args), `${ indent }    `) }`);
  }
  out.push(`${ indent }  ${ hanging(t(f.causeKey, f.args), `${ indent }    `) }`);
  if (f.confirmation) {
    out.push(`${ indent }  ${ hanging(t(f.confirmation.key, f.confirmation.args), `${ indent }    `) }`);
  }
  out.push(`${ indent }  ${ labelled(t, t('nodeHealth.report.evidence')) }`);
  for (const e of f.evidence) {
    out.push(`${ indent }    ${ e.confirmed ? '* ' : '' }${ sayObject(e.object, t) } ${ e.path } = ${ e.value === null ? '<none>' : JSON.stringify(e.value) }`);
  }
  if (!withSteps) {
    return out;
  }
  out.push(`${ indent }  ${ labelled(t, t('nodeHealth.report.fix')) }`);
  f.fix.forEach((s, i) => {
    out.push(`${ indent }    ${ i + 1 }. ${ t(s.key, s.args) }`);
    if (s.command) {
      out.push(`${ indent }       $ ${ s.command }`);
    }
  });

  return out;
}

/** Plain text for a terminal: what concerns whole clusters, then problems, healthy nodes summarised in one line. */
export function renderText(report: DiagnosisReport, translate: Translate): string {
  const t = withLocalArgs(translate);
  const out: string[] = [];

  out.push(t('nodeHealth.report.titleAt', { title: t('nodeHealth.report.title'), time: sayTime(report.now) }));
  for (const c of report.clusters) {
    out.push(`${ labelled(t, t('nodeHealth.report.cluster'), c.name) }${ c.mgmtId && c.mgmtId !== c.name ? ` [${ c.mgmtId }]` : '' }`);
    if (c.blockingMessage) {
      out.push(`  ${ c.blockingCondition }: ${ c.blockingMessage }`);
    }
    // What could not be judged of the cluster, so that its silence is not read as health.
    for (const n of c.notes ?? []) {
      out.push(`  - ${ t(n.key, n.args) }`);
    }
    out.push(...textPlan(c.resolution, c.findings ?? [], t, '  '));
    for (const f of c.findings ?? []) {
      out.push(...textFinding(f, t, '  ', !c.resolution?.steps.length));
    }
  }
  out.push(countsLine(report, t), '');

  const sorted = sortRecords(report.records);
  const events = eventsIndex(report.events ?? []);
  const jobs = jobsIndex(report.jobs ?? []);

  for (const r of sorted) {
    if (r.status === 'healthy') {
      continue;
    }
    out.push(`[${ t(`nodeHealth.status.${ r.status }`).toUpperCase() }] ${ recordTitle(r) }${ r.cluster ? `  ${ labelled(t, t('nodeHealth.report.cluster'), r.cluster.name) }` : '' }`);
    for (const n of r.notes) {
      out.push(`  - ${ t(n.key, n.args) }`);
    }
    out.push(...textPlan(r.resolution, r.findings, t, '  '));
    const timeline = timelineOf(r, { events: events(r), jobLogs: jobs(r) });

    for (const f of r.findings) {
      out.push(...textFinding(f, t, '  ', !r.resolution?.steps.length, timeline));
    }
    if (r.related?.length) {
      out.push(`  ${ labelled(t, t('nodeHealth.report.related')) }`);
      for (const x of r.related) {
        out.push(`    - ${ relationText(x, t) }`);
      }
    }
    const story = timeline.slice(-REPORT_TIMELINE_ENTRIES).reverse();
    const pool = poolSentence(r.pool);

    if (pool) {
      out.push(`  ${ t(pool.key, pool.args) }`);
    }
    if (story.length) {
      out.push(`  ${ labelled(t, t('nodeHealth.report.timeline', { count: story.length })) }`);
      for (const e of story) {
        out.push(`    ${ sayTime(e.at) }  ${ t(`nodeHealth.timeline.source.${ e.source }`) }  ${ sayObject(e.object, t) }: ${ hanging(t(e.key, e.args), '      ') }`);
        const tail = logTail(e);

        if (tail.length) {
          out.push(`      ${ t('nodeHealth.report.logTail', { shown: tail.length, total: e.lines?.length ?? 0 }) }`, ...tail.map((l) => `      | ${ l }`));
        }
      }
    }
    out.push('');
  }
  const healthy = sorted.filter((r) => r.status === 'healthy').length;

  out.push(t('nodeHealth.report.healthySummary', { count: healthy }));
  const hosts = hostsToJson(report);

  if (hosts.length > 0) {
    out.push('', labelled(t, t('nodeHealth.host.reports')));
    for (const h of hosts) {
      out.push(`  ${ h.host }: ${ hostMatchText(h, t) }`);
    }
  }

  return `${ out.join('\n') }\n`;
}
