/**
 * The diagnostics bundle: one JSON file that describes a cluster's node health for support. It holds the
 * objects behind the records, reduced to what the diagnosis reads and redacted (and, if asked, with
 * pseudonyms for hosts and addresses), and the records with their findings: the tab's own diagnosis carried
 * over to those objects (redacted.ts), or for the command line the diagnosis of exactly those objects, so that
 * `node-health diagnose <bundle>` gives the same records and findings again and no evidence shows a value the
 * objects do not hold. The command line's loader reads `objects`, `createdAt` and `availability`.
 */
import { BUNDLE_FORMAT, isPlainObject, linkChain, settleAvailability } from '../engine';
import type {
  ActionId, ChainLink, ClusterInfo, DiagnosisReport, HostReport, InputAvailability, KubeObject, NodeRecord,
  PlanStatus, RecordStatus
} from '../engine';
import { diagnoseInput } from '../data/input';
import type { DiagnosisInput } from '../data/input';
import { toJsonReport } from '../report/render';
import type { JsonAdditions, JsonFinding, JsonRecord, JsonReport } from '../report/render';
import type { Translate } from '../report/translate';
import { redactObjects, redactString } from './redact';
import type { LeftOutValue, RedactionSummary } from './redact';
import { createObfuscator } from './obfuscate';
import type { Obfuscator } from './obfuscate';
import { leavingHostReport, mapStrings } from './redacted';
import type { SanitizedDiagnosis, UnreadableInput } from './redacted';

export type { SanitizedDiagnosis, UnreadableInput } from './redacted';

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
  /** The host reports the diagnosis used (node-health-host/v1, redacted), and what each joined */
  hostReports: HostReport[];
  hosts: JsonReport['hosts'];
  actionLog: unknown[];
  redactions: RedactionSummary;
  /** Plan-secret status values left out because they did not have the shape the agent writes */
  leftOut: LeftOutValue[];
}

/**
 * What leaves: a DiagnosisInput (data/input.ts), of which only the objects are required (kubectl output or a bundle
 * has no targets; the engine reads the clusters' identity from the objects then), with how it leaves.
 */
export interface SanitizeOptions extends Partial<Omit<DiagnosisInput, 'objects' | 'now'>> {
  /** The objects to diagnose (plain objects, as given to diagnose): kubectl output, a bundle, a load from Rancher */
  objects: unknown[];
  now?: string | number | Date;
  obfuscate?: boolean;
  /** Host reports to diagnose with */
  hostReports?: HostReport[];
  /** What could not be read, and the actions taken: cluster text, through the same redaction */
  unreadable?: UnreadableInput[];
  actionLog?: unknown[];
}

export interface BundleOptions {
  /** Texts of findings and notes, in the language the bundle is written in */
  t: Translate;
  rancherVersion?: string | null;
  extensionVersion?: string | null;
}

/**
 * Availability as the engine settles it (an input that was not given counts as absent), fixed in the
 * bundle so that leaving out objects no record uses does not change what the diagnosis of the bundle says.
 */
export const settledAvailability = settleAvailability;

/**
 * Objects that no view has diagnosed yet (the command line's kubectl output, a bundle, a load from Rancher) made
 * safe to hand out: redacted (and pseudonymised when asked), then diagnosed, once, so that every text of the
 * diagnosis comes from what leaves. A view's own diagnosis leaves through redactDiagnosis instead (redacted.ts).
 */
export function sanitizeDiagnosis(options: SanitizeOptions): SanitizedDiagnosis {
  const availability = settledAvailability(options.objects, options.availability);
  const { objects: kept, summary: redactions, leftOut } = redactObjects(options.objects);
  const obfuscator: Obfuscator | null = options.obfuscate ? createObfuscator(kept) : null;
  const objects = obfuscator ? kept.map((o) => obfuscator.object(o)) : kept;
  const hostReports = (options.hostReports ?? []).map((h) => {
    const leaving = leavingHostReport(h);

    return obfuscator ? obfuscator.deep(leaving) : leaving;
  });
  const now = options.now ?? Date.now();
  const report = diagnoseInput({
    targets: options.targets ?? [], objects, availability, now: now instanceof Date ? now.getTime() : now, nodesLeftToTab: options.nodesLeftToTab
  }, undefined, hostReports);
  const text = obfuscator ? (s: string) => obfuscator.text(redactString(s)) : (s: string) => redactString(s);

  return {
    report,
    objects,
    redactions,
    leftOut:    obfuscator ? obfuscator.deep(leftOut) : leftOut,
    availability,
    cluster:    report.clusters.length === 1 ? report.clusters[0] : null,
    unreadable: mapStrings(options.unreadable ?? [], text),
    actionLog:  mapStrings(options.actionLog ?? [], text),
    obfuscated: !!obfuscator,
    text,
    deep:       <T>(value: T): T => mapStrings(value, text),
  };
}

