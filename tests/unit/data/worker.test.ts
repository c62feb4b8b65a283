/**
 * The pieces around the tab's worker: the watch of Steve's websocket (which lists changed), the page's handle on
 * the session in a worker (the same calls, answered through the message protocol, with a fallback to the page),
 * fetch in the store's shape of failures, and what is sent of the store's lists.
 */
import { deserialize, serialize } from 'v8';
import {
  ChangeWatch, clusterTarget, DEFAULT_FILTERS, FIRST_QUERY, csrfFromCookies, describeFailure, fetchDispatch, openSession, storeChanges, TabSession, translatedSearch
} from '@pkg/node-health/data';
import type { FetchLike, SocketLike, TabView, WorkerLike } from '@pkg/node-health/data';
import { serveSession } from '@pkg/node-health/data/protocol';
import type { FromWorker, ToWorker } from '@pkg/node-health/data/protocol';
import type { KubeObject } from '@pkg/node-health/engine';
import { ghostEtcd, GHOST_MACHINE } from '../../../scenarios/catalog';
import { clusterResource, fakeSteve } from '../../components/tab-steve';

class FakeSocket implements SocketLike {
  readyState = 0;
  sent: any[] = [];
  closed = false;
  onopen: ((ev: any) => void) | null = null;
  onmessage: ((ev: any) => void) | null = null;
  onclose: ((ev: any) => void) | null = null;
  onerror: ((ev: any) => void) | null = null;

  readonly url: string;

  constructor(url: string) {
    this.url = url;
  }

  send(text: string): void {
    this.sent.push(JSON.parse(text));
  }

  close(): void {
    this.closed = true;
  }

  open(): void {
    this.readyState = 1;
    this.onopen?.({});
  }

  receive(msg: unknown): void {
    this.onmessage?.({ data: JSON.stringify(msg) });
  }

  drop(): void {
    this.readyState = 3;
    this.onclose?.({});
  }
}

