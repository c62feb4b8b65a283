/**
 * A host report as a short list of facts, for the row detail, the text and Markdown reports. Labels are
 * translated; values are the host's data (names, states, times, counts) and stay as the host wrote them.
 */
import type { HostReport, HostReportMatch, HostService } from '../engine';
import type { Translate } from './translate';
import { sayTime } from './durations';

export interface HostFact {
  key: string;
  label: string;
  value: string;
}

const GIB = 1024 * 1024 * 1024;

function service(s: HostService): string {
  const parts = [
    s.loaded === false ? 'not installed' : [s.state, s.subState].filter(Boolean).join('/') || '?',
    s.restarts !== null ? `restarts ${ s.restarts }` : null,
    s.since ? `since ${ sayTime(s.since) }` : null,
  ];

  return `${ s.name }: ${ parts.filter(Boolean).join(', ') }`;
}

function connectionInfo(h: HostReport): string {
  const ci = h.connectionInfo;

  if (ci.present === false) {
    return `${ ci.path ?? '?' }: absent`;
  }
  const parts = [
    ci.size !== null ? `${ ci.size } bytes` : null,
    ci.parses === null ? null : (ci.parses ? 'parses' : 'does not parse'),
    ci.secretName ? `secretName ${ ci.secretName }` : null,
    ci.namespace ? `namespace ${ ci.namespace }` : null,
    ci.server ? `server ${ ci.server }` : null,
  ];

  return `${ ci.path ?? '?' }: ${ parts.filter(Boolean).join(', ') }`;
}

function clock(h: HostReport): string {
  const c = h.clock;

  if (!c.checked) {
    return `not checked (${ c.reason ?? '?' })`;
  }
  const offset = c.offsetSeconds ?? 0;

  return `${ offset > 0 ? '+' : '' }${ offset } s against ${ c.server ?? '?' }`;
}

function disk(h: HostReport): string {
  const d = h.disk;

  if (d.present === false) {
    return `${ d.path ?? '?' }: absent`;
  }
  if (d.freeBytes === null) {
    return `${ d.path ?? '?' }: ?`;
  }

  return `${ d.path ?? '?' }: ${ (d.freeBytes / GIB).toFixed(1) } GiB free${ d.totalBytes ? ` of ${ (d.totalBytes / GIB).toFixed(1) } GiB` : '' }`;
}

/** The facts of one host report, in the order support reads them. */
export function hostFacts(h: HostReport, t: Translate): HostFact[] {
  const facts: [string, string | null][] = [
    ['hostname', h.hostname],
    ['nodeName', h.nodeName.value ? `${ h.nodeName.value }${ h.nodeName.source ? ` (${ h.nodeName.source })` : '' }` : null],
    ['machineId', h.machineId],
    ['collectedAt', h.collectedAt === null ? null : sayTime(h.collectedAt)],
    ['agent', h.agent ? service(h.agent) : null],
    ['distro', h.distroServices.length ? h.distroServices.map(service).join('; ') : h.distro],
    ['connectionInfo', connectionInfo(h)],
    ['logs', `agent ${ h.logs.agent.read ? `${ h.logs.agent.lines ?? '?' } lines` : 'not read' }, ${ h.distro ?? 'distro' } ${ h.logs.distro.read ? `${ h.logs.distro.lines ?? '?' } lines` : 'not read' }`],
    ...h.signatures.map((s): [string, string] => ['signature', `${ s.id } ×${ s.count } (${ s.first ? sayTime(s.first) : '?' } … ${ s.last ? sayTime(s.last) : '?' })${ s.sample ? `: ${ s.sample }` : '' }`]),
    ...h.certificates.map((c): [string, string] => ['certificate', `${ c.name }: ${ c.notAfter ? sayTime(c.notAfter) : '?' }`]),
    ['clock', clock(h)],
    ['disk', disk(h)],
    ['missingTools', h.missingTools.length ? h.missingTools.join(', ') : null],
    ...h.notes.map((n): [string, string] => ['note', n]),
  ];

  return facts
    .filter((f): f is [string, string] => !!f[1])
    .map(([key, value]) => ({
      key, label: t(`nodeHealth.host.fact.${ key }`), value
    }));
}

/** Who a report says it is, for lists of reports. */
export function hostReportName(m: HostReportMatch): string {
  return m.report.hostname ?? m.report.connectionInfo.secretName ?? m.report.machineId ?? '?';
}
