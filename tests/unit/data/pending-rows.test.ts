import { STEVE_TYPES } from '@pkg/node-health/engine';
import type { KubeObject } from '@pkg/node-health/engine';
import {
  clusterTarget, DEFAULT_FILTERS, FIRST_QUERY, pendingMachines, pendingRow, PendingRows, RowStore, sortRows
} from '@pkg/node-health/data';
import type { NodeRow, RowQuery, ClusterTarget, StoreGetters } from '@pkg/node-health/data';
import { ghostEtcd } from '../../../scenarios/catalog';
import { steveType, toSteve } from '../../../scenarios/steve';
import type { Scenario } from '../../../scenarios/types';
import { clusterResource } from '../../components/tab-steve';

/** Every pending row of the target's Machines the store holds, as the session would sort them: what PendingRows pages. */
function pendingRows(getters: StoreGetters, target: ClusterTarget | null): NodeRow[] {
  return sortRows(pendingMachines(getters, target).map(pendingRow));
}

function targetOf(s: Scenario): ClusterTarget {
  const t = clusterTarget(clusterResource(s, s.clusters[0].name));

  if (!t) {
    throw new Error('no target');
  }

  return t;
}

function getters(machines: KubeObject[] | null): StoreGetters {
  return {
    'management/haveAll': (type: string) => type === STEVE_TYPES.machine && !!machines,
    'management/all':     (type: string) => (type === STEVE_TYPES.machine ? machines ?? [] : []),
  };
}

function machinesOf(s: Scenario): KubeObject[] {
  return s.objects.filter((o) => steveType(o) === STEVE_TYPES.machine).map((o) => toSteve(o) as KubeObject);
}

function machine(name: string, extra: { labels?: Record<string, string>; namespace?: string; phase?: string; deleting?: boolean; node?: string } = {}): KubeObject {
  const target = targetOf(ghostEtcd());

  return {
    apiVersion: 'cluster.x-k8s.io/v1beta1',
    kind:       'Machine',
    metadata:   {
      name,
      namespace: extra.namespace ?? target.namespace,
      labels:    { 'cluster.x-k8s.io/cluster-name': target.name, ...extra.labels },
      ...(extra.deleting ? { deletionTimestamp: '2025-01-01T00:00:00Z' } : {}),
    },
    spec:   { clusterName: target.name },
    status: { phase: extra.phase ?? 'Running', ...(extra.node ? { nodeRef: { kind: 'Node', name: extra.node } } : {}) },
  } as KubeObject;
}

describe('pendingRows', () => {
  it('gives a checking row per Machine of the cluster, keyed as the diagnosis keys its records, sorted by name', () => {
    const s = ghostEtcd();
    const target = targetOf(s);
    const machines = machinesOf(s);
    const rows = pendingRows(getters(machines), target);

    expect(rows.map((r) => r.key).sort()).toEqual(machines.map((m) => `machine:${ m.metadata.namespace }/${ m.metadata.name }`).sort());
    expect(rows.map((r) => r.machine)).toEqual([...rows.map((r) => r.machine)].sort((a, b) => a.localeCompare(b)));
    expect(new Set(rows.map((r) => r.status))).toEqual(new Set(['pending']));
    expect(rows.every((r) => r.findingCount === 0 && r.findingTitleKey === null && r.sinceMs === null)).toBe(true);
    // The OS a Machine's label says is shown at once, as the diagnosed row will show it.
    expect(new Set(rows.map((r) => r.os))).toEqual(new Set(['linux']));
  });

  it('reads roles from the labels, the phase, Deleting and the Node of each Machine', () => {
    const target = targetOf(ghostEtcd());
    const rows = pendingRows(getters([
      machine('b-worker', { labels: { 'rke.cattle.io/worker-role': 'true' }, phase: 'Provisioning' }),
      machine('a-cp', { labels: { 'rke.cattle.io/control-plane-role': 'true', 'rke.cattle.io/etcd-role': 'true' }, node: 'node-a' }),
      machine('c-gone', { deleting: true }),
    ]), target);

    expect(rows.map((r) => [r.machine, r.roles, r.phase, r.node])).toEqual([
      ['a-cp', 'etcd, controlplane', 'Running', 'node-a'],
      ['b-worker', 'worker', 'Provisioning', ''],
      ['c-gone', '', 'Deleting', ''],
    ]);
    expect(rows[0].searchText).toContain('node-a');
  });

  it('leaves out other clusters\' and other namespaces\' Machines', () => {
    const target = targetOf(ghostEtcd());
    const other = machine('other', { labels: { 'cluster.x-k8s.io/cluster-name': 'other' } });

    (other.spec as Record<string, unknown>).clusterName = 'other';
    const rows = pendingRows(getters([machine('mine'), other, machine('elsewhere', { namespace: 'elsewhere' })]), target);

    expect(rows.map((r) => r.machine)).toEqual(['mine']);
  });

  it('gives none where the store does not hold every Machine, or the cluster has none to provision', () => {
    const s = ghostEtcd();
    const target = targetOf(s);

    expect(pendingRows(getters(null), target)).toEqual([]);
    expect(pendingRows(getters(machinesOf(s)), { ...target, machineManaged: false })).toEqual([]);
    expect(pendingRows(getters(machinesOf(s)), null)).toEqual([]);
  });
});