describe('ChangeWatch', () => {
  const machines = {
    cluster: null, resourceType: 'cluster.x-k8s.io.machine', namespace: 'fleet-default'
  };
  const nodes = { cluster: 'c-m-1', resourceType: 'node' };

  /** Steve's message about the machines list of fleet-default */
  const aboutMachines = (name: string, extra: Record<string, unknown> = {}) => ({
    name, resourceType: 'cluster.x-k8s.io.machine', namespace: 'fleet-default', ...extra
  });

  /** A watch whose machines subscription Steve has started, and the list read since. */
  function running() {
    const { watch, sockets } = started();

    watch.watch(machines);
    sockets[0].open();
    sockets[0].receive(aboutMachines('resource.start'));
    watch.markRead(machines);

    return {
      watch, socket: sockets[0], sockets
    };
  }

  function started() {
    const sockets: FakeSocket[] = [];
    const watch = new ChangeWatch('https://rancher.example.com', (url) => {
      const s = new FakeSocket(url);

      sockets.push(s);

      return s;
    });

    return { watch, sockets };
  }

  it('subscribes per scope in resource.changes mode, and counts a list unchanged only once read after Steve started its watch', () => {
    const { watch, sockets } = started();

    watch.watch(machines);
    watch.watch(nodes);
    expect(sockets.map((s) => s.url)).toEqual(['wss://rancher.example.com/v1/subscribe', 'wss://rancher.example.com/k8s/clusters/c-m-1/v1/subscribe']);
    sockets.forEach((s) => s.open());
    expect(sockets[0].sent).toEqual([{
      resourceType: 'cluster.x-k8s.io.machine', namespace: 'fleet-default', mode: 'resource.changes'
    }]);
    expect(sockets[1].sent).toEqual([{ resourceType: 'node', mode: 'resource.changes' }]);

    watch.markRead(machines);
    expect(watch.changed(machines)).toBe(true);
    sockets[0].receive({
      name: 'resource.start', resourceType: 'cluster.x-k8s.io.machine', namespace: 'fleet-default'
    });
    expect(watch.changed(machines)).toBe(true);
    watch.markRead(machines);
    expect(watch.changed(machines)).toBe(false);

    // Another namespace's change is not this list's.
    sockets[0].receive({
      name: 'resource.changes', resourceType: 'cluster.x-k8s.io.machine', namespace: 'fleet-local'
    });
    expect(watch.changed(machines)).toBe(false);
    sockets[0].receive({
      name: 'resource.changes', resourceType: 'cluster.x-k8s.io.machine', namespace: 'fleet-default', data: { revision: '9' }
    });
    expect(watch.changed(machines)).toBe(true);
  });

  it('watches a list from the revision it was read at: unchanged once Steve confirms, what changed since the read counts', () => {
    const { watch, sockets } = started();

    watch.watch(machines, '41');
    sockets[0].open();
    expect(sockets[0].sent).toEqual([{
      resourceType: 'cluster.x-k8s.io.machine', namespace: 'fleet-default', resourceVersion: '41', mode: 'resource.changes'
    }]);
    expect(watch.changed(machines)).toBe(true);
    // No read since: Steve's watch from the read's revision reports whatever came after it.
    sockets[0].receive(aboutMachines('resource.start'));
    expect(watch.changed(machines)).toBe(false);
    sockets[0].receive(aboutMachines('resource.changes', { data: { revision: '42' } }));
    expect(watch.changed(machines)).toBe(true);
    watch.markRead(machines);
    expect(watch.changed(machines)).toBe(false);
    // Read again: the subscription already runs, none is sent again.
    watch.watch(machines, '43');
    expect(sockets[0].sent).toHaveLength(1);
  });

  it('starts a subscription from the newest read made before it went out', () => {
    const { watch, sockets } = started();

    watch.watch(nodes, '7');
    watch.watch(nodes, '9');
    sockets[0].open();
    expect(sockets[0].sent).toEqual([{
      resourceType: 'node', resourceVersion: '9', mode: 'resource.changes'
    }]);
  });

  it('watches again from now when Steve no longer holds the revision, and the list is read again', () => {
    const { watch, sockets } = started();
    const aboutNodes = (name: string, extra: Record<string, unknown> = {}) => ({
      name, resourceType: 'node', ...extra
    });

    watch.watch(nodes, '7');
    sockets[0].open();
    // Steve's answer to a revision it no longer holds: started, refused, stopped.
    sockets[0].receive(aboutNodes('resource.start'));
    sockets[0].receive(aboutNodes('resource.error', { data: { error: 'resourceversion too old' } }));
    expect(watch.changed(nodes)).toBe(true);
    sockets[0].receive(aboutNodes('resource.stop'));
    expect(sockets[0].sent).toEqual([
      {
        resourceType: 'node', resourceVersion: '7', mode: 'resource.changes'
      },
      { resourceType: 'node', mode: 'resource.changes' },
    ]);
    sockets[0].receive(aboutNodes('resource.start'));
    expect(watch.changed(nodes)).toBe(true);
    watch.markRead(nodes);
    expect(watch.changed(nodes)).toBe(false);
  });

  it('after resource.stop subscribes again; after resource.error does not, and reads the list every time', () => {
    const { watch, socket } = running();

    socket.receive(aboutMachines('resource.stop'));
    expect(watch.changed(machines)).toBe(true);
    expect(socket.sent).toHaveLength(2);

    socket.receive(aboutMachines('resource.error', { data: { error: 'watch not allowed' } }));
    socket.receive(aboutMachines('resource.stop'));
    expect(socket.sent).toHaveLength(2);
    watch.markRead(machines);
    expect(watch.changed(machines)).toBe(true);
  });

  it('when the socket drops, every list of its scope counts as changed and the next watch opens a new socket', () => {
    const { watch, sockets } = running();

    expect(watch.changed(machines)).toBe(false);
    sockets[0].drop();
    expect(watch.changed(machines)).toBe(true);
    watch.watch(machines);
    expect(sockets).toHaveLength(2);
  });

  it('ignores what is not JSON or not about a watched list', () => {
    const { watch, socket } = running();

    socket.onmessage?.({ data: 'not json' });
    socket.receive({ name: 'ping', data: {} });
    socket.receive({
      name: 'resource.changes', resourceType: 'secret', namespace: 'fleet-default'
    });
    expect(watch.changed(machines)).toBe(false);
  });
});

