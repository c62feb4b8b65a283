import { mkdtempSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { buildScenario } from '../../../scenarios/catalog';
import { toSteve } from '../../../scenarios/steve';
import { LOCAL_SCOPE, ObjectStore } from '../../../mock-rancher/store';
import { buildWorld } from '../../../mock-rancher/world';
import { bundleViewOf } from '@pkg/node-health/data/bundle-view';

const CREATED = '2026-03-10T12:00:00Z';

function writeBundle(objects: unknown[], dir = mkdtempSync(join(tmpdir(), 'nh-bundle-')), name = 'bundle.json'): string {
  const file = join(dir, name);

  writeFileSync(file, JSON.stringify({
    format: 'node-health-bundle/v1', createdAt: CREATED, objects
  }));

  return file;
}

describe('serving a node-health-bundle/v1 file as a cluster', () => {
  const scenario = buildScenario('orphan-node', { now: CREATED });
  const mgmtId = scenario.clusters[0].mgmtId;
  const downstream = scenario.downstream[mgmtId];

  it('puts local objects in Rancher\'s scope and Nodes in the downstream cluster, Steve-shaped or not', () => {
    const steveNodes = downstream.map((n) => toSteve(n, { clusterId: mgmtId }));
    const store = new ObjectStore();
    const now = new Date('2026-03-10T13:00:00Z');
    const world = buildWorld(store, {
      scenarios: [], bundlePath: writeBundle([...scenario.objects, ...steveNodes]), now
    });
    const served = world.clusters.find((c) => c.source.startsWith('bundle:'));

    const nodes = downstream.filter((o) => o.kind === 'Node');

    expect(served).toMatchObject({
      name: scenario.clusters[0].name, mgmtId, nodes: nodes.length
    });
    expect(store.list(mgmtId, 'node')).toHaveLength(nodes.length);
    // The kubelets' Leases with them, in kube-node-lease.
    expect(store.list(mgmtId, 'coordination.k8s.io.lease', 'kube-node-lease')).toHaveLength(downstream.length - nodes.length);
    expect(store.list(LOCAL_SCOPE, 'coordination.k8s.io.lease')).toHaveLength(0);
    expect(store.list(LOCAL_SCOPE, 'cluster.x-k8s.io.machine').length).toBe(scenario.objects.filter((o) => o.kind === 'Machine').length);
    const node = store.list(mgmtId, 'node')[0] as Record<string, unknown>;

    expect(node.links).toBeUndefined();
    expect((node.metadata as Record<string, unknown>).state).toBeUndefined();
  });

  it('keeps the bundle\'s own timestamps, and says on both its clusters that they are a bundle\'s', () => {
    const store = new ObjectStore();
    const machine = scenario.objects.find((o) => o.kind === 'Machine');
    const now = new Date('2026-03-11T12:00:00Z');
    const file = writeBundle(scenario.objects);
    const world = buildWorld(store, {
      scenarios: [], bundlePath: file, now
    });
    const served = store.peek(LOCAL_SCOPE, 'cluster.x-k8s.io.machine', machine?.metadata.namespace, machine?.metadata.name || '');

    expect(served?.metadata.creationTimestamp).toBe(machine?.metadata.creationTimestamp);
    const { name, namespace } = scenario.clusters[0];
    const expected = {
      cluster: name, madeAt: CREATED, madeAtMs: Date.parse(CREATED), extensionVersion: null, rancherVersion: null, file: 'bundle.json'
    };

    expect(bundleViewOf(store.peek(LOCAL_SCOPE, 'provisioning.cattle.io.cluster', namespace, name))).toStrictEqual(expected);
    expect(bundleViewOf(store.peek(LOCAL_SCOPE, 'management.cattle.io.cluster', undefined, mgmtId))).toStrictEqual(expected);
    expect(world.clusters.find((c) => c.mgmtId === mgmtId)?.bundleMadeAt).toBe(CREATED);
    // A scenario's cluster is a real one as far as the tab can tell.
    const real = buildWorld(new ObjectStore(), { scenarios: ['healthy'], now });

    expect(real.clusters.every((c) => !c.bundleMadeAt)).toBe(true);
  });

  it('refuses every change to a bundle\'s objects, and only to them', () => {
    const store = new ObjectStore();

    buildWorld(store, { scenarios: ['healthy'], bundlePath: writeBundle([...scenario.objects, ...downstream]) });
    const machines = store.scope(LOCAL_SCOPE)?.types.get('cluster.x-k8s.io.machine');
    const nodes = store.scope(mgmtId)?.types.get('node');
    const bundled = scenario.objects.find((o) => o.kind === 'Machine');
    const live = store.list(LOCAL_SCOPE, 'cluster.x-k8s.io.machine').find((m) => m.metadata.labels?.['cluster.x-k8s.io/cluster-name'] !== scenario.clusters[0].name);

    expect(machines && nodes && bundled && live).toBeTruthy();
    if (!machines || !nodes || !bundled || !live) {
      return;
    }
    const ns = bundled.metadata.namespace;
    const name = bundled.metadata.name;

    expect(() => store.patch(LOCAL_SCOPE, machines, ns, name, 'merge', { metadata: { finalizers: null } })).toThrow(expect.objectContaining({ status: 403 }));
    expect(() => store.update(LOCAL_SCOPE, machines, ns, name, store.get(LOCAL_SCOPE, machines, ns, name))).toThrow(/diagnostics bundle, served read-only/);
    expect(() => store.delete(LOCAL_SCOPE, machines, ns, name)).toThrow(expect.objectContaining({ status: 403 }));
    expect(() => store.delete(mgmtId, nodes, undefined, downstream[0].metadata.name)).toThrow(expect.objectContaining({ status: 403 }));
    expect(store.peek(LOCAL_SCOPE, 'cluster.x-k8s.io.machine', ns, name)?.metadata.deletionTimestamp).toBe(bundled.metadata.deletionTimestamp);
    // The scenario served beside it is as writable as ever.
    expect(store.delete(LOCAL_SCOPE, machines, live.metadata.namespace, live.metadata.name).metadata.name).toBe(live.metadata.name);
  });

  it('names the versions the bundle was made with', () => {
    const store = new ObjectStore();
    const dir = mkdtempSync(join(tmpdir(), 'nh-bundle-'));
    const file = join(dir, 'made.json');

    writeFileSync(file, JSON.stringify({
      format:    'node-health-bundle/v1',
      createdAt: CREATED,
      generator: {
        name: 'node-health', rancherVersion: 'v2.11.3', extensionVersion: '0.1.0'
      },
      objects: scenario.objects
    }));
    buildWorld(store, { scenarios: [], bundlePath: file });
    const { name, namespace } = scenario.clusters[0];

    expect(bundleViewOf(store.peek(LOCAL_SCOPE, 'provisioning.cattle.io.cluster', namespace, name))).toMatchObject({
      extensionVersion: '0.1.0', rancherVersion: 'v2.11.3', file: 'made.json'
    });
  });

  it('serves several bundles, each as a cluster: a comma-separated list or a folder', () => {
    const other = buildScenario('ghost-etcd', { now: CREATED });
    const dir = mkdtempSync(join(tmpdir(), 'nh-bundles-'));
    const a = writeBundle(scenario.objects, dir, 'a.json');
    const b = writeBundle(other.objects, dir, 'b.json');

    writeFileSync(join(dir, 'notes.txt'), 'not a bundle');
    for (const spec of [`${ a },${ b }`, dir]) {
      const world = buildWorld(new ObjectStore(), { scenarios: [], bundlePath: spec });

      expect(world.clusters.filter((c) => c.source.startsWith('bundle:')).map((c) => [c.source, c.mgmtId])).toStrictEqual([
        ['bundle:a.json', mgmtId], ['bundle:b.json', other.clusters[0].mgmtId],
      ]);
    }
  });

  it('refuses a file that is not a bundle, or a bundle that does not say when it was made', () => {
    const notBundle = join(mkdtempSync(join(tmpdir(), 'nh-bundle-')), 'x.json');

    writeFileSync(notBundle, JSON.stringify({ kind: 'List', items: [] }));
    expect(() => buildWorld(new ObjectStore(), { scenarios: [], bundlePath: notBundle })).toThrow(/not a node-health-bundle\/v1/);
    writeFileSync(notBundle, JSON.stringify({ format: 'node-health-bundle/v1', objects: scenario.objects }));
    expect(() => buildWorld(new ObjectStore(), { scenarios: [], bundlePath: notBundle })).toThrow(/does not say when it was made/);
  });

  it('leaves out a scenario whose cluster the bundle already serves, and says so', () => {
    const world = buildWorld(new ObjectStore(), { scenarios: ['orphan-node', 'healthy'], bundlePath: writeBundle(scenario.objects) });

    expect(world.clusters.filter((c) => c.mgmtId === mgmtId).map((c) => c.source)).toStrictEqual(['bundle:bundle.json']);
    expect(world.clusters.some((c) => c.source === 'healthy')).toBe(true);
    expect(world.warnings.join('\n')).toMatch(/orphan-node.*clashes/);
  });
});
