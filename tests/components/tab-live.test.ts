import { flushPromises } from '@vue/test-utils';
import { ghostEtcd, GHOST_MACHINE } from '../../scenarios/catalog';
import { chooseFilter, filterValue, mountTab } from './tab-harness';
import { loadUrls } from './tab-steve';
import { event } from '../../scenarios/builders/history';
import type { MountedTab } from './tab-harness';
import { FakeLongTaskObserver, installLongTaskObserver } from '../fakes/long-task-observer';

let tab: MountedTab | null = null;

afterEach(() => {
  tab?.wrapper.unmount();
  tab = null;
});

const MASTER = 'custom-898d97f03763';
const GHOST_KEY = `machine:fleet-default/${ GHOST_MACHINE }`;

const rows = (t: MountedTab) => t.wrapper.findAll('tr.main-row').map((tr) => {
  const cells = tr.findAll('td');

  return { machine: cells[2].text(), status: cells[1].text() };
});

async function sortBy(t: MountedTab, labelKey: string) {
  const th = t.wrapper.findAll('th').find((h) => h.text().includes(`%${ labelKey }%`));

  await th!.find('div').trigger('click');
}

/**
 * Kubelet on master01 stops posting status an hour before the scenario's time; the node lifecycle controller's
 * write gives the Node a new resourceVersion, as every write does (the session trusts it: object-changes.ts).
 */
function masterStopsReporting(t: MountedTab, now: string) {
  const node = Object.values(t.steve.downstream).flat().find((n) => n.metadata.name === 'dev-k8s-master01');
  const conditions = (node!.status as any).conditions as any[];

  node!.metadata.resourceVersion = `${ node!.metadata.resourceVersion ?? '' }1`;
  const ready = conditions.find((c) => c.type === 'Ready');

  Object.assign(ready, {
    status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.', lastTransitionTime: new Date(Date.parse(now) - 3600_000).toISOString()
  });
}