/** A copy as postMessage makes it (the structured clone algorithm, which V8's serializer implements). */
function structuredClone<T>(value: T): T {
  return deserialize(serialize(value));
}

/** A worker that runs the session in this process, passing every message through a copy as postMessage would. */
function inProcessWorker(makeSession: () => TabSession): WorkerLike & { received: ToWorker[] } {
  const received: ToWorker[] = [];
  const worker: WorkerLike & { received: ToWorker[] } = {
    received,
    onmessage: null,
    onerror:   null,
    postMessage(message) {
      const copy = structuredClone(message);

      received.push(copy);
      serve(copy);
    },
    terminate: () => undefined,
  };
  const serve = serveSession(makeSession, (answer: FromWorker) => setTimeout(() => worker.onmessage?.({ data: structuredClone(answer) }), 0));

  return worker;
}

describe('openSession', () => {
  const scenario = ghostEtcd();
  const target = clusterTarget(clusterResource(scenario));
  const init = {
    origin: 'https://rancher.example.com', csrf: 'token', watch: false
  };

  it('in a worker: the same rows as on the page, a record and the redacted diagnosis on demand, as copies', async() => {
    const steve = fakeSteve(scenario);
    const notes: string[] = [];
    const worker = inProcessWorker(() => new TabSession(steve.dispatch, null, () => Date.parse(scenario.now)));
    const client = openSession({
      dispatch: jest.fn(), init, startWorker: () => worker, note: (t) => notes.push(t)
    });
    const onPage = new TabSession(fakeSteve(scenario).dispatch, null, () => Date.parse(scenario.now));
    const request = {
      target: target!, form: 'selectors' as const, fromStore: {}
    };

    expect(client.where).toBeNull();
    const view: TabView = await client.refresh(request);

    expect(client.where).toBe('worker');

    expect(view).toEqual(await onPage.refresh(request));
    expect(view.rows).toHaveLength(18);
    expect(view.rows?.some((r) => 'record' in r)).toBe(false);
    expect(worker.received[0]).toEqual({ id: 0, init });

    const key = `machine:fleet-default/${ GHOST_MACHINE }`;
    const record = await client.record(key);

    expect(record?.objects.machine?.metadata.name).toBe(GHOST_MACHINE);
    expect(record).toEqual(onPage.record(key));
    // The export's diagnosis is made in the worker, redacted, only when asked for.
    const exported = await client.exportDiagnosis([{ detail: 'ran --token abc0123456789' }]);

    expect(exported?.report.records).toHaveLength(18);
    expect(exported?.objects.length).toBeGreaterThan(18);
    expect(JSON.stringify(exported?.actionLog)).not.toContain('abc0123456789');
    expect(worker.received.filter((m) => 'call' in m && m.call.op === 'export')).toHaveLength(1);
    expect(await client.record('machine:fleet-default/nothing')).toBeNull();
    expect(notes).toEqual([]);
  });

  it('falls back to the page, with a note, when no worker starts or the worker fails; calls in flight are answered there', async() => {
    const notes: string[] = [];
    const request = {
      target: target!, form: 'selectors' as const, fromStore: {}
    };
    const none = openSession({
      dispatch: fakeSteve(scenario).dispatch, init, startWorker: () => null, note: (t) => notes.push(t)
    });

    expect((await none.refresh(request)).rows).toHaveLength(18);
    expect(none.where).toBe('page');

    const failing: WorkerLike = {
      onmessage: null, onerror: null, postMessage: () => undefined, terminate: jest.fn()
    };
    const client = openSession({
      dispatch: fakeSteve(scenario).dispatch, init, startWorker: () => failing, note: (t) => notes.push(t)
    });
    const answer = client.refresh(request);

    failing.onerror?.({ message: 'refused by the content security policy' });
    expect((await answer).rows).toHaveLength(18);
    expect(client.where).toBe('page');
    expect(failing.terminate).toHaveBeenCalled();
    expect(notes).toEqual(['Node Health: diagnosing on the page, the Web Worker could not run (refused by the content security policy)']);

    const throwing = openSession({
      dispatch:    fakeSteve(scenario).dispatch,
      init,
      startWorker: () => {
        throw new Error('no Blob URLs here');
      },
      note: (t) => notes.push(t),
    });

    expect((await throwing.refresh(request)).rows).toHaveLength(18);
    expect(throwing.where).toBe('page');
    expect(notes[1]).toBe('Node Health: diagnosing on the page, no Web Worker could start (no Blob URLs here)');
  });

  it('starts the worker with the first call, not when the session is opened', async() => {
    const worker = inProcessWorker(() => new TabSession(fakeSteve(scenario).dispatch, null, () => Date.parse(scenario.now)));
    const startWorker = jest.fn(() => worker);
    const client = openSession({
      dispatch: jest.fn(), init, startWorker, note: () => undefined
    });

    expect(client.where).toBeNull();
    expect(startWorker).not.toHaveBeenCalled();
    expect(worker.received).toEqual([]);
    await client.rows({ ...FIRST_QUERY, filters: { ...DEFAULT_FILTERS } });
    expect(startWorker).toHaveBeenCalledTimes(1);
    expect(worker.received[0]).toEqual({ id: 0, init });
    await client.record('machine:fleet-default/nothing');
    expect(startWorker).toHaveBeenCalledTimes(1);
  });

  it('on the page, hands out copies: judging again later does not change a record already shown', async() => {
    const client = openSession({
      dispatch: fakeSteve(scenario).dispatch, init, startWorker: () => null, note: () => undefined
    });
    const request = {
      target: target!, form: 'selectors' as const, fromStore: {}
    };

    await client.refresh(request);
    const key = `machine:fleet-default/${ GHOST_MACHINE }`;
    const shown = await client.record(key);
    const before = JSON.stringify(shown);

    await client.setHostReports([]);
    expect(JSON.stringify(shown)).toBe(before);
    expect(shown).not.toBe(await client.record(key));
  });
});

