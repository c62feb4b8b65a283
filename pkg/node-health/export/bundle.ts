/**
 * The diagnostics bundle: one JSON file that describes a cluster's node health for support. It holds the
 * objects behind the records, reduced to what the diagnosis reads and redacted (and, if asked, with
 * pseudonyms for hosts and addresses), and the records with their findings as the diagnosis of exactly those
 * objects gives them, so that `node-health diagnose <bundle>` gives the same records and findings again and
 * no evidence shows a value the objects do not hold. The command line's loader reads `objects`, `createdAt`
 * and `availability`.
 */
import {
  BUNDLE_FORMAT, diagnose, isPlainObject, linkChain, settleAvailability
} from '../engine';
import type {
  ActionId, ChainLink, ClusterInfo, DiagnoseOptions, DiagnosisReport, HostReport, InputAvailability, KubeObject, NodeRecord, PlanStatus,
  RecordStatus
} from '../engine';
import { hostsToJson, jsonClusters, jsonRecord, sortRecords } from '../report/render';
import type { JsonFinding, JsonRecord, JsonReport } from '../report/render';
import type { Translate } from '../report/translate';
import { redactObjects, redactString, redactValue } from './redact';
import type { LeftOutValue, RedactionSummary } from './redact';
import { createObfuscator } from './obfuscate';
import type { Obfuscator } from './obfuscate';

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
  /** The host reports the diagnosis used (node-health-host/v1, redacted), and what each joined */
  hostReports: HostReport[];
  hosts: JsonReport['hosts'];
  actionLog: unknown[];
  redactions: RedactionSummary;
  /** Plan-secret status values left out because they did not have the shape the agent writes */
  leftOut: LeftOutValue[];
}

export interface SanitizeOptions {
  /** The objects the diagnosis was made from (plain objects, as given to diagnose) */
  objects: unknown[];
  /** The diagnosis to export; made from the objects when absent */
  report?: DiagnosisReport;
  now?: string | number | Date;
  availability?: InputAvailability;
  obfuscate?: boolean;
  /** The cluster Nodes belong to when the objects do not tell, as the diagnosis was made with */
  defaultCluster?: string;
  /** Host reports to diagnose with; those of `report` when absent */
  hostReports?: HostReport[];
  /**
   * How what leaves is diagnosed again: the engine's diagnose, or the view's own when it adds to it (the fleet
   * marks what only a cluster's tab can tell, fleet/diagnosis.ts), so that the export says what the view said.
   */
  diagnoseWith?: (objects: unknown[], options: DiagnoseOptions) => DiagnosisReport;
}

/**
 * A diagnosis made safe to hand out: the diagnosis of the sanitised objects (only the fields the engine
 * reads, redacted, and pseudonymised when asked), so that every text in it comes from them. Renderers take
 * `report` as they would the original.
 */
export interface SanitizedDiagnosis {
  report: DiagnosisReport;
  objects: KubeObject[];
  redactions: RedactionSummary;
  leftOut: LeftOutValue[];
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
  const now = options.report?.now ?? options.now ?? Date.now();
  const { objects: kept, summary: redactions, leftOut } = redactObjects(options.objects);
  const obfuscator: Obfuscator | null = options.obfuscate ? createObfuscator(kept) : null;
  const objects = obfuscator ? kept.map((o) => obfuscator.object(o)) : kept;
  const defaultCluster = options.defaultCluster ?? (options.report?.clusters.length === 1 ? options.report.clusters[0].mgmtId ?? undefined : undefined);
  // Host reports were redacted on the host; they go through the export's own rules again, and the pseudonyms.
  // Like the host part of Rancher's links, the Rancher server's address does not leave.
  const hostReports = (options.hostReports ?? options.report?.hosts?.map((m) => m.report) ?? []).map((h) => {
    const redacted = redactValue(h) as HostReport;
    const withoutServer: HostReport = {
      ...redacted, connectionInfo: { ...redacted.connectionInfo, server: null }, clock: { ...redacted.clock, server: null }
    };

    return obfuscator ? obfuscator.deep(withoutServer) : withoutServer;
  });
  // Diagnosed again from what leaves: every evidence value, argument and record key is one of these objects'.
  const report = (options.diagnoseWith ?? diagnose)(objects, {
    now, availability, defaultCluster, hostReports
  });
  const text = obfuscator ? (s: string) => obfuscator.text(redactString(s)) : (s: string) => redactString(s);

  return {
    report,
    objects,
    redactions,
    leftOut:    obfuscator ? obfuscator.deep(leftOut) : leftOut,
    availability,
    obfuscated: !!obfuscator,
    text,
    deep:       <T>(value: T): T => mapStrings(value, text),
  };
}

/** Bundle records: the JSON report's records with the keys, chain and plan status support asks about. */
export function bundleRecords(report: DiagnosisReport, t: Translate): BundleRecord[] {
  return sortRecords(report.records).map((r) => bundleRecord(r, t));
}

function bundleRecord(r: NodeRecord, t: Translate): BundleRecord {
  const json = jsonRecord(r, t);

  return {
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
    findings:         json.findings.map((f, j) => ({ ...f, actions: [...r.findings[j].actions] })),
  };
}

function toIso(now: string | number | Date): string {
  return new Date(typeof now === 'string' ? Date.parse(now) : now).toISOString();
}

/** Builds a bundle from an already sanitized diagnosis (the tab sanitizes once for all three exports). */
export function bundleFromSanitized(sanitized: SanitizedDiagnosis, options: Omit<BundleOptions, keyof SanitizeOptions>): NodeHealthBundle {
  const report = sanitized.report;
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
    clusters:     jsonClusters(report, options.t),
    counts:       { ...report.counts },
    availability: { ...sanitized.availability },
    unreadable:   sanitized.deep(options.unreadable ?? []),
    records:      bundleRecords(report, options.t),
    objects:      sanitized.objects,
    hostReports:  report.hosts.map((m) => m.report),
    hosts:        hostsToJson(report),
    actionLog:    sanitized.deep(options.actionLog ?? []),
    redactions:   { ...sanitized.redactions },
    leftOut:      sanitized.leftOut.map((v) => ({ ...v })),
  };
}

export function createBundle(options: BundleOptions): NodeHealthBundle {
  const {
    objects, report, now, availability, obfuscate, defaultCluster, hostReports, diagnoseWith, ...rest
  } = options;

  return bundleFromSanitized(sanitizeDiagnosis({
    objects, report, now, availability, obfuscate, defaultCluster, hostReports, diagnoseWith
  }), rest);
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
