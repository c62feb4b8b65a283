import { isProxy, reactive, toRaw } from 'vue';
import { STEVE_TYPES } from '@pkg/node-health/engine';
import { clusterTarget, diagnoseLoad, loadClusterData, storeLists } from '@pkg/node-health/data';
import type { ClusterTarget, StoreGetters } from '@pkg/node-health/data';
import { ghostEtcd, healthy, imported, GHOST_MACHINE } from '../../../scenarios/catalog';
import { steveType, toSteve } from '../../../scenarios/steve';
import type { KubeObject, Scenario } from '../../../scenarios/types';
import { clusterResource, fakeSteve, inputOfUrl } from '../../components/tab-steve';

function targetOf(s: Scenario): ClusterTarget {
  const t = clusterTarget(clusterResource(s, s.clusters[0].name));

  if (!t) {
    throw new Error('no target');
  }

  return t;
}

/**
 * The dashboard store as the cluster page leaves it: every object of the listed types, as Steve sends them to
 * the shell's findAll (table fields and relationships included), in reactive state, with the store's markers.
 */
function dashboardStore(objects: KubeObject[], complete: string[], byId = false): { getters: StoreGetters, lists: Record<string, any[]> } {
  const lists: Record<string, any[]> = {};

  for (const obj of objects) {
    const type = steveType(obj);

    if (complete.includes(type)) {
      (lists[type] ||= []).push({ ...toSteve(obj), __rehydrate: 'management' });
    }
  }
  const state = reactive(lists);

  return {
    lists:   state,
    getters: {
      'management/haveAll': (type: string) => complete.includes(type),
      'management/all':     (type: string) => state[type] ?? [],
      // The dashboard loads every management cluster at login.
      ...(byId ? { 'management/byId': (type: string, id: string) => (type === STEVE_TYPES.mgmtCluster ? toSteve(objects.find((o) => steveType(o) === type && o.metadata.name === id) ?? null as any) : undefined) } : {}),
    },
  };
}

const BOTH = [STEVE_TYPES.machine, STEVE_TYPES.mgmtNode];

describe('storeLists', () => {
  it('gives the target\'s machines and management Nodes as plain objects shaped like the loader\'s own answers', () => {
    const s = ghostEtcd();
    const other = healthy();
    const target = targetOf(s);
    const { getters, lists } = dashboardStore([...s.objects, ...other.objects], BOTH);
    const got = storeLists(getters, target, toRaw);
    const names = (objects: KubeObject[], type: string, namespace: string) => objects
      .filter((o) => steveType(o) === type && o.metadata.namespace === namespace)
      .map((o) => o.metadata.name)
      .sort();

    // Machines: the namespace's, both clusters' (the loader keeps the cluster's own, as it does with Steve's answers).
    expect(got.machines?.map((m) => m.metadata.name).sort()).toEqual(names([...s.objects, ...other.objects], STEVE_TYPES.machine, target.namespace));
    expect(got.machines?.length).toBeGreaterThan(names(s.objects, STEVE_TYPES.machine, target.namespace).length);
    // Management Nodes: each cluster has its own namespace, and only the target's are given.
    expect(got.mgmtNodes?.map((n) => n.metadata.name).sort()).toEqual(names(s.objects, STEVE_TYPES.mgmtNode, target.mgmtId as string));
    expect(got.mgmtNodes?.length).toBeGreaterThan(0);

    for (const obj of [...got.machines ?? [], ...got.mgmtNodes ?? []]) {
      expect(isProxy(obj)).toBe(false);
      expect(isProxy(obj.metadata)).toBe(false);
      expect(Object.keys(obj)).not.toContain('__rehydrate');
      expect(Object.keys(obj.metadata)).not.toContain('fields');
      expect(Object.keys(obj.metadata)).not.toContain('relationships');
    }
    // Copies: the store keeps its own objects whole.
    expect(Object.keys(lists[STEVE_TYPES.machine][0].metadata)).toContain('fields');
  });

  it('leaves out a management Node\'s nodeConfig (it can hold an SSH key), as the request does', () => {
    const s = ghostEtcd();
    const target = targetOf(s);
    const objects = s.objects.map((o) => (steveType(o) === STEVE_TYPES.mgmtNode ? { ...o, status: { ...(o.status as object), nodeConfig: { sshKey: 'PRIVATE-KEY-MATERIAL' } } } : o));
    const { getters, lists } = dashboardStore(objects, BOTH);
    const got = storeLists(getters, target, toRaw);

    expect(got.mgmtNodes?.length).toBeGreaterThan(0);
    expect(JSON.stringify(got.mgmtNodes)).not.toContain('PRIVATE-KEY-MATERIAL');
    expect(JSON.stringify(lists[STEVE_TYPES.mgmtNode])).toContain('PRIVATE-KEY-MATERIAL');
  });

  it('gives nothing the store does not hold completely, and no machines for a cluster without them', () => {
    const s = ghostEtcd();
    const target = targetOf(s);

    expect(storeLists(dashboardStore(s.objects, []).getters, target)).toEqual({});
    expect(Object.keys(storeLists(dashboardStore(s.objects, [STEVE_TYPES.machine]).getters, target))).toEqual(['machines']);
    // A store without these getters at all (another host page) is not an error.
    expect(storeLists({}, target)).toEqual({});

    const i = imported();

    expect(Object.keys(storeLists(dashboardStore(i.objects, BOTH).getters, targetOf(i)))).toEqual(['mgmtNodes']);
  });
});