describe('fetchDispatch', () => {
  function answering(status: number, body: string): { fetch: FetchLike, calls: any[] } {
    const calls: any[] = [];

    return {
      calls,
      fetch: async(url, init) => {
        calls.push({ url, init });

        return {
          ok: status < 400, status, statusText: 'Status', text: async() => body
        };
      },
    };
  }

  it('asks the same URL on the page\'s origin, with the session cookie and the CSRF header, and a JSON body for a POST', async() => {
    const { fetch, calls } = answering(200, '{"data":[]}');
    const dispatch = fetchDispatch('https://rancher.example.com', 'abc', fetch);

    expect(await dispatch('management/request', { url: '/v1/secrets/fleet-default?include=metadata.name' })).toEqual({ data: [] });
    await dispatch('management/request', {
      url: '/apis/x', method: 'POST', data: { a: 1 }
    });
    expect(calls[0]).toEqual({
      url:  'https://rancher.example.com/v1/secrets/fleet-default?include=metadata.name',
      init: {
        method: 'GET', credentials: 'same-origin', headers: { accept: 'application/json', 'x-api-csrf': 'abc' }, body: undefined
      },
    });
    expect(calls[1].init).toMatchObject({
      method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json' }
    });
  });

  it('fails the way the store fails: the status and Steve\'s message, or a network failure', async() => {
    const forbidden = fetchDispatch('https://r', null, answering(403, '{"type":"error","status":403,"message":"secrets is forbidden"}').fetch);
    const notJson = fetchDispatch('https://r', null, answering(502, '<html>Bad Gateway</html>').fetch);
    const down = fetchDispatch('https://r', null, async() => {
      throw new TypeError('Failed to fetch');
    });

    expect(describeFailure(await forbidden('management/request', { url: '/v1/secrets' }).catch((e) => e))).toEqual({
      kind: 'forbidden', status: 403, message: 'secrets is forbidden'
    });
    expect(describeFailure(await notJson('management/request', { url: '/v1/secrets' }).catch((e) => e))).toEqual({
      kind: 'server', status: 502, message: 'Status'
    });
    expect(describeFailure(await down('management/request', { url: '/v1/secrets' }).catch((e) => e))).toMatchObject({ kind: 'network', status: null });
    await expect(down('management/promptModal', {})).rejects.toThrow('management/promptModal is not available here');
  });

  it('reads Rancher\'s CSRF cookie', () => {
    expect(csrfFromCookies('R_PCS=light; CSRF=4f2a9c; R_LOCALE=en-us')).toBe('4f2a9c');
    expect(csrfFromCookies('R_PCS=light')).toBeNull();
  });
});

