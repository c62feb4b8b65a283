/**
 * What the report file embeds, per language: the engine's JSON report (render.ts toJsonReport) with what the
 * row detail adds to a record (its key, chain, host report, how long it has been in its state), and the
 * translated words of the file's own frame. The file's renderer (viewer.ts) only lays these out: every text
 * in it was said here, by the same translator and duration formatting as the other reports.
 */
import {
  eventsIndex, jobsIndex, linkChain, timelineOf, ROLE_ORDER, STATUS_ORDER, elapsedMs, toEpochMs
} from '../../engine';
import type { ChainLink, DiagnosisReport, NodeRecord, TimelineEntry } from '../../engine';
import { REDACTION_KINDS } from '../../export/redact';
import type { RedactionSummary } from '../../export/redact';
import { sayDurationMs, sayTime, withLocalArgs } from '../durations';
import { hostFacts } from '../host-facts';
import { poolSentence } from '../pool';
import { hostMatchText, toJsonReport } from '../render';
import type { JsonRecord, JsonReport } from '../render';
import { sayObject } from '../objects';
import { sinceSentence } from '../since';
import type { Translate } from '../translate';

export const HTML_REPORT_LANGUAGES = ['en-us', 'zh-hans'] as const;

export type HtmlReportLanguage = typeof HTML_REPORT_LANGUAGES[number];

/** Each language's name in itself, for the switch. */
export const LANGUAGE_NAMES: Record<HtmlReportLanguage, string> = { 'en-us': 'English', 'zh-hans': '简体中文' };

/** Where the report was made from, and what was removed on the way: the bundle's own header when it is one. */
export interface HtmlReportSource {
  from: 'bundle' | 'kubectl' | 'rancher' | 'tab' | 'fleet';
  cluster: string | null;
  /** when the diagnosis (or the bundle) was made */
  createdAt: string;
  rancherVersion: string | null;
  extensionVersion: string | null;
  obfuscated: boolean;
  redactions: Partial<RedactionSummary>;
}

export interface HtmlRecord extends Omit<JsonRecord, 'findings'> {
  /** each with the timeline entry that explains its start, in words (report/since.ts) */
  findings: (JsonRecord['findings'][number] & { started?: string })[];
  key: string;
  phase: string | null;
  /** how long it has been in its state, said in the language; null when unknown */
  since: string | null;
  sinceMs: number | null;
  chain: ChainLink[];
  host: { title: string; facts: [string, string][] } | null;
  /** The record against its pool, in words, where that says something */
  poolText: string | null;
  /** Its story, newest first: every entry for a record that is not healthy, none for a healthy one (the file stays small) */
  timeline: { at: string; source: string; object: string; text: string; lines?: string[] }[];
}

export interface HtmlCluster {
  /** "About the whole cluster X", "What to do first in cluster X", the blocking banner's title */
  title: string;
  planTitle: string;
  blockingTitle: string;
}

export interface HtmlLocaleData {
  lang: HtmlReportLanguage;
  ui: Record<string, string>;
  source: { facts: [string, string][]; redacted: string[] };
  report: Omit<JsonReport, 'records' | 'clusters' | 'hosts'> & {
    clusters: (JsonReport['clusters'][number] & HtmlCluster)[];
    records: HtmlRecord[];
    hosts: (JsonReport['hosts'][number] & { text: string })[];
    /** the diagnosis time as the timeline says times */
    nowText: string;
  };
}

/**
 * The frame's words. Values are translation keys; messages with arguments get `{name}` back for each, which
 * the renderer fills in (the file's own numbers: rows shown, a count).
 */