describe('storeLists with the copies of the last poll', () => {
  it('copies a list again only when one of its objects was added, removed or written', () => {
    const s = ghostEtcd();
    const target = targetOf(s);
    const { getters, lists } = dashboardStore(s.objects, BOTH);
    const copies = new Map();
    const first = storeLists(getters, target, toRaw, copies);

    expect(storeLists(getters, target, toRaw, copies).machines).toBe(first.machines);
    expect(storeLists(getters, target, toRaw, copies).mgmtNodes).toBe(first.mgmtNodes);

    const machines = lists[STEVE_TYPES.machine];
    const ghost = machines.find((m) => m.metadata.name === GHOST_MACHINE);

    ghost.metadata.resourceVersion = `${ ghost.metadata.resourceVersion }1`;
    ghost.status = { ...ghost.status, phase: 'Failed' };
    const written = storeLists(getters, target, toRaw, copies);

    expect(written.machines).not.toBe(first.machines);
    expect(written.machines?.find((m) => m.metadata.name === GHOST_MACHINE)?.status?.phase).toBe('Failed');
    expect(written.mgmtNodes).toBe(first.mgmtNodes);

    machines.splice(machines.indexOf(ghost), 1);
    expect(storeLists(getters, target, toRaw, copies).machines).toHaveLength((written.machines?.length ?? 0) - 1);
  });
});

describe('loadClusterData with lists from the store', () => {
  it('does not ask Steve for them, and the diagnosis is the same as from its own requests', async() => {
    const s = ghostEtcd();
    const target = targetOf(s);
    const now = () => Date.parse(s.now);
    const alone = fakeSteve(s);
    const own = await loadClusterData(alone.dispatch, target, { now });
    const steve = fakeSteve(s);
    const { getters } = dashboardStore(s.objects, BOTH, true);
    const fromStore = storeLists(getters, target, toRaw);

    // The management cluster, trimmed as the loader's own request would have it.
    expect(fromStore.mgmtCluster?.map((c) => [c.metadata.name, Object.keys(c.status).sort()])).toEqual([[target.mgmtId, ['conditions', 'connected']]]);
    const shared = await loadClusterData(steve.dispatch, target, { now, fromStore });

    expect(alone.urls.map(inputOfUrl)).toEqual(expect.arrayContaining(['machines', 'mgmtNodes', 'mgmtCluster']));
    const asked = ['bootstraps', 'capiClusters', 'infraMachines', 'machineDeployments', 'machineHealthChecks', 'machineSets', 'nodes', 'planSecrets'];

    expect(steve.urls.map(inputOfUrl).sort()).toEqual(asked);
    expect(shared.requests.map((r) => r.input).sort()).toEqual(asked);
    expect(shared.availability).toEqual(own.availability);

    const verdicts = (load: typeof own) => diagnoseLoad(target, load).records
      .map((r) => `${ r.key } ${ r.status } ${ r.findings.map((f) => f.rule).join(',') }`)
      .sort();

    expect(verdicts(shared)).toEqual(verdicts(own));
    // The seed case itself: the ghost machine, read from the store, is still found out.
    expect(verdicts(shared).find((v) => v.includes(GHOST_MACHINE))).toMatch(/ error \S+/);
  });

  it('still calls management Nodes hidden when the store holds none of the cluster\'s', async() => {
    const s = ghostEtcd();
    const target = targetOf(s);
    const steve = fakeSteve(s);
    const withoutMgmtNodes = s.objects.filter((o) => steveType(o) !== STEVE_TYPES.mgmtNode);
    const { getters } = dashboardStore(withoutMgmtNodes, BOTH);
    const result = await loadClusterData(steve.dispatch, target, { fromStore: storeLists(getters, target, toRaw) });

    expect(result.availability.mgmtNodes).toBe('forbidden');
    expect(result.issues).toContainEqual(expect.objectContaining({ input: 'mgmtNodes', kind: 'hidden' }));
  });
});
