/**
 * The tab's session (what runs in the Web Worker) against the embedded Rancher API over HTTP and Steve's
 * websocket, in both of Steve's modes: a list is read again only when Steve says it changed (watched from the
 * revision it was read at, so the refresh after the first load reads nothing), a refresh with
 * nothing changed sends next to nothing and judges the same records again at the new time without joining,
 * and one changed Machine costs one list. The record tab's session reads one record's objects by selector, watched as well.
 */
import { request as httpRequest } from 'http';
import WebSocket from 'ws';
import { startMockRancher } from '../../../mock-rancher/server';
import type { MockRancher } from '../../../mock-rancher/server';
import {
  buildRows, ChangeWatch, clusterTarget, diagnoseLoad, fetchDispatch, loadClusterData, TabSession
} from '@pkg/node-health/data';
import type {
  ClusterTarget, FetchLike, ListForm, NodeRow, SocketLike
} from '@pkg/node-health/data';
import * as joinModule from '@pkg/node-health/engine/join';
import { ghostEtcd, GHOST_MACHINE } from '../../../scenarios/catalog';
import { clusterResource, mgmtClustersById } from '../../components/tab-steve';
import { trimMgmtCluster } from '@pkg/node-health/data/mgmt-cluster';
import type { KubeObject, NodeRecord } from '@pkg/node-health/engine';

const MINUTE = 60000;

/** fetch as the worker has it (jest's node environment has none): plain HTTP, the body as text. */
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

/** Bytes of the tab's list requests and of websocket frames since the last call. */
function bytesSent(mock: MockRancher): { lists: number, frames: number } {
  const entries = mock.traffic.take();

  return {
    lists:  entries.filter((e) => e.kind === 'http' && e.path.includes('include=')).reduce((n, e) => n + e.bytes, 0),
    frames: entries.filter((e) => e.kind === 'ws').reduce((n, e) => n + e.bytes, 0),
  };
}

/** What the table shows, without how long each status has lasted (the page counts that from `since`). */
function shown(rows: NodeRow[] | null) {
  return (rows ?? []).map((r) => [r.key, r.status, r.findingTitleKey, r.findingArgs, r.findingCount, r.since]);
}

/** A websocket that connects only when told to: a test decides what happens before any subscription goes out. */
class HeldSocket implements SocketLike {
  onopen: ((ev: any) => void) | null = null;
  onmessage: ((ev: any) => void) | null = null;
  onclose: ((ev: any) => void) | null = null;
  onerror: ((ev: any) => void) | null = null;
  private socket: WebSocket | null = null;
  private readonly url: string;

  constructor(url: string) {
    this.url = url;
  }

  get readyState(): number {
    return this.socket?.readyState ?? 0;
  }

  send(text: string): void {
    this.socket?.send(text);
  }

  close(): void {
    this.socket?.close();
  }

  connect(): void {
    const socket = new WebSocket(this.url);

    socket.onopen = (ev) => this.onopen?.(ev);
    socket.onmessage = (ev) => this.onmessage?.(ev);
    socket.onclose = (ev) => this.onclose?.(ev);
    socket.onerror = (ev) => this.onerror?.(ev);
    this.socket = socket;
  }
}

const SMALL_LISTS = ['cluster.x-k8s.io.clusters', 'cluster.x-k8s.io.machinedeployments', 'cluster.x-k8s.io.machinesets', 'cluster.x-k8s.io.machinehealthchecks'];

function shownRecord(r: NodeRecord | null) {
  return r ? {
    status: r.status, findings: r.findings.map((f) => f.rule), steps: (r.resolution?.steps ?? []).map((s) => s.key), preflight: r.preflight
  } : null;
}

