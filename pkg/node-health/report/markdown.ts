/**
 * The Markdown report, for a ticket: the same content as the text report (render.ts), as headings, tables and lists
 * in which nothing from the cluster is read as markup.
 */
import type {
  DiagnosisReport, Finding, MessageArgs, Resolution, TimelineEntry
} from '../engine';
import { eventsIndex, jobsIndex, leadFinding, timelineOf } from '../engine';
import { sayTime, withLocalArgs } from './durations';
import type { Translate } from './translate';
import { hostFacts } from './host-facts';
import { relationText } from './related';
import { poolSentence } from './pool';
import { sinceSentence } from './since';
import { sayObject } from './objects';
import {
  REPORT_TIMELINE_ENTRIES, consequenceTitles, countsLine, hostsToJson, labelled, logTail, recordTitle, sortRecords
} from './render';

/** Markdown text cells must not break the table or inject markup. */
export function mdCell(value: unknown): string {
  return String(value ?? '').replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/[<>]/g, (c) => (c === '<' ? '&lt;' : '&gt;'))
    .replace(/\r?\n/g, ' ');
}

function mdCode(value: string): string {
  const fence = value.includes('```') ? '~~~~' : '```';

  return `${ fence }sh\n${ value }\n${ fence }`;
}

function markdownSteps(steps: { key: string; args?: MessageArgs; command?: string }[], t: Translate): string[] {
  const out: string[] = [];

  steps.forEach((s, i) => {
    out.push(`${ i + 1 }. ${ mdCell(t(s.key, s.args)) }`);
    if (s.command) {
      out.push('', mdCode(s.command).split('\n').map((l) => `   ${ l }`).join('\n'));
    }
  });

  return out;
}

/** The plan in Markdown: the root cause, what it explains, the numbered steps. */
function markdownPlan(res: Resolution | undefined, findings: Finding[], t: Translate): string[] {
  if (!res || res.steps.length === 0) {
    return [];
  }
  const out: string[] = ['', `### ${ t('nodeHealth.plan.title') }`, ''];
  const root = findings.find((f) => f.rule === res.rootCause);

  if (root) {
    out.push(`**${ mdCell(t('nodeHealth.plan.rootCause', { title: t(root.titleKey, root.args) })) }**`, '');
  }
  const consequences = consequenceTitles(res, findings, t);

  if (consequences) {
    out.push(mdCell(t('nodeHealth.plan.consequences', { list: consequences })), '');
  }
  out.push(...markdownSteps(res.steps, t));

  return out;
}

