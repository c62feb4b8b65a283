/**
 * The view-model of every table of node records (the tab's, the fleet page's): rows from a diagnosis, their
 * order, the filters over them and the filters' options, the top finding and the status colours. One row per
 * NodeRecord, keyed by the record's stable key, with the values the table sorts and searches precomputed once
 * per load so that thousands of rows stay cheap to sort, filter and page.
 */
import {
  ROLE_ORDER, RULE_IDS, STATUS_ORDER, elapsedMs, leadFinding, ruleKey, toEpochMs
} from '../engine';
import type {
  DiagnosisReport, NodeRecord, RecordStatus, Severity, Translate
} from '../engine';
import type {
  FleetRow, NodeRow, RowFilters, RowStatus, StatusFilter
} from './types';
import { localizeArgs } from '../report/durations';

export const STATUS_COLORS: Record<RowStatus, string> = {
  error:   'bg-error',
  warning: 'bg-warning',
  unknown: 'bg-darker',
  healthy: 'bg-success',
  pending: 'bg-info',
};

export const SEVERITY_COLORS: Record<Severity, string> = {
  error:   'bg-error',
  warning: 'bg-warning',
  info:    'bg-info',
};

export const DEFAULT_FILTERS: RowFilters = {
  search: '', status: 'all', role: 'all'
};

/** The fleet page's filters: the tab's, and the cluster and the rule. */
export const DEFAULT_FLEET_FILTERS: Required<RowFilters> = {
  ...DEFAULT_FILTERS, cluster: 'all', rule: 'all'
};

/** `<namespace>/<name>` of a provisioning cluster, the key the column and the page look clusters up by. */
export function clusterKeyOf(namespace: string | null | undefined, name: string | null | undefined): string {
  return `${ namespace ?? '' }/${ name ?? '' }`;
}

/** How long ago a timestamp was, never negative (a clock ahead of ours reads as just now); null when unknown. */
export function sinceMs(nowMs: number, since: string | null): number | null {
  const ms = elapsedMs(since, nowMs);

  return ms === null ? null : Math.max(0, ms);
}

export function rowFor(record: NodeRecord, nowMs: number, t?: Translate): NodeRow {
  const top = leadFinding(record);
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
    ...record.findings.map((f) => (t ? t(f.titleKey, localizeArgs(f.args, t)) : f.rule)),
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
    rules:           record.findings.map((f) => f.rule),
  };
}

/** Worst status first, then by cluster (on the fleet's rows), then by machine or node name. */
export function sortRows<R extends NodeRow & { clusterName?: string }>(rows: R[]): R[] {
  const name = (r: R) => r.machine || r.node;

  return rows.sort((a, b) => a.statusRank - b.statusRank || (a.clusterName ?? '').localeCompare(b.clusterName ?? '') ||
    name(a).localeCompare(name(b)) || a.key.localeCompare(b.key));
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

  return sortRows(report.records.map((r) => rowFor(r, nowMs, t)));
}

/** The fleet's rows: every record that is not healthy, with its cluster, worst first, then by cluster and name. */
export function fleetRows(report: DiagnosisReport, t?: Translate): FleetRow[] {
  const nowMs = toEpochMs(report.now);
  const rows: FleetRow[] = [];

  for (const r of report.records) {
    // Only clusters the user can open: a node of a cluster whose provisioning cluster they may not see has no tab to go to.
    if (r.status === 'healthy' || !r.cluster?.namespace) {
      continue;
    }
    const row = rowFor(r, nowMs, t);
    const clusterName = r.cluster.name;
    const clusterNamespace = r.cluster.namespace;

    rows.push({
      ...row,
      clusterKey: clusterKeyOf(clusterNamespace, clusterName),
      clusterName,
      clusterNamespace,
      searchText: `${ row.searchText }\n${ clusterName.toLowerCase() }`,
    });
  }

  return sortRows(rows);
}

function activeFilter(value: string | undefined): value is string {
  return value !== undefined && value !== 'all';
}

/** The rows every filter lets through: status, role, cluster, rule (those set), and every word of the search. */
export function filterRows<R extends NodeRow & { clusterKey?: string }>(rows: R[], filters: RowFilters): R[] {
  const terms = filters.search.toLowerCase().split(/\s+/).filter(Boolean);

  if (!terms.length && !filtersActive(filters)) {
    return rows;
  }

  return rows.filter((row) => (filters.status === 'all' || row.status === filters.status) &&
    (filters.role === 'all' || row.roleList.includes(filters.role)) &&
    (!activeFilter(filters.cluster) || row.clusterKey === filters.cluster) &&
    (!activeFilter(filters.rule) || row.rules.includes(filters.rule)) &&
    terms.every((term) => row.searchText.includes(term)));
}

export function filtersActive(filters: RowFilters): boolean {
  return filters.search.trim() !== '' || filters.status !== 'all' || filters.role !== 'all' || activeFilter(filters.cluster) || activeFilter(filters.rule);
}

/** One choice of a filter. */
export interface FilterOption {
  label: string;
  value: string;
}

/**
 * Rules whose title is made from the finding's arguments (whether quorum is lost, the roles, the other record, a
 * custom host's CustomMachine): where no finding is at hand, as in a filter, they are named by their `name`.
 */
const TITLED_BY_ARGS = new Set(['etcd-quorum', 'role-missing', 'related-record', 'blocking-cluster-operation', 'infrastructure-missing', 'node-status-stale', 'node-not-linked']);

/** The translation key that names a rule without a finding: its title, or its `name` where the title needs arguments. */
export function ruleNameKey(id: string): string {
  return `nodeHealth.rules.${ ruleKey(id) }.${ TITLED_BY_ARGS.has(id) ? 'name' : 'title' }`;
}

/** "All" and the statuses given, in the reader's language. */
export function statusFilterOptions(statuses: readonly RecordStatus[], allLabel: string, t: Translate): FilterOption[] {
  return [{ label: allLabel, value: 'all' }, ...statuses.map((s) => ({ label: t(`nodeHealth.status.${ s }`), value: s as StatusFilter }))];
}

/** "All" and the rules some row has a finding of, in the catalogue's order. */
export function ruleFilterOptions(rows: readonly NodeRow[], allLabel: string, t: Translate): FilterOption[] {
  const present = new Set<string>();

  rows.forEach((r) => r.rules.forEach((id) => present.add(id)));

  return [{ label: allLabel, value: 'all' }, ...RULE_IDS.filter((id) => present.has(id)).map((id) => ({ label: t(ruleNameKey(id)), value: id }))];
}
