/**
 * Rows before the diagnosis: the cluster page has already loaded every CAPI Machine into the dashboard store
 * before it draws its tabs, so the tab can show one row per Machine of its cluster at once, each with the
 * `pending` status ("Checking…"), and replace them with the session's rows, which carry the same keys
 * (`machine:<namespace>/<name>`), when the diagnosis is in. Built on the page's main thread, so only what a
 * Machine says of itself is read: its name, its roles and OS (labels), its phase and its Node's name; no join, no check.
 */
import {
  ROLE_ORDER, STATUS_ORDER, STEVE_TYPES, deletionTimestamp, isPlainObject, machineClusterName, machinePhase, machineRoles, nodeRefName,
  operatingSystem
} from '../engine';
import type { KubeObject } from '../engine';
import { STATUS_COLORS, sortRows } from './rows';
import { completeList } from './store-lists';
import type { StoreGetters, Unwrap } from './store-lists';
import type { ClusterTarget, NodeRow } from './types';

/** After every verdict: pending rows sort together, below the diagnosed ones. */
export const PENDING_RANK = STATUS_ORDER.length;

/** The row of a Machine whose verdict is not in yet. */
export function pendingRow(machine: KubeObject): NodeRow {
  const name = machine.metadata?.name ?? '';
  const roles = machineRoles(machine);
  const roleList = ROLE_ORDER.filter((r) => roles.includes(r));
  const node = nodeRefName(machine) ?? '';
  const phase = deletionTimestamp(machine) ? 'Deleting' : (machinePhase(machine) ?? '');

  return {
    key:             `machine:${ machine.metadata?.namespace ?? '' }/${ name }`,
    status:          'pending',
    statusRank:      PENDING_RANK,
    statusColor:     STATUS_COLORS.pending,
    machine:         name,
    node,
    roleList,
    roles:           roleList.join(', '),
    os:              operatingSystem(machine),
    phase,
    findingTitleKey: null,
    findingArgs:     {},
    findingSeverity: null,
    findingCount:    0,
    since:           null,
    sinceMs:         null,
    findingTitles:   [],
    searchText:      [name, node, phase, roleList.join(' ')].filter(Boolean).join('\n').toLowerCase(),
    slowForPool:     false,
    rules:           [],
  };
}

/** Whether a Machine is one of the target cluster's: in its namespace and naming it (spec or label). */
function ofTarget(raw: Record<string, any>, target: ClusterTarget): boolean {
  const meta = raw.metadata;

  if (!isPlainObject(meta) || meta.namespace !== target.namespace) {
    return false;
  }

  return machineClusterName(raw as KubeObject) === target.name;
}

/**
 * One pending row per Machine of the target cluster the store holds, by name; empty when the store does not
 * hold the complete list of Machines (the tab then shows the shell's loading row) or the cluster has none.
 */
export function pendingRows(getters: StoreGetters, target: ClusterTarget | null, unwrap: Unwrap = (m) => m): NodeRow[] {
  if (!target?.machineManaged) {
    return [];
  }
  const list = completeList(getters, STEVE_TYPES.machine, unwrap);
  const rows: NodeRow[] = [];

  for (const model of list ?? []) {
    const raw = unwrap(model);

    if (isPlainObject(raw) && ofTarget(raw, target)) {
      rows.push(pendingRow(raw as KubeObject));
    }
  }

  return sortRows(rows);
}
