/**
 * The diagnostics bundle: one JSON file that describes a cluster's node health for support. It holds the
 * records with their findings as the tab showed them, and the objects behind them after redaction (and,
 * if asked, with pseudonyms for hosts and addresses), so that `node-health diagnose <bundle>` gives the same
 * records and findings again. The command line's loader reads `objects`, `createdAt` and `availability`.
 */
import { diagnose, linkChain, settleAvailability } from '../engine';
import type {
  ActionId, ChainLink, ClusterInfo, DiagnosisReport, InputAvailability, KubeObject, NodeRecord, PlanStatus,
  RecordStatus
} from '../engine';
import { sortRecords, toJsonReport } from '../report/render';
import type { JsonFinding, JsonRecord, JsonReport } from '../report/render';
import type { Translate } from '../report/translate';
import { emptySummary, redactObject, redactString, summaryCounter } from './redact';
import type { RedactionSummary } from './redact';
import { createObfuscator } from './obfuscate';
import type { Obfuscator } from './obfuscate';

export const BUNDLE_FORMAT = 'node-health-bundle/v1';

/** An input that could not be read, and why (a permission, an API error). */
export interface UnreadableInput {
  input: string;
  reason: string;
  status?: number | string | null;
}

export interface BundleFinding extends JsonFinding {
  actions: ActionId[];
}

export interface BundleRecord extends Omit<JsonRecord, 'findings'> {
  key: string;
  machineNamespace: string | null;
  phase: string | null;
  statusSince: string | null;
  created: string | null;
  deleting: string | null;
  finalizers: string[];
  addresses: NodeRecord['addresses'];
  host: NodeRecord['host'];
  planStatus: PlanStatus;
  chain: ChainLink[];
  findings: BundleFinding[];
}

export interface NodeHealthBundle {
  format: typeof BUNDLE_FORMAT;
  /** The moment the diagnosis was made; diagnosing the bundle uses it as "now" */
  createdAt: string;
  generator: { name: 'node-health'; rancherVersion: string | null; extensionVersion: string | null };
  /** True when hostnames and IP addresses were replaced by pseudonyms */
  obfuscated: boolean;
  /** The cluster the export was made for, when there is one */
  cluster: ClusterInfo | null;
  clusters: JsonReport['clusters'];
  counts: Record<RecordStatus, number>;
  availability: InputAvailability;
  unreadable: UnreadableInput[];
  records: BundleRecord[];
  objects: KubeObject[];
  actionLog: unknown[];
  redactions: RedactionSummary;
}

export interface SanitizeOptions {
  /** The objects the diagnosis was made from (plain objects, as given to diagnose) */
  objects: unknown[];
  /** The diagnosis to export; made from the objects when absent */
  report?: DiagnosisReport;
  now?: string | number | Date;
  availability?: InputAvailability;
  obfuscate?: boolean;
}

/**
 * A diagnosis made safe to hand out: every string redacted (and pseudonymised when asked), the records'
 * objects replaced by their redacted copies. Renderers take `report` as they would the original.
 */
export interface SanitizedDiagnosis {
  report: DiagnosisReport;
  objects: KubeObject[];
  redactions: RedactionSummary;
  availability: InputAvailability;
  obfuscated: boolean;
  /** The same treatment for other cluster text (action log, error messages) */
  text: (value: string) => string;
  deep: <T>(value: T) => T;
}

export interface BundleOptions extends SanitizeOptions {
  /** Texts of findings and notes, in the language the bundle is written in */
  t: Translate;
  cluster?: ClusterInfo | null;
  rancherVersion?: string | null;
  extensionVersion?: string | null;
  actionLog?: unknown[];
  unreadable?: UnreadableInput[];
}

/**
 * Availability as the engine settles it (an input that was not given counts as absent), fixed in the
 * bundle so that leaving out objects no record uses does not change what the diagnosis of the bundle says.
 */
export const settledAvailability = settleAvailability;

/** The objects a report was made from, as its records hold them (each once). */
export function reportObjects(report: DiagnosisReport): unknown[] {
  const seen = new Set<unknown>();

  for (const r of report.records) {
    for (const obj of Object.values(r.objects)) {
      if (obj) {
        seen.add(obj);
      }
    }
  }

  return [...seen];
}

function isPlainObject(v: unknown): v is Record<string, any> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Translation keys are the extension's own text, not cluster text: they pass unchanged. */
function mapStrings<T>(value: T, fn: (s: string) => string): T {
  if (typeof value === 'string') {
    return (value.startsWith('nodeHealth.') ? value : fn(value)) as unknown as T;
  }
  if (Array.isArray(value)) {
    return value.map((v) => mapStrings(v, fn)) as unknown as T;
  }
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};

    for (const [k, v] of Object.entries(value)) {
      out[k] = mapStrings(v, fn);
    }

    return out as T;
  }

  return value;
}