describe('live updates', () => {
  it('update a row that changed state and keep the sort, the filters and the open row', async() => {
    const s = ghostEtcd();

    tab = mountTab(s);
    await tab.show();
    // The user's view: etcd nodes only, sorted by machine name descending, the ghost machine open.
    await chooseFilter(tab.wrapper, 'role', 'etcd');
    await sortBy(tab, 'nodeHealth.tab.table.machine');
    await sortBy(tab, 'nodeHealth.tab.table.machine');
    await tab.wrapper.find(`[data-testid="node-health-toggle-${ GHOST_KEY }"]`).trigger('click');
    await flushPromises();
    const before = rows(tab);

    expect(before.map((r) => r.machine)).toEqual(['custom-c0d4e9b81f62', 'custom-a1c55e0f2b37', MASTER, GHOST_MACHINE]);
    expect(before.find((r) => r.machine === MASTER)?.status).toBe('%nodeHealth.status.healthy%');
    const requests = loadUrls(tab.steve.urls).length;

    masterStopsReporting(tab, s.now);
    await tab.wrapper.find('[data-testid="node-health-refresh"]').trigger('click');
    await tab.settle();

    expect(loadUrls(tab.steve.urls).length).toBe(requests * 2);
    const after = rows(tab);

    expect(after.map((r) => r.machine)).toEqual(before.map((r) => r.machine));
    expect(after.find((r) => r.machine === MASTER)?.status).not.toBe('%nodeHealth.status.healthy%');
    expect(filterValue(tab.wrapper, 'role')).toBe('etcd');
    expect(tab.wrapper.find(`[data-testid="node-health-detail-row-${ GHOST_KEY }"]`).exists()).toBe(true);
    expect(tab.wrapper.findAll('[data-testid="node-health-detail"]')).toHaveLength(1);
  });

  it('read an open row\'s Events again at a refresh: what was recorded since shows in its timeline', async() => {
    const s = ghostEtcd();

    tab = mountTab(s);
    await tab.show();
    await tab.wrapper.find(`[data-testid="node-health-toggle-${ GHOST_KEY }"]`).trigger('click');
    await tab.settle();
    const timeline = () => tab!.wrapper.find(`[data-testid="node-health-detail-row-${ GHOST_KEY }"] [data-testid="node-health-timeline"]`);
    const eventReads = () => tab!.steve.urls.filter((u) => u.includes('/events')).length;
    const readOnOpen = eventReads();
    const message = `Machine fleet-default/${ GHOST_MACHINE }/ has been marked as unhealthy`;

    const events = () => timeline().findAll('[data-testid="node-health-timeline-event"]');

    expect(readOnOpen).toBeGreaterThan(0);
    expect(timeline().text()).toContain('%nodeHealth.timeline.created.machine%');
    expect(events()).toHaveLength(0);
    // Cluster API's health check records an Event about the machine after the row was opened.
    const machine = tab.steve.local.find((o) => o.kind === 'Machine' && o.metadata.name === GHOST_MACHINE)!;

    tab.steve.local.push(event({
      about: machine, reason: 'MachineMarkedUnhealthy', message, component: 'machinehealthcheck-controller', first: new Date(Date.parse(s.now) - 60_000).toISOString(),
    }));
    // The next refresh, 15 s later.
    jest.spyOn(Date, 'now').mockReturnValue(Date.parse(s.now) + 15_000);
    await tab.wrapper.find('[data-testid="node-health-refresh"]').trigger('click');
    await tab.settle();

    expect(eventReads()).toBe(2 * readOnOpen);
    expect(events()).toHaveLength(1);
    expect(events()[0].text()).toContain('2026-01-15 08:09:00 UTC');
  });

  it('show when the data was loaded and load nothing more while the tab is hidden', async() => {
    tab = mountTab(ghostEtcd());
    await tab.show();
    expect(tab.wrapper.find('[data-testid="node-health-updated"]').exists()).toBe(true);
    const requests = tab.steve.urls.length;

    tab.hide();
    await tab.settle();
    expect(tab.steve.urls.length).toBe(requests);
    // The refresh button still works while the user is looking.
    await tab.wrapper.find('[data-testid="node-health-refresh"]').trigger('click');
    await tab.settle();
    expect(tab.steve.urls.length).toBe(2 * requests);
  });

  it('start the first load at once when the page was opened on the tab, and only one', async() => {
    const s = ghostEtcd();

    tab = mountTab(s, {}, undefined, { hash: '#node-health' });
    // Asked for when mounted, once the page has painted and what the store holds went to the session, before any
    // visibility report.
    await tab.settle();
    expect(tab.steve.urls).toHaveLength(10);
    expect(tab.wrapper.findAll('tr.main-row').length).toBeGreaterThan(0);
    await tab.show();
    expect(tab.steve.urls).toHaveLength(10);
  });

  it('wait to be shown when the page was opened on another tab', async() => {
    tab = mountTab(ghostEtcd(), {}, undefined, { hash: '#machine-pools' });
    await tab.settle();
    expect(tab.steve.urls).toHaveLength(0);
    await tab.show();
    expect(tab.steve.urls).toHaveLength(10);
  });
});

describe('poll pacing', () => {
  let restore: () => void = () => undefined;

  afterEach(() => {
    restore();
    jest.restoreAllMocks();
  });

  /** The delays of the timers the tab set that are long enough to be its next poll. */
  async function nextPollDelays(longTaskMs: number): Promise<number[]> {
    // The browser reports that receiving and diagnosing the lists blocked the page for longTaskMs.
    restore = installLongTaskObserver(class extends FakeLongTaskObserver {
      takeRecords() {
        return this.disconnected ? [] : [{ duration: longTaskMs }];
      }
    });
    const timers = jest.spyOn(window, 'setTimeout');

    tab = mountTab(ghostEtcd());
    await tab.show();

    return timers.mock.calls.map(([, ms]) => Number(ms)).filter((ms) => ms >= 10000);
  }

  it('waits 15 s between polls after a light refresh', async() => {
    const delays = await nextPollDelays(10);

    expect(delays.length).toBeGreaterThan(0);
    expect(Math.min(...delays)).toBeGreaterThan(14000);
    expect(Math.max(...delays)).toBeLessThanOrEqual(15000);
  });

  it('waits longer after a refresh that blocked the page for seconds', async() => {
    const delays = await nextPollDelays(2500);

    expect(delays.length).toBeGreaterThan(0);
    expect(Math.max(...delays)).toBeGreaterThan(45000);
    expect(Math.max(...delays)).toBeLessThanOrEqual(50000);
  });
});
