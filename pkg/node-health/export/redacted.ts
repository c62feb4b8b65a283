/**
 * What leaves a view (the tab's bundle and report file, the fleet page's report file): its own DiagnosisInput and
 * report, redacted once. The objects go through the bundle's redaction (only the fields the rules read, free text
 * without credentials, plan-secret status values of the agent's forms); the report is not made again but carried
 * over: every object it holds becomes its redacted copy and every other text of it goes through the same patterns.
 * Pseudonyms, when asked for, are laid over the redacted diagnosis afterwards, by the same mapping.
 *
 * The redacted diagnosis is plain data: the tab's session (data/session.ts) makes it where the lists are, in its
 * Web Worker, and hands it to the page on demand.
 */
import { settleAvailability } from '../engine';
import type {
  ClusterInfo, DiagnosisReport, HostReport, InputAvailability, KubeObject
} from '../engine';
import { diagnoseInput } from '../data/input';
import type { DiagnosisInput } from '../data/input';
import { redactObjects, redactString, redactValue } from './redact';
import type { LeftOutValue, RedactionSummary } from './redact';
import { createObfuscator } from './obfuscate';

/** An input that could not be read, and why (a permission, an API error). */
export interface UnreadableInput {
  input: string;
  reason: string;
  status?: number | string | null;
}

/** A diagnosis made safe to hand out, as data (it crosses from the tab's worker to the page). */
export interface RedactedDiagnosis {
  /** the diagnosis, every object in it the redacted copy in `objects`, every text of it redacted */
  report: DiagnosisReport;
  objects: KubeObject[];
  redactions: RedactionSummary;
  leftOut: LeftOutValue[];
  availability: InputAvailability;
  /** the cluster the export is made for, as `report.clusters` holds it; null for the fleet or kubectl output */
  cluster: ClusterInfo | null;
  unreadable: UnreadableInput[];
  actionLog: unknown[];
}

/**
 * A redacted diagnosis, with pseudonyms when asked for, and its redaction for other cluster text (a file name);
 * the renderers take `report` as they would the original.
 */
export interface SanitizedDiagnosis extends RedactedDiagnosis {
  obfuscated: boolean;
  text: (value: string) => string;
  deep: <T>(value: T) => T;
}

/** Besides the diagnosis: the cluster it is made for, and the page's texts that leave with it. */
export interface ExportAbout {
  /** one of `report.clusters` */
  cluster?: ClusterInfo | null;
  unreadable?: UnreadableInput[];
  actionLog?: unknown[];
}

/**
 * A copy of a value with every string through `text`, and every value `known` holds replaced by its counterpart
 * (an object by its redacted copy); a value the report holds in several places is copied once and stays shared.
 * Translation keys are the extension's own text: they pass unchanged.
 */
export function mapStrings<T>(value: T, text: (s: string) => string, known: Map<unknown, unknown> = new Map()): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      return v.startsWith('nodeHealth.') ? v : text(v);
    }
    if (v === null || typeof v !== 'object') {
      return v;
    }
    if (known.has(v)) {
      return known.get(v);
    }
    if (Array.isArray(v)) {
      const out: unknown[] = [];

      known.set(v, out);
      for (const item of v) {
        // An object the redaction leaves out entirely is left out of the lists holding it.
        if (!(known.has(item) && known.get(item) === null)) {
          out.push(walk(item));
        }
      }

      return out;
    }
    const out: Record<string, unknown> = {};

    known.set(v, out);
    for (const [k, item] of Object.entries(v)) {
      out[k] = walk(item);
    }

    return out;
  };

  return walk(value) as T;
}

/** A host report as it may leave: redacted again, and without the Rancher server's address (like Rancher's links). */
export function leavingHostReport(h: HostReport): HostReport {
  const redacted = redactValue(h) as HostReport;

  return {
    ...redacted, connectionInfo: { ...redacted.connectionInfo, server: null }, clock: { ...redacted.clock, server: null }
  };
}