describe('PendingRows', () => {
  const target = targetOf(ghostEtcd());
  const ROLES = ['rke.cattle.io/worker-role', 'rke.cattle.io/etcd-role', 'rke.cattle.io/control-plane-role'];
  // Names that sort differently by code point and by locale (case, digits, accents), some Machines with a Node.
  const NAMES = ['Zeta', 'alpha', 'Alpha', 'beta-10', 'beta-9', 'émile', 'emile', 'x', 'X-1', 'pool-a-3', 'pool-a-20', 'pool-b-1'];
  const machines = Array.from({ length: 130 }, (_, i) => machine(`${ NAMES[i % NAMES.length] }-${ (i * 37) % 101 }`, {
    labels: { [ROLES[i % 3]]: 'true' }, ...(i % 4 ? { node: `node-${ (i * 13) % 17 }` } : {}), ...(i % 9 === 0 ? { phase: 'Provisioning' } : {}),
  }));
  const query = (q: Partial<RowQuery> = {}): RowQuery => ({
    ...FIRST_QUERY, filters: { ...DEFAULT_FILTERS }, ...q
  });
  /** What the session's RowStore would answer over every pending row. */
  const full = (q: RowQuery) => {
    const store = new RowStore();

    store.set(pendingRows(getters(machines), target));

    return store.query(q);
  };

  it('gives the table\'s first page, and each page after it, as the session would arrange every pending row', () => {
    const pending = new PendingRows(pendingMachines(getters(machines), target));

    for (const page of [1, 2, 3, 4]) {
      expect(pending.page(query({ page }))).toEqual(full(query({ page })));
    }
    expect(pending.page(query({ page: 2 })).rows).toHaveLength(50);
    expect(pending.page(query({ page: 3 })).rows).toHaveLength(30);
  });

  it('arranges any other sort, filter or link as the session does', () => {
    const pending = new PendingRows(pendingMachines(getters(machines), target));
    const others: RowQuery[] = [
      query({ sort: ['machine', 'key'], descending: true }),
      query({ sort: ['roles', 'key'], page: 2 }),
      query({ filters: { ...DEFAULT_FILTERS, search: 'pool-a' } }),
      query({ filters: { ...DEFAULT_FILTERS, role: 'worker' } }),
      query({ filters: { ...DEFAULT_FILTERS, status: 'healthy' } }),
      query({ reveal: pendingRows(getters(machines), target)[120].key }),
    ];

    for (const q of others) {
      expect(pending.page(q)).toEqual(full(q));
    }
    expect(pending.page(others[4]).rows).toEqual([]);
  });

  it('makes the rows of the first page only, reading nothing more of the other Machines than their names and Nodes', () => {
    const read = new Set<string>();
    // Each Machine says when its labels (roles, OS) or its phase are read: what only a row needs.
    const watched = machines.map((m) => new Proxy(m, {
      get(obj, prop) {
        if (prop === 'metadata') {
          return new Proxy(obj.metadata, {
            get(meta, p) {
              if (p === 'labels') {
                read.add(obj.metadata.name);
              }

              return (meta as any)[p];
            },
          });
        }

        return (obj as any)[prop];
      },
    }));
    const pending = new PendingRows(watched);
    const page = pending.page(query());

    expect(page.rows).toHaveLength(50);
    expect(page.total).toBe(130);
    expect([...read].sort()).toEqual(page.rows.map((r) => r.machine).sort());
  });
});