/** What the bundle adds to the JSON report: the keys, chain and plan status support asks about, and each finding's actions. */
const BUNDLE_ADDITIONS: JsonAdditions<BundleFinding, BundleRecord> = {
  finding: (json, f) => ({ ...json, actions: [...f.actions] }),
  record:  (json, r) => ({
    key:              r.key,
    ...json,
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
  }),
};

/** Bundle records: the JSON report's records with the keys, chain and plan status support asks about. */
export function bundleRecords(report: DiagnosisReport, t: Translate): BundleRecord[] {
  return toJsonReport(report, t, BUNDLE_ADDITIONS).records;
}

function toIso(now: string | number | Date): string {
  return new Date(typeof now === 'string' ? Date.parse(now) : now).toISOString();
}

/** The bundle of a sanitized diagnosis: its JSON report, made once, with what the bundle adds, and what leaves with it. */
export function bundleFromSanitized(sanitized: SanitizedDiagnosis, options: BundleOptions): NodeHealthBundle {
  const report = sanitized.report;
  const json = toJsonReport(report, options.t, BUNDLE_ADDITIONS);

  return {
    format:       BUNDLE_FORMAT,
    createdAt:    toIso(report.now),
    generator:    {
      name: 'node-health', rancherVersion: options.rancherVersion ?? null, extensionVersion: options.extensionVersion ?? null
    },
    obfuscated:   sanitized.obfuscated,
    cluster:      sanitized.cluster,
    clusters:     json.clusters,
    counts:       { ...report.counts },
    availability: { ...sanitized.availability },
    unreadable:   sanitized.unreadable,
    records:      json.records,
    objects:      sanitized.objects,
    hostReports:  report.hosts.map((m) => m.report),
    hosts:        json.hosts,
    actionLog:    sanitized.actionLog,
    redactions:   { ...sanitized.redactions },
    leftOut:      sanitized.leftOut.map((v) => ({ ...v })),
  };
}

/** The bundle of objects no view has diagnosed (the command line's). */
export function createBundle(options: SanitizeOptions & BundleOptions): NodeHealthBundle {
  const {
    t, rancherVersion, extensionVersion, ...sanitize
  } = options;

  return bundleFromSanitized(sanitizeDiagnosis(sanitize), {
    t, rancherVersion, extensionVersion
  });
}

/** A file that says it is a bundle but does not hold one. */
export class BundleError extends Error {}

/**
 * A bundle read back from a file (the command line's input, the embedded Rancher's `--bundle`): the fields its
 * readers use, each as the writer above wrote it or left empty, since a file is data from elsewhere.
 */
export interface BundleRead {
  /** the moment the diagnosis was made (createdAt; `now` in the first bundles) */
  createdAt: string | null;
  /** the name of the cluster it was made for */
  cluster: string | null;
  rancherVersion: string | null;
  extensionVersion: string | null;
  obfuscated: boolean;
  redactions: Partial<RedactionSummary>;
  availability: InputAvailability;
  objects: KubeObject[];
  /** as written: each is read (and checked) with readHostReport by whoever uses it */
  hostReports: unknown[];
}

/** The document says it is a bundle. */
export function isBundle(doc: unknown): boolean {
  return isPlainObject(doc) && doc.format === BUNDLE_FORMAT;
}

/** Reads a parsed bundle file; throws BundleError for one that is not a bundle or has no objects. */
export function readBundle(doc: unknown): BundleRead {
  if (!isPlainObject(doc) || doc.format !== BUNDLE_FORMAT) {
    throw new BundleError(`not a ${ BUNDLE_FORMAT } file (needs "format": "${ BUNDLE_FORMAT }")`);
  }
  if (!Array.isArray(doc.objects)) {
    throw new BundleError('bundle has no "objects" list');
  }
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  const generator = isPlainObject(doc.generator) ? doc.generator : {};
  const redactions: Partial<RedactionSummary> = {};

  for (const [kind, n] of Object.entries(isPlainObject(doc.redactions) ? doc.redactions : {})) {
    if (typeof n === 'number' && Number.isFinite(n)) {
      redactions[kind as keyof RedactionSummary] = n;
    }
  }

  return {
    createdAt:        text(doc.createdAt) ?? text(doc.now),
    cluster:          isPlainObject(doc.cluster) ? text(doc.cluster.name) : null,
    rancherVersion:   text(generator.rancherVersion),
    extensionVersion: text(generator.extensionVersion),
    obfuscated:       doc.obfuscated === true,
    redactions,
    availability:     isPlainObject(doc.availability) ? { ...doc.availability } as InputAvailability : {},
    objects:          doc.objects as KubeObject[],
    hostReports:      Array.isArray(doc.hostReports) ? doc.hostReports : [],
  };
}
