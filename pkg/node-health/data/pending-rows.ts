/**
 * Rows before the diagnosis: the cluster page has already loaded every CAPI Machine into the dashboard store
 * before it draws its tabs, so the tab can show one row per Machine of its cluster at once, each with the
 * `pending` status ("Checking…"), and replace them with the session's rows, which carry the same keys
 * (`machine:<namespace>/<name>`), when the diagnosis is in. Built on the page's main thread, so only what a
 * Machine says of itself is read: its name, its roles and OS (labels), its phase and its Node's name; no join, no check.
 * The table is given one page of them (PendingRows), as it is given the session's rows: on the table's first
 * arrangement only that page's rows are made; another sort, page or filter makes them all, as the session would.
 */
import {
  ROLE_ORDER, STATUS_ORDER, STEVE_TYPES, deletionTimestamp, isPlainObject, machineClusterName, machinePhase, machineRoles, nodeRefName,
  operatingSystem
} from '../engine';
import type { KubeObject } from '../engine';
import { FIRST_QUERY, RowStore } from './row-query';
import type { RowPage, RowQuery } from './row-query';
import { filtersActive, STATUS_COLORS } from './rows';
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
 * The target cluster's Machines the store holds, as they are (no copy); empty when the store does not hold the
 * complete list of Machines or the cluster has none.
 */
export function pendingMachines(getters: StoreGetters, target: ClusterTarget | null, unwrap: Unwrap = (m) => m): KubeObject[] {
  if (!target?.machineManaged) {
    return [];
  }
  const out: KubeObject[] = [];

  for (const model of completeList(getters, STEVE_TYPES.machine, unwrap) ?? []) {
    const raw = unwrap(model);

    if (isPlainObject(raw) && ofTarget(raw, target)) {
      out.push(raw as KubeObject);
    }
  }

  return out;
}

/** `a.localeCompare(b)`, which is this collator's compare, without making one per call. */
const compareText = typeof Intl === 'undefined' ? (a: string, b: string) => a.localeCompare(b) : new Intl.Collator().compare;

/** What the first arrangement sorts a pending row by (all are equally pending): machine, node, key. */
interface SortKey { machine: string; node: string; key: string; machineObject: KubeObject }

/**
 * The pending rows of a list of Machines as the table's pages: the page of the table's first arrangement (by
 * status, then name, unfiltered, the one it opens on) from the few rows on it; any other query from every row,
 * arranged as the session arranges its rows (row-query.ts). One per first load, kept outside Vue's reactivity.
 */
export class PendingRows {
  private readonly machines: readonly KubeObject[];
  private firstOrder: SortKey[] | null = null;
  private store: RowStore | null = null;

  constructor(machines: readonly KubeObject[]) {
    this.machines = machines;
  }

  page(query: RowQuery): RowPage {
    const first = !query.reveal && !query.descending && !filtersActive(query.filters) && query.sort.join() === FIRST_QUERY.sort.join();

    if (!first) {
      if (!this.store) {
        this.store = new RowStore();
        this.store.set(this.machines.map(pendingRow));
      }

      return this.store.query(query);
    }
    const order = this.firstSorted();
    const perPage = Math.max(1, Math.floor(query.perPage) || 1);
    const last = Math.max(1, Math.ceil(order.length / perPage));
    const page = Math.min(Math.max(1, Math.floor(query.page) || 1), last);

    return {
      rows:         order.slice((page - 1) * perPage, page * perPage).map((k) => pendingRow(k.machineObject)),
      total:        order.length,
      all:          order.length,
      page,
      revealed:     null,
      untranslated: [],
    };
  }

  /** The Machines in the first arrangement's order, read for the three fields it sorts by and nothing else. */
  private firstSorted(): SortKey[] {
    this.firstOrder ??= this.machines.map((m) => {
      const name = m.metadata?.name ?? '';

      return {
        machine: name, node: nodeRefName(m) ?? '', key: `machine:${ m.metadata?.namespace ?? '' }/${ name }`, machineObject: m
      };
    }).sort((a, b) => compareText(a.machine, b.machine) || compareText(a.node, b.node) || compareText(a.key, b.key));

    return this.firstOrder;
  }
}
