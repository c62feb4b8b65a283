import { flushPromises } from '@vue/test-utils';
import { STEVE_TYPES } from '@pkg/node-health/engine';
import NodeTable from '@pkg/node-health/components/NodeTable.vue';
import { ghostEtcd, GHOST_MACHINE, large } from '../../scenarios/catalog';
import { steveType } from '../../scenarios/steve';
import { holdAnswers, mountTab, pageStore, sortByHeader } from './tab-harness';
import type { MountedTab } from './tab-harness';

let tab: MountedTab | null = null;

afterEach(() => {
  tab?.wrapper.unmount();
  tab = null;
});

const statusOf = (t: MountedTab) => t.wrapper.findAll('tr.main-row').map((tr) => tr.find('td .badge-state, td [class*="badge"]').text());
const rowKeys = (t: MountedTab) => t.wrapper.findAll('tr.main-row').map((tr) => tr.attributes('data-node-id'));

describe('rows before the diagnosis', () => {
  it('shows a checking row per Machine the page holds, none healthy, then the diagnosed rows under the same keys', async() => {
    const s = ghostEtcd();
    const machines = s.objects.filter((o) => steveType(o) === STEVE_TYPES.machine).map((m) => `machine:${ m.metadata.namespace }/${ m.metadata.name }`);

    tab = mountTab(s, { storeHolds: pageStore(s) });
    const release = holdAnswers(tab);

    await tab.show();
    expect(tab.wrapper.find('[data-testid="node-health-loading"]').exists()).toBe(true);
    expect(rowKeys(tab).sort()).toEqual([...machines].sort());
    expect(statusOf(tab).every((label) => label === '%nodeHealth.status.pending%')).toBe(true);
    expect(tab.wrapper.text()).not.toContain('%nodeHealth.status.healthy%');
    // No counts before the verdicts: nothing is counted healthy.
    expect(tab.wrapper.find('[data-testid="node-health-summary"]').exists()).toBe(false);
    expect(tab.wrapper.find('.data-loading .icon-spinner').exists()).toBe(false);

    // A row opened while checking stays open when its verdict arrives.
    const ghost = `machine:fleet-default/${ GHOST_MACHINE }`;

    await tab.wrapper.find(`[data-testid="node-health-toggle-${ ghost }"]`).trigger('click');
    await flushPromises();
    expect(tab.wrapper.find(`[data-testid="node-health-detail-row-${ ghost }"] .icon-spinner`).exists()).toBe(true);

    release();
    await tab.settle();
    expect(tab.wrapper.find('[data-testid="node-health-loading"]').exists()).toBe(false);
    expect(tab.wrapper.find('[data-testid="node-health-summary"]').exists()).toBe(true);
    expect(statusOf(tab)).not.toContain('%nodeHealth.status.pending%');
    expect(statusOf(tab)).toContain('%nodeHealth.status.healthy%');
    expect(rowKeys(tab)).toEqual(expect.arrayContaining(machines));
    expect(tab.wrapper.find(`[data-testid="node-health-detail-row-${ ghost }"]`).exists()).toBe(true);
    expect(tab.wrapper.find(`[data-testid="node-health-detail-row-${ ghost }"] .icon-spinner`).exists()).toBe(false);
  });

  it('draws one page of checking rows, pages and sorts them while checking, and shows the verdicts in the same table', async() => {
    const s = large(120);
    const machines = s.objects.filter((o) => steveType(o) === STEVE_TYPES.machine).map((m) => `machine:${ m.metadata.namespace }/${ m.metadata.name }`);

    tab = mountTab(s, { storeHolds: pageStore(s) });
    const release = holdAnswers(tab);

    await tab.show();
    const loading = tab.wrapper.findComponent(NodeTable);

    expect(loading.attributes('data-testid')).toBe('node-health-loading');
    // One page of the 120, with the table's pager counting them all.
    expect(rowKeys(tab)).toHaveLength(50);
    expect(loading.props('table')).toMatchObject({ total: 120, page: 1 });
    expect(rowKeys(tab)).toEqual([...machines].sort((a, b) => a.localeCompare(b)).slice(0, 50));
    await sortByHeader(tab, 'nodeHealth.tab.table.machine');
    await sortByHeader(tab, 'nodeHealth.tab.table.machine');
    expect(rowKeys(tab)).toEqual([...machines].sort((a, b) => b.localeCompare(a)).slice(0, 50));

    release();
    await tab.settle();
    expect(tab.wrapper.find('[data-testid="node-health-summary"]').exists()).toBe(true);
    // The very table that showed the checking rows shows the diagnosed ones, in the order the user chose.
    expect(tab.wrapper.findAllComponents(NodeTable).map((t) => t.vm.$.uid)).toEqual([loading.vm.$.uid]);
    expect(loading.attributes('data-testid')).toBeUndefined();
    expect(statusOf(tab)).not.toContain('%nodeHealth.status.pending%');
    expect(rowKeys(tab)).toEqual([...machines].sort((a, b) => b.localeCompare(a)).slice(0, 50));
  });

  it('draws the checking rows before it sends the store\'s lists to the session or asks Rancher for anything', async() => {
    const s = ghostEtcd();

    tab = mountTab(s, { storeHolds: pageStore(s) }, undefined, { hash: '#node-health' });
    const sent = jest.spyOn(tab.wrapper.vm.runtime.session, 'syncStore');

    await flushPromises();
    expect(rowKeys(tab).length).toBeGreaterThan(0);
    expect(sent).not.toHaveBeenCalled();
    expect(tab.steve.urls).toEqual([]);
    await tab.settle();
    expect(sent).toHaveBeenCalled();
    expect(tab.steve.urls.length).toBeGreaterThan(0);
  });

  it('counts a checking row under no verdict: the healthy filter shows none of them', async() => {
    const s = ghostEtcd();

    tab = mountTab(s, { storeHolds: pageStore(s) });
    holdAnswers(tab);
    await tab.show();
    expect(rowKeys(tab).length).toBeGreaterThan(0);
    tab.wrapper.vm.setFilters({ ...tab.wrapper.vm.filters, status: 'healthy' });
    await flushPromises();
    expect(rowKeys(tab)).toEqual([]);
  });

  it('keeps the shell\'s loading row where the store holds no Machines, and draws nothing while the tab is hidden', async() => {
    const s = ghostEtcd();

    tab = mountTab(s, { storeHolds: pageStore(s) });
    holdAnswers(tab);
    await tab.settle();
    expect(rowKeys(tab)).toEqual([]);
    tab.wrapper.unmount();

    tab = mountTab(s);
    holdAnswers(tab);
    await tab.show();
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(rowKeys(tab)).toEqual([]);
    expect(tab.wrapper.find('[data-testid="node-health-loading"] .data-loading .icon-spinner').exists()).toBe(true);
  });
});
