/**
 * The store's lists sent to the session a change at a time (data/store-sync.ts): the first load in parts, the
 * page's main thread given back whenever a slice of it is spent, then only what was added, written or removed, nothing when nothing changed; the session
 * puts the parts together into the same lists storeLists copies whole, and diagnoses them the same.
 */
import { reactive, toRaw } from 'vue';
import { STEVE_TYPES } from '@pkg/node-health/engine';
import {
  clusterTarget, storeLists, DEFAULT_FILTERS, FIRST_QUERY, PART_SIZE, SCAN_CHECK, SLICE_MS, StoreSync, SyncedLists, TabSession
} from '@pkg/node-health/data';
import type { ClusterTarget, StoreGetters, StorePart } from '@pkg/node-health/data';
import { large } from '../../../scenarios/catalog';
import { steveType, toSteve } from '../../../scenarios/steve';
import type { Scenario } from '../../../scenarios/types';
import { clusterResource, fakeSteve } from '../../components/tab-steve';

/** Twelve parts. */
const NODES = 1200;

function targetOf(s: Scenario): ClusterTarget {
  const t = clusterTarget(clusterResource(s, s.clusters[0].name));

  if (!t) {
    throw new Error('no target');
  }

  return t;
}

/** The dashboard store holding every Machine and management Node, reactive as the shell keeps them. */
function dashboardStore(s: Scenario): { getters: StoreGetters; lists: Record<string, any[]>; complete: Set<string> } {
  const complete = new Set<string>([STEVE_TYPES.machine, STEVE_TYPES.mgmtNode]);
  const lists: Record<string, any[]> = reactive({});

  for (const obj of s.objects) {
    const type = steveType(obj);

    if (complete.has(type)) {
      (lists[type] ||= []).push({ ...toSteve(obj), __rehydrate: 'management' });
    }
  }

  return {
    lists,
    complete,
    getters: {
      'management/haveAll': (type: string) => complete.has(type),
      'management/all':     (type: string) => lists[type] ?? [],
    },
  };
}

