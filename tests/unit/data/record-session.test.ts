/**
 * The record tab's session (one record's objects, data/record-load.ts) against the embedded Rancher API over HTTP, in
 * both of Steve's modes: every list but Cluster API's small ones is narrowed to the record, the record is judged as the
 * whole cluster's load judges it, and with a watch a refresh reads again only the scoped lists of a type that changed.
 */
import { request as httpRequest } from 'http';
import WebSocket from 'ws';
import { startMockRancher } from '../../../mock-rancher/server';
import type { MockRancher } from '../../../mock-rancher/server';
import {
  ChangeWatch, clusterTarget, diagnoseLoad, fetchDispatch, loadClusterData, TabSession
} from '@pkg/node-health/data';
import type { ClusterTarget, FetchLike, ListForm } from '@pkg/node-health/data';
import { ghostEtcd, GHOST_MACHINE } from '../../../scenarios/catalog';
import { clusterResource, mgmtClustersById } from '../../components/tab-steve';
import { trimMgmtCluster } from '@pkg/node-health/data/mgmt-cluster';
import type { KubeObject, NodeRecord } from '@pkg/node-health/engine';

const httpFetch: FetchLike = (url, init) => new Promise((resolve, reject) => {
  const req = httpRequest(url, { method: init.method, headers: init.headers }, (res) => {
    const chunks: Buffer[] = [];

    res.on('data', (c) => chunks.push(c));
    res.on('end', () => {
      const status = res.statusCode ?? 500;

      resolve({
        ok: status < 400, status, statusText: res.statusMessage ?? '', text: async() => Buffer.concat(chunks).toString('utf8')
      });
    });
  });

  req.on('error', reject);
  req.end(init.body);
});

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

const SMALL_LISTS = ['cluster.x-k8s.io.clusters', 'cluster.x-k8s.io.machinedeployments', 'cluster.x-k8s.io.machinesets', 'cluster.x-k8s.io.machinehealthchecks'];

function shown(r: NodeRecord | null) {
  return r ? {
    status: r.status, findings: r.findings.map((f) => f.rule), steps: (r.resolution?.steps ?? []).map((s) => s.key), preflight: r.preflight
  } : null;
}

describe.each([['with its SQL cache', true], ['without it', false]])('the record tab\'s session on the embedded API, Steve %s', (_name, sqlCache) => {
  const scenario = ghostEtcd();
  const form: ListForm = sqlCache ? 'filter' : 'selectors';
  const fromStore = { mgmtCluster: Object.values(mgmtClustersById(scenario)['management.cattle.io.cluster']).map((o) => trimMgmtCluster(o) as KubeObject) };
  const subject = {
    kind: 'machine' as const, name: GHOST_MACHINE, namespace: 'fleet-default'
  };
  let mock: MockRancher;
  let watch: ChangeWatch;
  let target: ClusterTarget;

  beforeEach(async() => {
    mock = await startMockRancher({
      scenarios: [scenario.name], logRequests: 'none', sqlCache, now: new Date(scenario.now)
    });
    watch = new ChangeWatch(mock.url, (url) => new WebSocket(url) as any);
    target = clusterTarget(clusterResource(scenario)) as ClusterTarget;
  });

  afterEach(async() => {
    watch.close();
    await mock.close();
  });

  it('reads the ghost machine\'s objects by selector and judges it as the whole cluster does; a watched refresh reads only what changed', async() => {
    const now = Date.parse(scenario.now);
    const session = new TabSession(fetchDispatch(mock.url, null, httpFetch), watch, () => now);
    const request = {
      target, form, fromStore, subject
    };

    mock.traffic.take();
    const first = await session.refresh(request);
    const lists = mock.traffic.take().filter((e) => e.kind === 'http' && e.path.includes('include=')).map((e) => new URL(e.path, mock.url));
    const narrowed = (u: URL) => (form === 'filter' ? u.searchParams.getAll('filter').some((f) => /^metadata\.(name|labels\[(rke\.cattle\.io|node-role|management))/.test(f)) : !!u.searchParams.get('fieldSelector')?.startsWith('metadata.name=') || /,|^(rke|node-role|management)/.test(u.searchParams.get('labelSelector') ?? ''));

    expect(lists.length).toBeGreaterThan(4);
    expect(lists.filter((u) => !SMALL_LISTS.some((t) => u.pathname.includes(`/${ t }/`)) && !narrowed(u)).map((u) => u.toString())).toEqual([]);

    const whole = diagnoseLoad(target, await loadClusterData(fetchDispatch(mock.url, null, httpFetch), target, {
      form, now: () => now, fromStore
    }));
    const key = `machine:fleet-default/${ GHOST_MACHINE }`;

    expect(first.rows?.map((r) => r.key)).toContain(key);
    expect(shown(session.record(key))).toEqual(shown(whole.records.find((r) => r.key === key) ?? null));
    expect(shown(session.record(key))?.findings).toContain('agent-never-checked-in');

    // Watched from the revision each scoped list was read at: once Steve confirms, the next refresh reads nothing.
    await delay(200);
    const same = await session.refresh(request);

    expect(same.listsRead).toBe(0);
    expect(same.listsReused).toBe(first.listsRead);

    // One Machine changed: the Machine lists (one per selector) are read again, and only they.
    const machineType = mock.store.scope('local')?.types.fromSteveName('cluster.x-k8s.io.machine');
    const machineLists = lists.filter((u) => u.pathname.includes('/cluster.x-k8s.io.machines/')).length;

    mock.store.patch('local', machineType!, 'fleet-default', GHOST_MACHINE, 'merge', { metadata: { finalizers: [] } });
    await delay(100);
    const changed = await session.refresh(request);

    expect(machineLists).toBeGreaterThan(1);
    expect(changed.listsRead).toBeGreaterThan(0);
    expect(changed.listsRead).toBeLessThanOrEqual(machineLists);
    // Its deletion done, the machine is gone: no record of it is left.
    expect(session.record(key)).toBeNull();
  });
});