const UI_KEYS: Record<string, [string, Record<string, string>?]> = {
  title:          ['nodeHealth.report.title'],
  generated:      ['nodeHealth.report.generated'],
  language:       ['nodeHealth.htmlReport.language'],
  readOnly:       ['nodeHealth.htmlReport.readOnly', { time: '{time}' }],
  counts:         ['nodeHealth.tab.summary.label'],
  filterStatus:   ['nodeHealth.tab.filter.status'],
  filterRole:     ['nodeHealth.tab.filter.role'],
  all:            ['nodeHealth.tab.filter.all'],
  search:         ['nodeHealth.tab.filter.search'],
  colStatus:      ['nodeHealth.tab.table.status'],
  colMachine:     ['nodeHealth.tab.table.machine'],
  colNode:        ['nodeHealth.tab.table.node'],
  colRoles:       ['nodeHealth.tab.table.roles'],
  colOs:          ['nodeHealth.tab.table.os'],
  colPhase:       ['nodeHealth.tab.table.phase'],
  colFinding:     ['nodeHealth.tab.table.finding'],
  colSince:       ['nodeHealth.tab.table.since'],
  colCluster:     ['nodeHealth.report.cluster'],
  noRows:         ['nodeHealth.tab.table.noRows'],
  noMatches:      ['nodeHealth.tab.table.noMatches'],
  rows:           ['nodeHealth.htmlReport.rows', {
    from: '{from}', to: '{to}', total: '{total}'
  }],
  previous:       ['nodeHealth.htmlReport.previous'],
  next:           ['nodeHealth.htmlReport.next'],
  showDetails:    ['nodeHealth.tab.table.showDetails', { name: '{name}' }],
  chain:          ['nodeHealth.tab.detail.chain'],
  findings:       ['nodeHealth.tab.detail.findings'],
  noFindings:     ['nodeHealth.tab.detail.noFindings'],
  evidence:       ['nodeHealth.tab.detail.evidence'],
  fix:            ['nodeHealth.tab.detail.fix'],
  copy:           ['nodeHealth.tab.detail.copyCommand'],
  copied:         ['nodeHealth.tab.detail.copied'],
  copyFailed:     ['nodeHealth.tab.detail.copyFailed'],
  related:        ['nodeHealth.tab.detail.related'],
  timeline:       ['nodeHealth.timeline.title'],
  open:           ['nodeHealth.related.open'],
  planTitle:      ['nodeHealth.plan.title'],
  rootCause:      ['nodeHealth.plan.rootCause', { title: '{title}' }],
  consequences:   ['nodeHealth.plan.consequences', { list: '{list}' }],
  separator:      ['nodeHealth.plan.separator'],
  colon:          ['nodeHealth.colon'],
  otherFindings:  ['nodeHealth.plan.otherFindings'],
  settleFirst:    ['nodeHealth.plan.settleFirst', { machine: '{machine}' }],
  confirmed:      ['nodeHealth.confirmed.label'],
  actions:        ['nodeHealth.htmlReport.actions'],
  checksTitle:    ['nodeHealth.preflight.title'],
  passed:         ['nodeHealth.preflight.passed'],
  failed:         ['nodeHealth.preflight.failed'],
  notJudged:      ['nodeHealth.preflight.unknown'],
  refused:        ['nodeHealth.preflight.refused'],
  allowed:        ['nodeHealth.htmlReport.allowed'],
  hostReports:    ['nodeHealth.host.reports'],
  none:           ['nodeHealth.htmlReport.none'],
  noScript:       ['nodeHealth.htmlReport.noScript'],
};

const UI_KEY_FAMILIES: Record<string, string[]> = {
  status:    [...STATUS_ORDER],
  severity:  ['error', 'warning', 'info'],
  planState: ['in-sync', 'waiting-for-agent', 'waiting-for-plan', 'applying', 'apply-failed', 'probes-failing', 'no-plan', 'unknown'],
  // Roles and operating systems as the tab's table says them
  role:      [...ROLE_ORDER],
  os:        ['linux', 'windows'],
};

const CHAIN_KINDS: ChainLink['kind'][] = ['machine', 'planSecret', 'bootstrap', 'infraMachine', 'mgmtNode', 'node'];
const CHAIN_STATES = ['present', 'missing', 'waiting', 'failed', 'unreadable', 'not-loaded', 'not-applicable', 'unlinked'];
const ACTIONS = ['remove-finalizers', 'etcd-force-remove', 're-register', 'force-delete', 'delete-machine', 'resume-machine'];

function uiTable(t: Translate): Record<string, string> {
  const ui: Record<string, string> = {};

  for (const [name, [key, args]] of Object.entries(UI_KEYS)) {
    ui[name] = t(key, args);
  }
  UI_KEY_FAMILIES.status.forEach((s) => (ui[`status.${ s }`] = t(`nodeHealth.status.${ s }`)));
  UI_KEY_FAMILIES.severity.forEach((s) => (ui[`severity.${ s }`] = t(`nodeHealth.severity.${ s }`)));
  UI_KEY_FAMILIES.planState.forEach((s) => (ui[`planState.${ s }`] = t(`nodeHealth.planState.${ s }`)));
  UI_KEY_FAMILIES.role.forEach((s) => (ui[`role.${ s }`] = t(`nodeHealth.registration.role.${ s }`)));
  UI_KEY_FAMILIES.os.forEach((s) => (ui[`os.${ s }`] = t(`nodeHealth.registration.os.${ s }`)));
  CHAIN_KINDS.forEach((k) => (ui[`chain.kind.${ k }`] = t(`nodeHealth.chain.kind.${ k }`)));
  CHAIN_STATES.forEach((s) => (ui[`chain.state.${ s }`] = t(`nodeHealth.chain.state.${ s }`)));
  // The tab's menu items end in an ellipsis (they open a dialog); here they only name the action.
  ACTIONS.forEach((a) => (ui[`action.${ a }`] = t(`nodeHealth.tab.actions.${ a }`).replace(/…$/, '')));

  return ui;
}