/** A finding in Markdown: heading, cause, evidence list, and its steps where no plan carries them. */
function markdownFinding(f: Finding, t: Translate, withSteps = true, story: TimelineEntry[] = []): string[] {
  const out: string[] = [];
  const started = sinceSentence(f, story, t);

  out.push('', `### ${ t('nodeHealth.report.findingHeading', {
    title: mdCell(t(f.titleKey, f.args)), rule: `\`${ f.rule }\``, severity: t(`nodeHealth.severity.${ f.severity }`), confirmed: f.confirmed ? 'yes' : 'no', label: t('nodeHealth.confirmed.label')
  }) }`, '');
  if (started) {
    out.push(`_${ mdCell(t(started.key, started.args)) }_`, '');
  }
  out.push(mdCell(t(f.causeKey, f.args)), '');
  if (f.confirmation) {
    out.push(`> ${ mdCell(t(f.confirmation.key, f.confirmation.args)) }`, '');
  }
  out.push(`**${ t('nodeHealth.report.evidence') }**`, '');
  for (const e of f.evidence) {
    out.push(`- ${ e.confirmed ? '✔ ' : '' }${ mdCell(sayObject(e.object, t)) } \`${ mdCell(e.path) }\`: ${ e.value === null ? '_none_' : `\`${ mdCell(String(e.value)).replace(/`/g, "'") }\`` }`);
  }
  if (withSteps) {
    out.push('', `**${ t('nodeHealth.report.fix') }**`, '', ...markdownSteps(f.fix, t));
  }

  return out;
}

/** Markdown for a ticket: what concerns whole clusters, a summary table, then per finding its cause, evidence and fix steps. */
export function renderMarkdown(report: DiagnosisReport, translate: Translate): string {
  const t = withLocalArgs(translate);
  const out: string[] = [];
  const sorted = sortRecords(report.records);
  const events = eventsIndex(report.events ?? []);
  const jobs = jobsIndex(report.jobs ?? []);

  out.push(`# ${ t('nodeHealth.report.title') }`, '', labelled(t, t('nodeHealth.report.generated'), sayTime(report.now)), '');
  for (const c of report.clusters) {
    out.push(`- ${ labelled(t, t('nodeHealth.report.cluster'), `**${ mdCell(c.name) }**`) }${ c.mgmtId ? ` (\`${ mdCell(c.mgmtId) }\`)` : '' }${ c.blockingMessage ? ` — ${ mdCell(c.blockingMessage) }` : '' }`);
  }
  for (const c of report.clusters) {
    if ((c.findings ?? []).length > 0 || (c.notes ?? []).length > 0) {
      out.push('', `## ${ t('nodeHealth.report.clusterFindings', { cluster: mdCell(c.name) }) }`);
      out.push(...markdownPlan(c.resolution, c.findings ?? [], t));
      for (const f of c.findings ?? []) {
        out.push(...markdownFinding(f, t, !c.resolution?.steps.length));
      }
      for (const n of c.notes ?? []) {
        out.push('', `- ${ mdCell(t(n.key, n.args)) }`);
      }
    }
  }
  out.push('', countsLine(report, t), '');
  out.push(`| ${ [t('nodeHealth.report.columns.status'), t('nodeHealth.report.columns.machine'), t('nodeHealth.report.columns.node'), t('nodeHealth.report.columns.roles'), t('nodeHealth.report.columns.finding')].join(' | ') } |`);
  out.push('|---|---|---|---|---|');
  for (const r of sorted) {
    const top = leadFinding(r);

    out.push(`| ${ [
      t(`nodeHealth.status.${ r.status }`),
      mdCell(r.objects.machine ? r.machineName : '-'),
      mdCell(r.nodeName ?? '-'),
      // As the tab's table says them: Control Plane, not controlplane.
      mdCell(r.roles.map((role) => t(`nodeHealth.registration.role.${ role }`)).join(', ') || '-'),
      top ? mdCell(t(top.titleKey, top.args)) : '-',
    ].join(' | ') } |`);
  }
  for (const r of sorted) {
    if (r.findings.length === 0 && r.notes.length === 0 && !r.hostReport && !r.related?.length) {
      continue;
    }
    out.push('', `## ${ mdCell(recordTitle(r)) } — ${ t(`nodeHealth.status.${ r.status }`) }`);
    for (const n of r.notes) {
      out.push('', `> ${ mdCell(t(n.key, n.args)) }`);
    }
    out.push(...markdownPlan(r.resolution, r.findings, t));
    const timeline = timelineOf(r, { events: events(r), jobLogs: jobs(r) });

    for (const f of r.findings) {
      out.push(...markdownFinding(f, t, !r.resolution?.steps.length, timeline));
    }
    if (r.related?.length) {
      out.push('', `### ${ t('nodeHealth.report.related') }`, '');
      for (const x of r.related) {
        out.push(`- ${ mdCell(relationText(x, t)) }`);
        for (const e of x.shared.flatMap((v) => v.evidence)) {
          out.push(`  - ${ e.confirmed ? '✔ ' : '' }${ mdCell(sayObject(e.object, t)) } \`${ mdCell(e.path) }\`: \`${ mdCell(String(e.value)).replace(/`/g, "'") }\``);
        }
      }
    }
    const story = timeline.slice(-REPORT_TIMELINE_ENTRIES).reverse();
    const pool = poolSentence(r.pool);

    if (pool) {
      out.push('', mdCell(t(pool.key, pool.args)));
    }
    if (story.length) {
      out.push('', `### ${ t('nodeHealth.report.timeline', { count: story.length }) }`, '');
      for (const e of story) {
        out.push(`- \`${ mdCell(sayTime(e.at)) }\` ${ mdCell(t(`nodeHealth.timeline.source.${ e.source }`)) } — ${ mdCell(sayObject(e.object, t)) }: ${ mdCell(t(e.key, e.args)) }`);
        const tail = logTail(e);

        if (tail.length) {
          // Inside a fence longer than any run of backticks in the log, nothing of it is read as Markdown.
          const fence = '`'.repeat(Math.max(3, ...tail.map((l) => Math.max(0, ...(l.match(/`+/g) ?? []).map((run) => run.length + 1)))));

          out.push('', `  ${ mdCell(t('nodeHealth.report.logTail', { shown: tail.length, total: e.lines?.length ?? 0 })) }`, '', `  ${ fence }text`, ...tail.map((l) => `  ${ l }`), `  ${ fence }`, '');
        }
      }
    }
    if (r.hostReport) {
      out.push('', `### ${ t('nodeHealth.host.reportOf', { host: mdCell(r.hostReport.hostname ?? '?') }) }`, '');
      for (const fact of hostFacts(r.hostReport, t)) {
        out.push(`- ${ labelled(t, mdCell(fact.label), `\`${ mdCell(fact.value).replace(/`/g, "'") }\``) }`);
      }
    }
  }
  const unmatched = hostsToJson(report).filter((h) => !h.matched);

  if (unmatched.length > 0) {
    out.push('', `## ${ t('nodeHealth.host.unmatchedHeading') }`, '');
    for (const h of unmatched) {
      out.push(`- **${ mdCell(h.host) }**: ${ mdCell(t('nodeHealth.host.unmatched', { secret: h.secretName ?? '-', machineId: h.machineId ?? '-' })) }`);
    }
  }

  return `${ out.join('\n') }\n`;
}
