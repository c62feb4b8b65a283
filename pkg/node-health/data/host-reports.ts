/**
 * Host reports in the tab: read from what the user pastes or uploads, redacted by the export's rules as
 * they are read, and kept in the browser's session storage per cluster (never written to the cluster), so
 * that a refresh or a visit to another page of the session keeps them.
 */
import { HostReportError, isHostReport, readHostReport } from '../engine';
import type { HostReport } from '../engine';
import { redactValue } from '../export/redact';
import type { ClusterTarget } from './types';

/** A host report is a few kilobytes; anything much larger is not one. */
export const MAX_HOST_REPORT_BYTES = 1024 * 1024;
/** Reports kept per cluster; the oldest go first. */
export const MAX_HOST_REPORTS = 200;

const STORAGE_PREFIX = 'node-health:host-reports:';

export interface ReadOutcome {
  reports: HostReport[];
  /** why what was given is not (all) host reports, in the reader's words */
  errors: string[];
}

function readOne(doc: unknown): HostReport {
  if (!isHostReport(doc)) {
    throw new HostReportError('expected a JSON document with "format": "node-health-host/v1"');
  }

  return readHostReport(redactValue(doc));
}

/** One pasted or uploaded text: a host report, or a JSON list of them. */
export function readHostReportText(text: string, source = ''): ReadOutcome {
  const prefix = source ? `${ source }: ` : '';
  const trimmed = text.replace(/^\uFEFF/, '').trim();

  if (!trimmed) {
    return { reports: [], errors: [] };
  }
  if (trimmed.length > MAX_HOST_REPORT_BYTES) {
    return { reports: [], errors: [`${ prefix }larger than a host report can be`] };
  }
  let parsed: unknown;

  try {
    parsed = JSON.parse(trimmed);
  } catch (e) {
    return { reports: [], errors: [`${ prefix }not JSON (${ e instanceof Error ? e.message : String(e) })`] };
  }
  const out: ReadOutcome = { reports: [], errors: [] };

  for (const doc of Array.isArray(parsed) ? parsed : [parsed]) {
    try {
      out.reports.push(readOne(doc));
    } catch (e) {
      if (!(e instanceof HostReportError)) {
        throw e;
      }
      out.errors.push(`${ prefix }${ e.message }`);
    }
  }

  return out;
}

/** An uploaded file's text: UTF-8, or UTF-16 as Windows PowerShell 5.1's ">" writes it. */
export function decodeUpload(bytes: Uint8Array): string {
  if (bytes[0] === 0xFF && bytes[1] === 0xFE) {
    return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  }
  if (bytes[0] === 0xFE && bytes[1] === 0xFF) {
    return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  }

  return new TextDecoder('utf-8').decode(bytes);
}

/** The same host sent twice (same host, same collection time) is kept once, the newest copy last. */
export function mergeHostReports(kept: HostReport[], added: HostReport[]): HostReport[] {
  const key = (r: HostReport) => `${ r.hostname ?? '' }|${ r.connectionInfo.secretName ?? '' }|${ r.machineId ?? '' }|${ r.collectedAt ?? '' }`;
  const byKey = new Map<string, HostReport>();

  for (const r of [...kept, ...added]) {
    byKey.delete(key(r));
    byKey.set(key(r), r);
  }

  return [...byKey.values()].slice(-MAX_HOST_REPORTS);
}

type SessionStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** The browser session's storage, where host reports are kept; null where the browser refuses it. */
export function browserSessionStore(): Storage | null {
  try {
    return typeof window !== 'undefined' ? window.sessionStorage : null;
  } catch {
    return null;
  }
}

/** Host reports are kept per cluster: its management id, else its namespace and name. */
export function hostReportsKey(target: Pick<ClusterTarget, 'mgmtId' | 'namespace' | 'name'> | null): string | null {
  return target ? target.mgmtId ?? `${ target.namespace }/${ target.name }` : null;
}

/** The reports of a cluster kept in this browser session; nothing when storage is unavailable or holds junk. */
export function loadSessionHostReports(storage: SessionStore | null | undefined, clusterKey: string): HostReport[] {
  try {
    const text = storage?.getItem(`${ STORAGE_PREFIX }${ clusterKey }`);

    return text ? readHostReportText(text).reports.slice(-MAX_HOST_REPORTS) : [];
  } catch {
    return [];
  }
}

/** Keeps the reports for this session; a full or unavailable storage only means they are not kept. */
export function saveSessionHostReports(storage: SessionStore | null | undefined, clusterKey: string, reports: HostReport[]): void {
  try {
    if (reports.length === 0) {
      storage?.removeItem(`${ STORAGE_PREFIX }${ clusterKey }`);
    } else {
      storage?.setItem(`${ STORAGE_PREFIX }${ clusterKey }`, JSON.stringify(reports));
    }
  } catch {
    // Quota exceeded or storage disabled: the reports stay in the tab until it is closed.
  }
}