/** What could not be read, as the bundle says it. */
export function unreadableOf(issues: { input: string; status?: number | string | null; message?: string | null; kind?: string | null }[]): UnreadableInput[] {
  return issues.map((e) => ({
    input:  e.input,
    status: e.status ?? null,
    reason: e.message || e.kind || (e.status ? `HTTP ${ e.status }` : 'unreadable'),
  }));
}

/** One cluster of a report that is `cluster`, by its identity. */
function sameCluster(report: DiagnosisReport, cluster: ClusterInfo | null | undefined): ClusterInfo | null {
  return cluster ? report.clusters.find((c) => c.namespace === cluster.namespace && c.name === cluster.name && c.mgmtId === cluster.mgmtId) ?? null : null;
}

/**
 * A view's diagnosis redacted: its input's objects through the bundle's redaction, its report carried over to
 * them. The report is the view's own, not made again, so a bundle says what the view said. Only an input whose
 * plan-secret status values were not all of the agent's forms (one not read through the loader, which drops the
 * others: data/sanitize.ts) has its redacted objects diagnosed instead, since its report may show what cannot leave.
 */
export function redactDiagnosis(input: DiagnosisInput, report: DiagnosisReport, about: ExportAbout = {}): RedactedDiagnosis {
  const availability = settleAvailability(input.objects, input.availability);
  const {
    objects, summary, leftOut, copies
  } = redactObjects(input.objects);
  const known = new Map<unknown, unknown>(copies);

  for (const { report: h } of report.hosts) {
    known.set(h, leavingHostReport(h));
  }
  const text = (s: string) => redactString(s);
  let redacted: DiagnosisReport;
  let cluster: ClusterInfo | null;

  if (leftOut.length > 0) {
    redacted = diagnoseInput({
      ...input, objects, availability
    }, undefined, report.hosts.map((m) => known.get(m.report) as HostReport));
    cluster = sameCluster(redacted, about.cluster);
  } else {
    redacted = mapStrings(report, text, known);
    cluster = about.cluster ? mapStrings(about.cluster, text, known) : null;
  }

  return {
    report:     redacted,
    objects,
    redactions: summary,
    leftOut,
    availability,
    cluster,
    unreadable: mapStrings(about.unreadable ?? [], text),
    actionLog:  mapStrings(about.actionLog ?? [], text),
  };
}

/** A redacted diagnosis as it leaves: with host names and IP addresses replaced by pseudonyms when asked for. */
export function sanitizedOf(redacted: RedactedDiagnosis, obfuscate: boolean): SanitizedDiagnosis {
  if (!obfuscate) {
    const text = (s: string) => redactString(s);

    return {
      ...redacted, obfuscated: false, text, deep: (value) => mapStrings(value, text)
    };
  }
  const obfuscator = createObfuscator(redacted.objects);
  const known = new Map<unknown, unknown>(redacted.objects.map((o) => [o, obfuscator.object(o)]));

  for (const { report: h } of redacted.report.hosts) {
    known.set(h, obfuscator.deep(h));
  }
  const pseudonyms = (s: string) => obfuscator.text(s);
  const report = mapStrings(redacted.report, pseudonyms, known);
  const text = (s: string) => obfuscator.text(redactString(s));

  return {
    report,
    objects:      redacted.objects.map((o) => known.get(o) as KubeObject),
    redactions:   redacted.redactions,
    leftOut:      obfuscator.deep(redacted.leftOut),
    availability: redacted.availability,
    cluster:      redacted.cluster ? mapStrings(redacted.cluster, pseudonyms, known) : null,
    unreadable:   mapStrings(redacted.unreadable, pseudonyms),
    actionLog:    mapStrings(redacted.actionLog, pseudonyms),
    obfuscated:   true,
    text,
    deep:         (value) => mapStrings(value, text),
  };
}
