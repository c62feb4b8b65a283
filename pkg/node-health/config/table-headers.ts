/**
 * The columns of Node Health's tables, as the shell keeps its own (shell/config/table-headers.js): one object
 * per column, for SortableTable's `headers`; a table lists the ones it shows. Sorts name properties of the rows
 * (data/rows.ts NodeRow); the key is always the last sort.
 */

export interface TableHeader {
  name: string;
  label?: string;
  labelKey?: string;
  value: string;
  sort: string[] | false;
  width?: number;
}

/** The row's open/close toggle. */
export const OPEN: TableHeader = {
  name: 'open', label: ' ', value: 'key', sort: false, width: 34
};

export const STATUS: TableHeader = {
  name: 'status', labelKey: 'nodeHealth.tab.table.status', value: 'status', sort: ['statusRank', 'machine', 'node'], width: 110
};

export const MACHINE: TableHeader = {
  name: 'machine', labelKey: 'nodeHealth.tab.table.machine', value: 'machine', sort: ['machine', 'node']
};

export const NODE: TableHeader = {
  name: 'node', labelKey: 'nodeHealth.tab.table.node', value: 'node', sort: ['node', 'machine']
};

export const ROLES: TableHeader = {
  name: 'roles', labelKey: 'nodeHealth.tab.table.roles', value: 'roles', sort: ['roles', 'machine']
};

export const OS: TableHeader = {
  name: 'os', labelKey: 'nodeHealth.tab.table.os', value: 'os', sort: ['os', 'machine'], width: 90
};

export const PHASE: TableHeader = {
  name: 'phase', labelKey: 'nodeHealth.tab.table.phase', value: 'phase', sort: ['phase', 'machine'], width: 110
};

/** The record's most important finding. */
export const FINDING: TableHeader = {
  name: 'finding', labelKey: 'nodeHealth.tab.table.finding', value: 'findingTitleKey', sort: ['statusRank', 'findingTitleKey', 'machine']
};

/** For how long that finding has held, longest first. */
export const SINCE: TableHeader = {
  name: 'since', labelKey: 'nodeHealth.tab.table.since', value: 'sinceMs', sort: ['sinceMs:desc', 'machine'], width: 100
};

/** The Node Health tab's table of one cluster's nodes. */
export const NODE_TABLE_HEADERS: readonly TableHeader[] = [OPEN, STATUS, MACHINE, NODE, ROLES, OS, PHASE, FINDING, SINCE];
