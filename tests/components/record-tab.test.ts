/**
 * The Node Health tab of one Machine's page: the detail page draws it hidden beside its other tabs, so it reads
 * nothing until shown; shown, it reads the record's scoped lists and draws that record; its Refresh reads them again.
 */
import { flushPromises } from '@vue/test-utils';
import RecordHealthTab from '@pkg/node-health/tabs/RecordHealthTab.vue';
import { ghostEtcd, GHOST_MACHINE } from '../../scenarios/catalog';
import { toSteve } from '../../scenarios/steve';
import { mountTab } from './tab-harness';
import type { MountedTab } from './tab-harness';
import { clusterResource } from './tab-steve';

let tab: MountedTab | null = null;

afterEach(() => {
  tab?.wrapper.unmount();
  tab = null;
  jest.restoreAllMocks();
});

function openGhostMachinePage(hash?: string, options: { failUrl?: (url: string) => { status: number; message?: string } | undefined } = {}): MountedTab {
  const s = ghostEtcd();
  const machine = s.objects.find((o) => o.kind === 'Machine' && o.metadata.name === GHOST_MACHINE)!;
  const cluster = clusterResource(s);

  return mountTab(s, {
    component:  RecordHealthTab,
    storeHolds: { 'provisioning.cattle.io.cluster': [cluster] },
    ...options,
  }, toSteve(machine), hash === undefined ? undefined : { hash });
}

describe('the record tab on a Machine\'s page', () => {
  it('reads nothing while hidden behind the page\'s other tabs', async() => {
    tab = openGhostMachinePage();
    await tab.settle();
    expect(tab.steve.urls).toEqual([]);
    expect(tab.wrapper.find('[data-testid="node-health-record-status"]').exists()).toBe(false);
  });

  it('shown, reads the record\'s lists by selector and draws its status; Refresh reads them again', async() => {
    tab = openGhostMachinePage();
    await tab.show();
    const first = tab.steve.urls.length;

    expect(first).toBeGreaterThan(0);
    expect(tab.steve.urls.some((u) => u.includes(GHOST_MACHINE))).toBe(true);
    expect(tab.wrapper.find('[data-testid="node-health-record-status"]').text()).toBe('%nodeHealth.status.error%');
    await tab.wrapper.find('[data-testid="node-health-record-refresh"]').trigger('click');
    await tab.settle();
    await flushPromises();
    expect(tab.steve.urls.length).toBeGreaterThan(first);
  });

  it('opened on the Node Health tab (#node-health), loads at once', async() => {
    tab = openGhostMachinePage('#node-health');
    await tab.settle();
    expect(tab.steve.urls.length).toBeGreaterThan(0);
  });

  it('a load that fails says why, with the server\'s words as text, and Try again recovers', async() => {
    tab = openGhostMachinePage(undefined, { failUrl: (url) => (url.includes('cluster.x-k8s.io.machines') ? { status: 503, message: '<b>etcdserver: leader changed</b>' } : undefined) });
    await tab.show();
    const error = tab.wrapper.find('[data-testid="node-health-record-error"]');

    expect(error.exists()).toBe(true);
    expect(error.text()).toContain('%nodeHealth.tab.error.server%');
    expect(error.text()).toContain('<b>etcdserver: leader changed</b>');
    expect(error.find('b').exists()).toBe(false);

    tab.steve.options.failUrl = undefined;
    await tab.wrapper.find('[data-testid="node-health-retry"]').trigger('click');
    await tab.settle();
    await flushPromises();
    expect(tab.wrapper.find('[data-testid="node-health-record-error"]').exists()).toBe(false);
    expect(tab.wrapper.find('[data-testid="node-health-record-status"]').text()).toBe('%nodeHealth.status.error%');
  });
});