describe.each([['with its SQL cache', true], ['without it', false]])('a session on the embedded API, Steve %s', (_name, sqlCache) => {
  const scenario = ghostEtcd();
  const form: ListForm = sqlCache ? 'filter' : 'selectors';
  let mock: MockRancher;
  let watch: ChangeWatch;
  let target: ClusterTarget;
  // The dashboard store holds every management cluster from login: the tab passes its cluster's in.
  const fromStore = { mgmtCluster: Object.values(mgmtClustersById(scenario)['management.cattle.io.cluster']).map((o) => trimMgmtCluster(o) as KubeObject) };

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
    jest.restoreAllMocks();
  });

  it('reads again only what changed, judges the same records again at the new time, and costs one list for one changed Machine', async() => {
    let now = Date.parse(scenario.now);
    const session = new TabSession(fetchDispatch(mock.url, null, httpFetch), watch, () => now);
    const request = {
      target, form, fromStore
    };

    const first = await session.refresh(request);

    expect(first.listsRead).toBe(10);
    expect(first.rows).toHaveLength(18);
    const firstBytes = bytesSent(mock).lists;

    // Each list is watched from the revision it was read at: once Steve confirms, the next refresh reads nothing.
    await delay(200);
    mock.traffic.take();

    const join = jest.spyOn(joinModule, 'join');
    const same = await session.refresh(request);
    const quiet = bytesSent(mock);

    expect(same.listsRead).toBe(0);
    expect(same.listsReused).toBe(10);
    expect(quiet.lists).toBe(0);
    expect(quiet.frames).toBeLessThan(firstBytes / 100);
    // Nothing shown changed: no row is sent again.
    expect(same.rows).toBeNull();

    // Minutes on, within the 5 min a kubelet leaves its status: no Node is overdue, so no Lease is read (they are
    // never watched, and read anew while some Node's status is overdue).
    now += 4 * MINUTE;
    const later = await session.refresh(request);

    expect(later.listsRead).toBe(0);
    expect(join).not.toHaveBeenCalled();
    // Judged at the new time, exactly as a fresh load and diagnosis then would be.
    const fresh = diagnoseLoad(target, await loadClusterData(fetchDispatch(mock.url, null, httpFetch), target, {
      form, now: () => now, fromStore
    }));

    expect(later.now).toBe(new Date(now).toISOString());
    expect(later.counts).toEqual(fresh.counts);
    expect(later.clusters).toEqual(JSON.parse(JSON.stringify(fresh.clusters)));
    // The blocking machine's title says for how long: its row is sent again, as a fresh diagnosis has it.
    expect(shown(later.rows)).toEqual(shown(buildRows(fresh)));
    expect(shown(later.rows)).not.toEqual(shown(first.rows));
    join.mockRestore();
    mock.traffic.take();

    const machine = mock.store.scope('local')?.types.fromSteveName('cluster.x-k8s.io.machine');

    // A controller's write that changes nothing the tab shows: one list read, no row sent.
    mock.store.touch('local', machine!, 'fleet-default', GHOST_MACHINE);
    await delay(100);
    const carrying = jest.spyOn(joinModule, 'join');
    const touched = await session.refresh(request);
    const touchedBytes = bytesSent(mock);

    // The list read again is compared with the last one: every record but the touched machine's is carried over.
    expect(carrying).toHaveBeenCalledTimes(1);
    expect(carrying.mock.calls[0][4]?.carried.size).toBe(carrying.mock.results[0].value.records.length - 1);
    carrying.mockRestore();
    expect(touched.listsRead).toBe(1);
    expect(touchedBytes.lists).toBeGreaterThan(0);
    expect(touchedBytes.lists).toBeLessThan(firstBytes);
    expect(touched.rows).toBeNull();

    // The machine's finalizers gone and its deletion done: the table has no such machine any more.
    mock.store.patch('local', machine!, 'fleet-default', GHOST_MACHINE, 'merge', { metadata: { finalizers: [] } });
    await delay(100);
    const changed = await session.refresh(request);

    expect(changed.listsRead).toBe(1);
    expect(changed.rows?.map((r) => r.machine)).not.toContain(GHOST_MACHINE);
  });

  it('misses no change written between a list\'s read and the start of its watch', async() => {
    const held: HeldSocket[] = [];
    const heldWatch = new ChangeWatch(mock.url, (url) => {
      const socket = new HeldSocket(url);

      held.push(socket);

      return socket;
    });
    // The session's clock is the embedded API's: its Nodes are live, and no Lease is read.
    const session = new TabSession(fetchDispatch(mock.url, null, httpFetch), heldWatch, () => Date.parse(scenario.now));
    const request = {
      target, form, fromStore
    };
    const machine = mock.store.scope('local')?.types.fromSteveName('cluster.x-k8s.io.machine');

    try {
      await session.refresh(request);
      // The lists are read, no subscription has gone out: the machine goes now.
      mock.store.patch('local', machine!, 'fleet-default', GHOST_MACHINE, 'merge', { metadata: { finalizers: [] } });
      held.forEach((socket) => socket.connect());
      await delay(200);
      const after = await session.refresh(request);

      expect(after.listsRead).toBe(1);
      expect(after.rows?.map((r) => r.machine)).not.toContain(GHOST_MACHINE);
      await delay(100);
      expect((await session.refresh(request)).listsRead).toBe(0);
    } finally {
      heldWatch.close();
    }
  });

  it('reads everything when asked to (after a write of the tab\'s own) and when the socket dropped', async() => {
    const session = new TabSession(fetchDispatch(mock.url, null, httpFetch), watch, () => Date.parse(scenario.now));
    const request = {
      target, form, fromStore
    };

    await session.refresh(request);
    await delay(200);
    expect((await session.refresh(request)).listsRead).toBe(0);
    expect((await session.refresh({ ...request, rereadAll: true })).listsRead).toBe(10);
    await delay(100);
    expect((await session.refresh(request)).listsRead).toBe(0);

    mock.reset();
    await delay(200);
    expect((await session.refresh(request)).listsRead).toBe(10);
  });

  // The record tab's session: one record's objects (data/record-load.ts).
  it('the record tab\'s: reads the ghost machine\'s objects by selector and judges it as the whole cluster does; a watched refresh reads only what changed', async() => {
    const now = Date.parse(scenario.now);
    const session = new TabSession(fetchDispatch(mock.url, null, httpFetch), watch, () => now);
    const subject = {
      kind: 'machine' as const, name: GHOST_MACHINE, namespace: 'fleet-default'
    };
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
    expect(shownRecord(session.record(key))).toEqual(shownRecord(whole.records.find((r) => r.key === key) ?? null));
    expect(shownRecord(session.record(key))?.findings).toContain('agent-never-checked-in');

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