describe('storeChanges', () => {
  const machine = (name: string, rv: string): KubeObject => ({
    metadata: {
      name, namespace: 'fleet-default', resourceVersion: rv
    }
  } as KubeObject);

  it('sends a store list only when an object was added, removed or written since it was last sent', () => {
    const changes = storeChanges();
    const first = changes.next({ machines: [machine('a', '1'), machine('b', '1')], mgmtCluster: [machine('c-m-1', '5')] });

    expect(Object.keys(first.lists)).toEqual(['machines', 'mgmtCluster']);
    expect(first.unchanged).toEqual([]);
    expect(changes.next({ machines: [machine('a', '1'), machine('b', '1')], mgmtCluster: [machine('c-m-1', '5')] })).toEqual({ lists: {}, unchanged: ['machines', 'mgmtCluster'] });
    expect(changes.next({ machines: [machine('a', '2'), machine('b', '1')], mgmtCluster: [machine('c-m-1', '5')] }).unchanged).toEqual(['mgmtCluster']);
    expect(changes.next({ machines: [machine('a', '2')], mgmtCluster: [machine('c-m-1', '5')] }).lists.machines).toHaveLength(1);
    // Not held any more (after a write of the tab's own): sent again once the store has it.
    expect(changes.next({ mgmtCluster: [machine('c-m-1', '5')] }).unchanged).toEqual(['mgmtCluster']);
    expect(Object.keys(changes.next({ machines: [machine('a', '2')], mgmtCluster: [machine('c-m-1', '5')] }).lists)).toEqual(['machines']);
  });
});

describe('translatedSearch', () => {
  it('adds every finding\'s title in the user\'s language, translating each distinct title once', async() => {
    const session = new TabSession(fakeSteve(ghostEtcd()).dispatch, null, () => Date.parse(ghostEtcd().now));
    const view = await session.refresh({
      target: target(), form: 'selectors', fromStore: {}
    });
    const t = jest.fn((key: string) => `TITLE OF ${ key }`);
    const given = view.rows ?? [];
    const rows = translatedSearch(given, t);
    const ghost = rows.find((r) => r.machine === GHOST_MACHINE);

    expect(ghost?.searchText).toContain('title of nodehealth.rules.agentnevercheckedin.title');
    expect(rows.filter((r) => r.findingTitles.length === 0).every((r) => given.includes(r))).toBe(true);
    expect(new Set(t.mock.calls.map((c) => c[0])).size).toBe(t.mock.calls.length);
  });

  function target() {
    return clusterTarget(clusterResource(ghostEtcd()))!;
  }
});