function sourceFacts(source: HtmlReportSource, t: Translate): HtmlLocaleData['source'] {
  const facts: [string, string][] = [
    [t('nodeHealth.htmlReport.source.from'), t(`nodeHealth.htmlReport.source.fromKind.${ source.from }`)],
    [t('nodeHealth.htmlReport.source.cluster'), source.cluster ?? '-'],
    [t('nodeHealth.htmlReport.source.createdAt'), sayTime(source.createdAt)],
    [t('nodeHealth.htmlReport.source.rancherVersion'), source.rancherVersion ?? t('nodeHealth.htmlReport.none')],
    [t('nodeHealth.htmlReport.source.extensionVersion'), source.extensionVersion ?? t('nodeHealth.htmlReport.none')],
  ];

  if (source.obfuscated) {
    facts.push([t('nodeHealth.htmlReport.source.obfuscated'), t('nodeHealth.htmlReport.source.obfuscatedYes')]);
  }
  const redacted = REDACTION_KINDS.filter((k) => (source.redactions[k] ?? 0) > 0).map((k) => t(`nodeHealth.export.redaction.${ k }`, { count: source.redactions[k] ?? 0 }));

  return { facts, redacted };
}

/** A finding whose evidence names its objects in the file's language (report/objects.ts). */
function withObjectsSaid<F extends { evidence: { object: string }[] }>(f: F, t: Translate): F {
  return { ...f, evidence: f.evidence.map((e) => ({ ...e, object: sayObject(e.object, t) })) };
}

/** One language's data for the report file. */
export function htmlLocaleData(report: DiagnosisReport, t: Translate, lang: HtmlReportLanguage, source: HtmlReportSource): HtmlLocaleData {
  const nowMs = toEpochMs(report.now);
  const events = eventsIndex(report.events ?? []);
  const jobs = jobsIndex(report.jobs ?? []);
  // Durations and times in the record's story and its pool's sentence, said in the file's language.
  const said = withLocalArgs(t);
  // Each record's story, told once for its findings and its timeline.
  const stories = new Map<NodeRecord, TimelineEntry[]>();
  const storyOf = (rec: NodeRecord): TimelineEntry[] => {
    let story = stories.get(rec);

    if (!story) {
      story = rec.status === 'healthy' ? [] : timelineOf(rec, { events: events(rec), jobLogs: jobs(rec) });
      stories.set(rec, story);
    }

    return story;
  };
  const json = toJsonReport<HtmlRecord['findings'][number], HtmlRecord>(report, t, {
    finding: (f, finding, rec) => {
      const started = sinceSentence(finding, storyOf(rec), said);
      const saidObjects = withObjectsSaid(f, t);

      return started ? { ...saidObjects, started: said(started.key, started.args) } : saidObjects;
    },
    record: (r, rec) => {
      const pool = poolSentence(rec.pool);
      const elapsed = elapsedMs(rec.statusSince, nowMs);
      const sinceMs = elapsed === null ? null : Math.max(0, elapsed);
      const h = rec.hostReport;

      return {
        ...r,
        key:      rec.key,
        phase:    rec.phase,
        since:    sinceMs === null ? null : sayDurationMs(sinceMs, t),
        sinceMs,
        chain:    linkChain(rec),
        host:     h ? { title: t('nodeHealth.host.reportOf', { host: h.hostname ?? '?' }), facts: hostFacts(h, t).map((f): [string, string] => [f.label, f.value]) } : null,
        poolText: pool ? said(pool.key, pool.args) : null,
        timeline: [...storyOf(rec)].reverse().map((e) => ({
          at: sayTime(e.at), source: t(`nodeHealth.timeline.source.${ e.source }`), object: sayObject(e.object, t), text: said(e.key, e.args), ...(e.lines?.length ? { lines: e.lines } : {})
        })),
      };
    },
  });
  const records = json.records;

  return {
    lang,
    ui:     uiTable(t),
    source: sourceFacts(source, t),
    report: {
      format:   json.format,
      now:      json.now,
      nowText:  sayTime(json.now),
      counts:   json.counts,
      clusters: json.clusters.map((c) => ({
        ...c,
        findings:      c.findings.map((f) => withObjectsSaid(f, t)),
        title:         t('nodeHealth.report.clusterFindings', { cluster: c.name }),
        planTitle:     t('nodeHealth.plan.clusterTitle', { cluster: c.name }),
        blockingTitle: t('nodeHealth.tab.blocking.title', { count: c.blockedBy.length }),
      })),
      records,
      hosts: json.hosts.map((h) => ({
        ...h,
        text: hostMatchText(h, t),
      })),
    },
  };
}
