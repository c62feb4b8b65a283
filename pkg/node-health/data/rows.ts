/**
 * Table rows from a diagnosis, and the tab's filters over them. One row per NodeRecord, keyed by the
 * record's stable key, with the values the table sorts and searches precomputed once per load so that
 * thousands of rows stay cheap to sort, filter and page.
 */
import {
  ROLE_ORDER, STATUS_ORDER, elapsedMs, toEpochMs, topFinding
} from '../engine';
import type {
  DiagnosisReport, NodeRecord, RecordStatus, Severity, Translate
} from '../engine';
import type { NodeRow, RowFilters } from './types';
import { localizeDurations } from '../report/durations';

export const STATUS_COLORS: Record<RecordStatus, string> = {
  error:   'bg-error',
  warning: 'bg-warning',
  unknown: 'bg-darker',
  healthy: 'bg-success',
};

export const SEVERITY_COLORS: Record<Severity, string> = {
  error:   'bg-error',
  warning: 'bg-warning',
  info:    'bg-info',
};

export const DEFAULT_FILTERS: RowFilters = {
  search: '', status: 'all', role: 'all'
};

/** How long ago a timestamp was, never negative (a clock ahead of ours reads as just now); null when unknown. */
export function sinceMs(nowMs: number, since: string | null): number | null {
  const ms = elapsedMs(since, nowMs);

  return ms === null ? null : Math.max(0, ms);
}

export function rowFor(record: NodeRecord, nowMs: number, t?: Translate): NodeRow {
  const top = topFinding(record);
  const roleList = ROLE_ORDER.filter((r) => record.roles.includes(r));
  const searchable = [
    record.machineName,
    record.nodeName,
    record.host.hostname,
    record.host.planSecretName,
    record.host.machineId,
    record.addresses.external,
    record.addresses.internal,
    record.phase,
    record.os,
    record.status,
    roleList.join(' '),
    // Durations in finding titles are milliseconds until a translator says them.
    ...record.findings.map((f) => (t ? t(f.titleKey, localizeDurations(f.args, t)) : f.rule)),
  ];

  return {
    key:             record.key,
    status:          record.status,
    statusRank:      STATUS_ORDER.indexOf(record.status),
    statusColor:     STATUS_COLORS[record.status],
    // A Node's former machine (from its annotation) is gone: the column shows only machines that exist.
    machine:         record.objects.machine ? record.machineName ?? '' : '',
    node:            record.nodeName ?? '',
    roleList,
    roles:           roleList.join(', '),
    os:              record.os,
    phase:           record.deleting ? 'Deleting' : (record.phase ?? ''),
    findingTitleKey: top?.titleKey ?? null,
    findingArgs:     top?.args ?? {},
    findingSeverity: top?.severity ?? null,
    findingCount:    record.findings.length,
    since:           record.statusSince,
    sinceMs:         sinceMs(nowMs, record.statusSince),
    findingTitles:   record.findings.map((f) => ({ key: f.titleKey, args: f.args })),
    searchText:      searchable.filter((s): s is string => !!s).join('\n').toLowerCase(),
    slowForPool:     !!record.pool?.outlier,
  };
}

/**
 * Rows built without a translator (where the diagnosis runs, in a worker) search the rule ids; here the
 * findings' titles in the user's language are added, each distinct title translated once.
 */
export function translatedSearch(rows: NodeRow[], t: Translate): NodeRow[] {
  const titles = new Map<string, string>();
  const title = (key: string, args: Record<string, string | number>) => {
    const id = `${ key }\u0000${ JSON.stringify(args) }`;
    let text = titles.get(id);

    if (text === undefined) {
      text = t(key, args).toLowerCase();
      titles.set(id, text);
    }

    return text;
  };

  return rows.map((row) => (row.findingTitles.length ? { ...row, searchText: `${ row.searchText }\n${ row.findingTitles.map((f) => title(f.key, f.args)).join('\n') }` } : row));
}

/** Rows in the engine's order of importance: worst status first, then by machine or node name. */
export function buildRows(report: DiagnosisReport, t?: Translate): NodeRow[] {
  const nowMs = toEpochMs(report.now);
  const rows = report.records.map((r) => rowFor(r, nowMs, t));
  const name = (r: NodeRow) => r.machine || r.node;

  return rows.sort((a, b) => a.statusRank - b.statusRank || name(a).localeCompare(name(b)) || a.key.localeCompare(b.key));
}

export function filterRows(rows: NodeRow[], filters: RowFilters): NodeRow[] {
  const terms = filters.search.toLowerCase().split(/\s+/).filter(Boolean);

  if (!terms.length && filters.status === 'all' && filters.role === 'all') {
    return rows;
  }

  return rows.filter((row) => (filters.status === 'all' || row.status === filters.status) &&
    (filters.role === 'all' || row.roleList.includes(filters.role)) &&
    terms.every((term) => row.searchText.includes(term)));
}

export function filtersActive(filters: RowFilters): boolean {
  return filters.search.trim() !== '' || filters.status !== 'all' || filters.role !== 'all';
}