describe('the store\'s lists sent a change at a time', () => {
  let s: Scenario;
  let store: ReturnType<typeof dashboardStore>;
  let target: ClusterTarget;
  let sync: StoreSync;
  let kept: SyncedLists;
  let parts: StorePart[];
  let pauses: number;
  let clock: number;
  let tick: number;

  const send = () => sync.send(store.getters, target, toRaw, async(part) => {
    parts.push(part);
    kept.apply(part);
  }, async() => {
    pauses++;
  });

  beforeEach(() => {
    s = large(NODES);
    store = dashboardStore(s);
    target = targetOf(s);
    // A clock that says each part took a whole slice: a pause before every part.
    clock = 0;
    tick = SLICE_MS;
    sync = new StoreSync(() => {
      clock += tick;

      return clock;
    });
    kept = new SyncedLists();
    parts = [];
    pauses = 0;
  });

  it('sends the first load in parts, pausing whenever a slice of the main thread is spent, and the session holds what storeLists copies', async() => {
    const whole = storeLists(store.getters, target, toRaw);

    expect(await send()).toEqual(['machines', 'mgmtNodes']);
    const machineParts = parts.filter((p) => p.input === 'machines');

    const count = whole.machines?.length ?? 0;

    expect(machineParts.map((p) => p.upsert.length)).toEqual([...Array(Math.floor(count / PART_SIZE)).fill(PART_SIZE), count % PART_SIZE].filter(Boolean));
    expect(machineParts.map((p) => p.reset)).toEqual(machineParts.map((_p, i) => i === 0));
    // The clock says a slice is spent at every look: before every part, and every SCAN_CHECK objects whose versions are read.
    const scans = [whole.machines, whole.mgmtNodes].reduce((n, l) => n + Math.ceil((l?.length ?? 0) / SCAN_CHECK), 0);

    expect(pauses).toBe(parts.length + scans);
    expect(kept.list('machines')).toEqual(whole.machines);
    expect(kept.list('mgmtNodes')).toEqual(whole.mgmtNodes);
  });

  it('gives the page back while it reads the versions, and sends the list as it was listed when the store changes it meanwhile', async() => {
    const machines = store.lists[STEVE_TYPES.machine];
    const count = machines.length;
    const removed = machines[machines.length - 1].metadata.name;
    let changedDuringPause = false;

    await sync.send(store.getters, target, toRaw, async(part) => {
      parts.push(part);
      kept.apply(part);
    }, async() => {
      pauses++;
      if (!changedDuringPause) {
        // The store's watch removes a Machine while the page has its main thread back.
        changedDuringPause = true;
        machines.pop();
      }
    });
    expect(changedDuringPause).toBe(true);
    expect(kept.list('machines')?.length).toBe(count);
    // The next load sends what went meanwhile.
    parts = [];
    await send();
    expect(parts.filter((p) => p.input === 'machines').flatMap((p) => p.remove)).toEqual([removed]);
    expect(kept.list('machines')?.length).toBe(count - 1);
  });

  it('then sends nothing while nothing changed, one object when one was written, and the names removed', async() => {
    await send();
    const before = kept.list('machines');

    parts = [];
    expect(await send()).toEqual(['machines', 'mgmtNodes']);
    expect(parts).toEqual([]);
    expect(kept.list('machines')).toBe(before);

    const machines = store.lists[STEVE_TYPES.machine];
    const written = machines[7];

    written.metadata.resourceVersion = `${ written.metadata.resourceVersion }1`;
    written.status = { ...written.status, phase: 'Failed' };
    const gone = machines.splice(3, 1)[0];
    const paused = pauses;

    // As fast as one copy is: sent at once.
    tick = 0;
    await send();
    expect(parts).toEqual([expect.objectContaining({
      input: 'machines', reset: false, remove: [gone.metadata.name], upsert: [expect.objectContaining({ metadata: expect.objectContaining({ name: written.metadata.name }) })]
    })]);
    expect(pauses).toBe(paused);
    expect(kept.list('machines')).not.toBe(before);
    expect(kept.list('machines')).toEqual(storeLists(store.getters, target, toRaw).machines);
  });

  it('drops a list the store no longer holds whole, and starts anew after a part the session did not take', async() => {
    await send();
    parts = [];
    store.complete.delete(STEVE_TYPES.mgmtNode);
    expect(await send()).toEqual(['machines']);
    expect(parts).toEqual([{
      input: 'mgmtNodes', held: false, reset: true, upsert: [], remove: []
    }]);
    expect(kept.list('mgmtNodes')).toBeUndefined();

    store.lists[STEVE_TYPES.machine][0].metadata.resourceVersion = '99999';
    const refused = await sync.send(store.getters, target, toRaw, () => Promise.reject(new Error('could not be cloned')), async() => undefined);

    expect(refused).toEqual([]);
    parts = [];
    await send();
    expect(parts.filter((p) => p.input === 'machines')[0].reset).toBe(true);
  });

  it('has a session that never had a list whole say so, and sends it whole next time', async() => {
    await send();
    const machines = store.lists[STEVE_TYPES.machine];

    machines[0].metadata.resourceVersion = '99999';
    // A new session (the one on the page, after the worker stopped) gets only the change.
    const fresh = new TabSession(fakeSteve(s).dispatch, null, () => Date.parse(s.now));

    await sync.send(store.getters, target, toRaw, async(part) => fresh.syncStore(part), async() => undefined);
    const view = await fresh.refresh({
      target, form: 'selectors', fromStore: {}, synced: ['machines', 'mgmtNodes']
    });

    expect(view.unsynced).toEqual(['machines', 'mgmtNodes']);
    expect(view.fatal).toBeNull();
    expect(Object.values(view.counts).reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(machines.length);
    sync.forget(view.unsynced ?? []);
    parts = [];
    await send();
    expect(parts.filter((p) => p.input === 'machines')[0].reset).toBe(true);
  }, 30000);

  it('gives the session the same diagnosis as the whole lists did', async() => {
    const whole = new TabSession(fakeSteve(s).dispatch, null, () => Date.parse(s.now));
    const inParts = new TabSession(fakeSteve(s).dispatch, null, () => Date.parse(s.now));
    const rows = { ...FIRST_QUERY, filters: DEFAULT_FILTERS };
    const a = await whole.refresh({
      target, form: 'selectors', fromStore: storeLists(store.getters, target, toRaw), rows
    });

    await sync.send(store.getters, target, toRaw, async(part) => inParts.syncStore(part), async() => undefined);
    const b = await inParts.refresh({
      target, form: 'selectors', fromStore: {}, synced: ['machines', 'mgmtNodes'], rows
    });

    expect(b.counts).toEqual(a.counts);
    expect(b.page).toEqual(a.page);
    expect(b.listsRead).toBe(a.listsRead);
    expect(b.unsynced).toEqual([]);
  }, 30000);
});