export function sanitizeDiagnosis(options: SanitizeOptions): SanitizedDiagnosis {
  const availability = settledAvailability(options.objects, options.availability);
  const report = options.report ?? diagnose(options.objects, { now: options.now ?? Date.now(), availability });
  const redactions = emptySummary();
  const count = summaryCounter(redactions);
  const redactedOf = new Map<unknown, KubeObject | null>();
  const kept: KubeObject[] = [];

  for (const obj of options.objects) {
    if (redactedOf.has(obj)) {
      continue;
    }
    const redacted = redactObject(obj, count);

    redactedOf.set(obj, redacted);
    if (redacted) {
      kept.push(redacted);
    }
  }

  const obfuscator: Obfuscator | null = options.obfuscate ? createObfuscator(kept) : null;
  const text = obfuscator ? (s: string) => obfuscator.text(redactString(s)) : (s: string) => redactString(s);
  const deep = <T>(value: T): T => mapStrings(value, text);
  const finalOf = new Map<KubeObject, KubeObject>();

  for (const obj of kept) {
    finalOf.set(obj, obfuscator ? obfuscator.object(obj) : obj);
  }
  // Objects a record holds but the caller did not list are treated the same way, uncounted.
  const sanitizeObject = (obj: unknown): KubeObject | null => {
    const redacted = redactedOf.has(obj) ? redactedOf.get(obj) ?? null : redactObject(obj);

    if (!redacted) {
      return null;
    }

    return finalOf.get(redacted) ?? (obfuscator ? obfuscator.object(redacted) : redacted);
  };

  const clusterOf = new Map<ClusterInfo, ClusterInfo>();

  for (const c of report.clusters) {
    clusterOf.set(c, deep(c));
  }
  const records: NodeRecord[] = report.records.map((r) => {
    // inputs is the engine's own vocabulary (ok, forbidden...), shared by all records: not cluster text.
    const {
      objects, cluster, inputs, ...rest
    } = r;
    const out = deep(rest) as NodeRecord;

    out.inputs = inputs;
    const outObjects: NodeRecord['objects'] = {};

    for (const [kind, obj] of Object.entries(objects) as [keyof NodeRecord['objects'], unknown][]) {
      const sanitized = obj ? sanitizeObject(obj) : null;

      if (sanitized) {
        outObjects[kind] = sanitized;
      }
    }
    out.cluster = cluster ? clusterOf.get(cluster) ?? deep(cluster) : null;
    out.objects = outObjects;

    return out;
  });

  return {
    report: {
      ...report,
      clusters: report.clusters.map((c) => clusterOf.get(c) as ClusterInfo),
      records,
      skipped:  deep(report.skipped),
    },
    objects:    kept.map((o) => finalOf.get(o) as KubeObject),
    redactions,
    availability,
    obfuscated: !!obfuscator,
    text,
    deep,
  };
}

/** Bundle records: the JSON report's records with the keys, chain and plan status support asks about. */
export function bundleRecords(report: DiagnosisReport, t: Translate): BundleRecord[] {
  const json = toJsonReport(report, t).records;

  return sortRecords(report.records).map((r, i) => ({
    key:              r.key,
    ...json[i],
    machineNamespace: r.machineNamespace,
    phase:            r.phase,
    statusSince:      r.statusSince,
    created:          r.created,
    deleting:         r.deleting,
    finalizers:       [...r.finalizers],
    addresses:        { ...r.addresses },
    host:             { ...r.host },
    planStatus:       { ...r.plan, unhealthyProbes: [...r.plan.unhealthyProbes] },
    chain:            linkChain(r),
    findings:         json[i].findings.map((f, j) => ({ ...f, actions: [...r.findings[j].actions] })),
  }));
}

function toIso(now: string | number | Date): string {
  return new Date(typeof now === 'string' ? Date.parse(now) : now).toISOString();
}

/** Builds a bundle from an already sanitized diagnosis (the tab sanitizes once for all three exports). */
export function bundleFromSanitized(sanitized: SanitizedDiagnosis, options: Omit<BundleOptions, keyof SanitizeOptions>): NodeHealthBundle {
  const report = sanitized.report;
  const json = toJsonReport(report, options.t);
  let cluster: ClusterInfo | null = null;

  if (options.cluster) {
    const match = report.clusters.find((c) => (c.mgmtId && c.mgmtId === options.cluster?.mgmtId) ||
      (c.namespace === options.cluster?.namespace && c.name === sanitized.text(options.cluster?.name ?? '')));

    cluster = match ?? sanitized.deep(options.cluster);
  } else if (report.clusters.length === 1) {
    cluster = report.clusters[0];
  }

  return {
    format:       BUNDLE_FORMAT,
    createdAt:    toIso(report.now),
    generator:    {
      name: 'node-health', rancherVersion: options.rancherVersion ?? null, extensionVersion: options.extensionVersion ?? null
    },
    obfuscated:   sanitized.obfuscated,
    cluster,
    clusters:     json.clusters,
    counts:       { ...report.counts },
    availability: { ...sanitized.availability },
    unreadable:   sanitized.deep(options.unreadable ?? []),
    records:      bundleRecords(report, options.t),
    objects:      sanitized.objects,
    actionLog:    sanitized.deep(options.actionLog ?? []),
    redactions:   { ...sanitized.redactions },
  };
}

export function createBundle(options: BundleOptions): NodeHealthBundle {
  const {
    objects, report, now, availability, obfuscate, ...rest
  } = options;

  return bundleFromSanitized(sanitizeDiagnosis({
    objects, report, now, availability, obfuscate
  }), rest);
}
