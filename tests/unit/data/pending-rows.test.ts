import { STEVE_TYPES } from '@pkg/node-health/engine';
import type { KubeObject } from '@pkg/node-health/engine';
import { clusterTarget, pendingRows } from '@pkg/node-health/data';
import type { ClusterTarget, StoreGetters } from '@pkg/node-health/data';
import { ghostEtcd } from '../../../scenarios/catalog';
import { steveType, toSteve } from '../../../scenarios/steve';
import type { Scenario } from '../../../scenarios/types';
import { clusterResource } from '../../components/tab-steve';

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
