/**
 * Host reports: what the host check (pkg/node-health/host-check) found on a node's host, read into a fixed
 * shape and joined to the record of the machine the host serves. A report comes from a file or a paste, so
 * it is read like any other untrusted input: only the fields below are kept, every string and list is capped,
 * anything of the wrong type becomes null.
 */
import type { NodeRecord } from './types';
import {
  asArray, asNumber, asObject, asString, parseTime
} from './fields';
import { HOST_REPORT_FORMAT, HOST_SIGNATURES } from './host-report-format';
import type {
  HostCertificate, HostReport, HostReportMatch, HostService, HostSignature, HostSignatureId
} from './host-report-format';

export { HOST_REPORT_FORMAT, HOST_SIGNATURES } from './host-report-format';
export type {
  HostCertificate, HostReport, HostReportMatch, HostService, HostSignature, HostSignatureId
} from './host-report-format';

export class HostReportError extends Error {}

const MAX_TEXT = 500;
const MAX_ITEMS = 32;

function text(value: unknown): string | null {
  const s = asString(value);

  if (s === null || s === '') {
    return null;
  }

  return s.length > MAX_TEXT ? `${ s.slice(0, MAX_TEXT) }…` : s;
}

function bool(value: unknown): boolean | null {
  return typeof value === 'boolean' ? value : null;
}

function count(value: unknown): number | null {
  const n = asNumber(value);

  return n === null ? null : Math.trunc(n);
}

function time(value: unknown): string | null {
  const s = text(value);

  return s && parseTime(s) !== null ? s : null;
}

function list<T>(value: unknown, read: (item: unknown) => T | null): T[] {
  const out: T[] = [];
  const items = asArray(value);

  for (let i = 0; i < items.length && out.length < MAX_ITEMS; i++) {
    const item = read(items[i]);

    if (item !== null) {
      out.push(item);
    }
  }

  return out;
}

function service(value: unknown): HostService | null {
  const o = asObject(value);
  const name = text(o.name);

  if (!name) {
    return null;
  }

  return {
    name,
    loaded:   bool(o.loaded),
    state:    text(o.state),
    subState: text(o.subState),
    restarts: count(o.restarts),
    since:    time(o.since),
  };
}

function signature(value: unknown): HostSignature | null {
  const o = asObject(value);
  const id = asString(o.id) as HostSignatureId;
  const n = count(o.count);

  if (!HOST_SIGNATURES.includes(id) || n === null || n <= 0) {
    return null;
  }

  return {
    id,
    source: o.source === 'distro' ? 'distro' : 'agent',
    count:  n,
    first:  time(o.first),
    last:   time(o.last),
    sample: text(o.sample),
  };
}

function certificate(value: unknown): HostCertificate | null {
  const o = asObject(value);
  const name = text(o.name);

  return name ? {
    name, path: text(o.path), notAfter: time(o.notAfter)
  } : null;
}

function logState(value: unknown): { read: boolean; lines: number | null } {
  const o = asObject(value);

  return { read: o.read === true, lines: count(o.lines) };
}

/** Whether a parsed document claims to be a host report (then it is read as one, or rejected). */
export function isHostReport(doc: unknown): boolean {
  return asObject(doc).format === HOST_REPORT_FORMAT;
}

/** A host report in the engine's shape; throws HostReportError when the document is not one. */
export function readHostReport(doc: unknown): HostReport {
  const o = asObject(doc);

  if (o.format !== HOST_REPORT_FORMAT) {
    throw new HostReportError(`not a ${ HOST_REPORT_FORMAT } document`);
  }
  const ci = asObject(o.connectionInfo);
  const clock = asObject(o.clock);
  const disk = asObject(o.disk);
  const logs = asObject(o.logs);
  const nodeName = asObject(o.nodeName);
  const report: HostReport = {
    format:         HOST_REPORT_FORMAT,
    os:             o.os === 'linux' || o.os === 'windows' ? o.os : 'unknown',
    collectedAt:    time(o.collectedAt),
    hostname:       text(o.hostname),
    nodeName:       { value: text(nodeName.value), source: text(nodeName.source) },
    machineId:      text(o.machineId),
    distro:         text(o.distro),
    agent:          service(o.agent),
    distroServices: list(o.distroServices, service),
    connectionInfo: {
      path:       text(ci.path),
      present:    bool(ci.present),
      size:       count(ci.size),
      parses:     bool(ci.parses),
      secretName: text(ci.secretName),
      namespace:  text(ci.namespace),
      server:     text(ci.server),
    },
    logs:         { agent: logState(logs.agent), distro: logState(logs.distro) },
    signatures:   list(o.signatures, signature),
    certificates: list(o.certificates, certificate),
    clock:        {
      checked:       clock.checked === true,
      reason:        text(clock.reason),
      server:        text(clock.server),
      serverDate:    time(clock.serverDate),
      offsetSeconds: count(clock.offsetSeconds),
    },
    disk: {
      path: text(disk.path), present: bool(disk.present), freeBytes: count(disk.freeBytes), totalBytes: count(disk.totalBytes)
    },
    missingTools: list(o.missingTools, text),
    notes:        list(o.notes, text),
  };

  if (!report.hostname && !report.connectionInfo.secretName && !report.machineId) {
    throw new HostReportError('the report names no host: no hostname, connection info or machine id');
  }

  return report;
}

/** How evidence from a host names its object. */
export function hostLabel(report: HostReport): string {
  return `Host ${ report.hostname ?? report.connectionInfo.secretName ?? report.machineId ?? '?' }`;
}

export function findSignature(report: HostReport, ...ids: HostSignatureId[]): HostSignature | null {
  return report.signatures.find((s) => ids.includes(s.id)) ?? null;
}

function newer(a: HostReport, b: HostReport): boolean {
  return (parseTime(a.collectedAt) ?? 0) > (parseTime(b.collectedAt) ?? 0);
}

/**
 * Gives each record the report of its host: by the plan secret the host's connection info names (what the
 * agent actually serves), else by the machine id. Several reports of one host: the latest is kept. Machine
 * records win over records without a machine that carry the same plan secret.
 */
export function attachHostReports(records: NodeRecord[], reports: HostReport[]): HostReportMatch[] {
  if (reports.length === 0) {
    return [];
  }
  const bySecret = new Map<string, NodeRecord>();
  const byMachineId = new Map<string, NodeRecord>();

  for (const r of records) {
    const secret = r.host.planSecretName;

    if (secret) {
      const key = `${ r.machineNamespace ?? '' }/${ secret }`;
      const held = bySecret.get(key);

      if (!held || (!held.objects.machine && r.objects.machine)) {
        bySecret.set(key, r);
      }
      if (!bySecret.has(`/${ secret }`) || r.objects.machine) {
        bySecret.set(`/${ secret }`, r);
      }
    }
    if (r.host.machineId && r.objects.machine) {
      byMachineId.set(r.host.machineId, r);
    }
  }

  return reports.map((report) => {
    const ci = report.connectionInfo;
    let record: NodeRecord | undefined;
    let by: HostReportMatch['by'] = null;

    if (ci.secretName) {
      record = bySecret.get(`${ ci.namespace ?? '' }/${ ci.secretName }`) ?? (ci.namespace ? undefined : bySecret.get(`/${ ci.secretName }`));
      by = record ? 'plan-secret' : null;
    }
    if (!record && report.machineId) {
      record = byMachineId.get(report.machineId);
      by = record ? 'machine-id' : null;
    }
    if (record && (!record.hostReport || newer(report, record.hostReport))) {
      record.hostReport = report;
    }

    return {
      report, record: record?.key ?? null, by
    };
  });
}
