/**
 * The two columns Node Health adds to Rancher's own lists: on Cluster Management's cluster list, each cluster's
 * nodes by status; on the Machines lists, each machine's status and top finding. Both read the fleet's one
 * diagnosis (source.ts) and are drawn by the formatters in ../formatters.
 */
import {
  STATUS_ORDER, STEVE_TYPES, machineClusterName, nameOf, namespaceOf
} from '../engine';
import type { RecordStatus } from '../engine';
import { STATUS_COLORS } from '../data/rows';
import type { ClusterHealth, ClusterLevelFinding, MachineHealth } from './diagnosis';
import { clusterKeyOf } from './diagnosis';
import type { FleetPhase } from './source';
import { SORT_PROPERTY } from '../config/table-headers';

// The columns themselves (formatter, sort) are in ../config/table-headers with the extension's other headers.
export {
  CLUSTER_COLUMN_FORMATTER, CLUSTER_COLUMN_SORT, MACHINE_COLUMN_FORMATTER, SORT_PROPERTY
} from '../config/table-headers';

export interface ClusterSortKey {
  /** 0 error, 1 warning, 2 unknown, 3 healthy, 4 not known yet */
  rank: number;
  error: number;
  warning: number;
  unknown: number;
}

const NOT_KNOWN: ClusterSortKey = {
  rank: STATUS_ORDER.length, error: 0, warning: 0, unknown: 0
};

export function clusterSortKey(health: ClusterHealth | undefined): ClusterSortKey {
  if (!health) {
    return NOT_KNOWN;
  }

  // The cluster's own findings count with its nodes: a disconnected agent sorts with the clusters in error.
  return {
    rank: health.worstRank, error: health.issues.error, warning: health.issues.warning, unknown: health.issues.unknown
  };
}

/** How the getter reads a row's key: from the fleet source of the cells drawn last. */
let readSortKey: ((row: any) => ClusterSortKey) | null = null;

/**
 * Gives the rows' class a `nodeHealthSort` getter, once. `read` gets the row and answers from the current diagnosis,
 * so the sort follows every refresh without touching the store's objects.
 */
export function installSortProperty(row: object, read: (row: any) => ClusterSortKey): void {
  const proto = Object.getPrototypeOf(row);

  readSortKey = read;
  if (!proto || proto === Object.prototype || Object.prototype.hasOwnProperty.call(proto, SORT_PROPERTY)) {
    return;
  }
  Object.defineProperty(proto, SORT_PROPERTY, {
    configurable: true,
    enumerable:   false,
    get() {
      return readSortKey ? readSortKey(this) : NOT_KNOWN;
    },
  });
}

export interface StatusBadge {
  status: Exclude<RecordStatus, 'healthy'>;
  count: number;
  color: string;
}

/**
 * One finding about the whole cluster, by its title (`id`: its rule); or, with `id` `note`, how many of the
 * cluster's checks could not run.
 */
export interface ClusterBadge {
  id: string;
  status: Exclude<RecordStatus, 'healthy'>;
  titleKey: string;
  args: ClusterLevelFinding['args'];
  color: string;
}

export type ClusterCellView =
  | { kind: 'none' }
  | { kind: 'not-provisioned' }
  | { kind: 'counts'; cluster: ClusterBadge[]; badges: StatusBadge[] };

const UNHEALTHY: Exclude<RecordStatus, 'healthy'>[] = ['error', 'warning', 'unknown'];

/**
 * What the cluster list shows for one cluster: first what concerns the whole cluster (its agent disconnected,
 * etcd quorum lost, a check that could not run), by name, then badges for nodes in error, warning or unknown;
 * nothing when all is well or before the first diagnosis; for a cluster Rancher did not provision (imported)
 * with nothing wrong, that machine checks do not apply to it. A cluster whose nodes look healthy but whose agent
 * is disconnected is never an empty cell: what Rancher shows of those nodes may be stale.
 */
export function clusterCellView(health: ClusterHealth | undefined, phase: FleetPhase): ClusterCellView {
  if (phase !== 'ready' || !health) {
    return { kind: 'none' };
  }
  const cluster: ClusterBadge[] = health.clusterFindings.map((f) => ({
    id: f.rule, status: f.severity, titleKey: f.titleKey, args: f.args, color: STATUS_COLORS[f.severity]
  }));

  if (health.clusterNotes > 0) {
    cluster.push({
      id: 'note', status: 'unknown', titleKey: 'nodeHealth.fleet.column.clusterNotJudged', args: { count: health.clusterNotes }, color: STATUS_COLORS.unknown
    });
  }
  const badges = UNHEALTHY.filter((s) => health.counts[s] > 0).map((status) => ({
    status, count: health.counts[status], color: STATUS_COLORS[status]
  }));

  if (cluster.length || badges.length) {
    return {
      kind: 'counts', cluster, badges
    };
  }

  return health.kind === 'provisioned' ? { kind: 'none' } : { kind: 'not-provisioned' };
}

/** The props the shell gives a list column's formatter: the row, the list's model object. */
export const CELL_PROPS = {
  row: {
    type:     Object,
    required: true,
  },
} as const;

/** The provisioning cluster a cluster-list row stands for. */
export function clusterKeyOfRow(row: any): string {
  return clusterKeyOf(namespaceOf(row), nameOf(row));
}

/** The machine a Machines-list row stands for, and its cluster. */
export function machineOfRow(row: any): { key: string; namespace: string; cluster: string | null } | null {
  const ns = namespaceOf(row);
  const name = nameOf(row);

  if (ns === null || name === null || row?.type !== STEVE_TYPES.machine) {
    return null;
  }

  return {
    key: `${ ns }/${ name }`, namespace: ns, cluster: machineClusterName(row)
  };
}

export type MachineCellView = { kind: 'none' } | { kind: 'status'; health: MachineHealth; color: string };

export function machineCellView(health: MachineHealth | undefined, phase: FleetPhase): MachineCellView {
  return phase === 'ready' && health ? {
    kind: 'status', health, color: STATUS_COLORS[health.status]
  } : { kind: 'none' };
}
