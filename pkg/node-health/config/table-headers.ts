/**
 * The columns of Node Health's tables, as the shell keeps its own (shell/config/table-headers.js): one object
 * per column, for SortableTable's `headers`; a table lists the ones it shows. Sorts name properties of the rows
 * (data/rows.ts NodeRow, fleet/diagnosis.ts FleetRow); the key is always the last sort. Also the columns the
 * extension adds to Rancher's own lists.
 */

export interface TableHeader {
  name: string;
  label?: string;
  labelKey?: string;
  value: string;
  sort: string[] | false;
  width?: number;
  /** a component of ../formatters draws the cell */
  formatter?: string;
  search?: boolean;
}

/** The row's open/close toggle. */
export const OPEN: TableHeader = {
  name: 'open', label: ' ', value: 'key', sort: false, width: 34
};

export const STATUS: TableHeader = {
  name: 'status', labelKey: 'nodeHealth.tab.table.status', value: 'status', sort: ['statusRank', 'machine', 'node'], width: 110
};

// Wide enough for the names Rancher gives (custom-<12 hex>, <pool>-<5 chars>, a host name) on one line: a name
// may still break anywhere, so without a width the table gave its columns to the findings and split every name.
export const MACHINE: TableHeader = {
  name: 'machine', labelKey: 'nodeHealth.tab.table.machine', value: 'machine', sort: ['machine', 'node'], width: 180
};

export const NODE: TableHeader = {
  name: 'node', labelKey: 'nodeHealth.tab.table.node', value: 'node', sort: ['node', 'machine'], width: 170
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

/** The cluster a node belongs to, on the fleet page. */
export const CLUSTER: TableHeader = {
  name: 'cluster', labelKey: 'nodeHealth.fleet.table.cluster', value: 'clusterName', sort: ['clusterName', 'statusRank', 'machine']
};

/** The Node Health tab's table of one cluster's nodes. */
export const NODE_TABLE_HEADERS: readonly TableHeader[] = [OPEN, STATUS, MACHINE, NODE, ROLES, OS, PHASE, FINDING, SINCE];

/** The fleet page's table of every cluster's nodes: where a column ties, the cluster decides. */
export const FLEET_TABLE_HEADERS: readonly TableHeader[] = [
  { ...STATUS, sort: ['statusRank', 'clusterName', 'machine', 'node'] },
  CLUSTER,
  MACHINE,
  NODE,
  { ...FINDING, sort: ['statusRank', 'findingTitleKey', 'clusterName'] },
  { ...SINCE, sort: ['sinceMs:desc', 'clusterName'] },
];

export const CLUSTER_COLUMN_FORMATTER = 'NodeHealthClusterCell';
export const MACHINE_COLUMN_FORMATTER = 'NodeHealthMachineCell';

/**
 * ResourceTable sorts by property paths of its rows (shell utils/sort sortBy), and a cluster model has no
 * property for a value kept outside it. The cluster cell adds this one read-only property to the cluster
 * model's class (fleet/columns.ts installSortProperty), read from the fleet's diagnosis.
 */
export const SORT_PROPERTY = 'nodeHealthSort';

export const CLUSTER_COLUMN_SORT = [`${ SORT_PROPERTY }.rank`, `${ SORT_PROPERTY }.error:desc`, `${ SORT_PROPERTY }.warning:desc`, `${ SORT_PROPERTY }.unknown:desc`, 'nameSort'];

/** The cluster list's column: each cluster's unhealthy nodes by status, sorted worst first. */
export const CLUSTER_COLUMN: TableHeader = {
  name:      'node-health',
  labelKey:  'nodeHealth.fleet.column.label',
  value:     'id',
  formatter: CLUSTER_COLUMN_FORMATTER,
  sort:      CLUSTER_COLUMN_SORT,
  search:    false,
  width:     170,
};

/** The Machines lists' column: each machine's status and top finding. */
export const MACHINE_COLUMN: TableHeader = {
  name:      'node-health',
  labelKey:  'nodeHealth.fleet.column.label',
  value:     'id',
  formatter: MACHINE_COLUMN_FORMATTER,
  sort:      false,
  search:    false,
  width:     230,
};
