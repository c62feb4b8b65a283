/**
 * The bundle view: a diagnostics bundle the embedded Rancher API serves as a cluster says so on its provisioning
 * cluster (data/bundle-view.ts). The tab then shows the bundle's banner, judges it at the moment it was made,
 * never reloads it by itself, and offers no write and no registration command, each saying why.
 */
import { flushPromises } from '@vue/test-utils';
import { ghostEtcd, GHOST_MACHINE } from '../../scenarios/catalog';
import { bundleAnnotations, READ_ONLY_REASON_KEY } from '@pkg/node-health/data/bundle-view';
import { mountTab } from './tab-harness';
import type { MountedTab } from './tab-harness';
import { clusterResource, loadUrls } from './tab-steve';

let tab: MountedTab | null = null;

afterEach(() => {
  tab?.wrapper.unmount();
  tab = null;
  jest.restoreAllMocks();
});

const DAY = 86400000;
const GHOST_KEY = `machine:fleet-default/${ GHOST_MACHINE }`;

/** The ghost etcd cluster as the embedded API serves it from a bundle made at the scenario's time. */
function bundleResource(madeAt: string) {
  const s = ghostEtcd();
  const resource = clusterResource(s);

  resource.metadata.annotations = {
    ...resource.metadata.annotations,
    ...bundleAnnotations({
      cluster: 'dev-k3s', madeAt, extensionVersion: '0.1.0', rancherVersion: 'v2.11.3', file: 'dev-k3s-bundle.json'
    }),
  };

  return resource;
}

/** Mounted three days after the bundle was made: a live cluster would be judged now, a bundle when it was made. */
async function opened(resource: Record<string, any>): Promise<MountedTab> {
  const s = ghostEtcd();
  const t = mountTab(s, {}, resource);

  jest.spyOn(Date, 'now').mockReturnValue(Date.parse(s.now) + 3 * DAY);
  await t.show();

  return t;
}

describe('the bundle view', () => {
  it('shows the bundle\'s banner and judges it at the moment it was made, not now', async() => {
    const s = ghostEtcd();

    tab = await opened(bundleResource(s.now));
    const banner = tab.wrapper.find('[data-testid="node-health-bundle-banner"]');

    expect(banner.text()).toContain('%nodeHealth.bundleView.banner%');
    expect(tab.wrapper.vm.bundle).toMatchObject({
      cluster: 'dev-k3s', madeAt: s.now, extensionVersion: '0.1.0', rancherVersion: 'v2.11.3'
    });
    expect(tab.wrapper.vm.view.now).toBe(new Date(s.now).toISOString());
    const ghost = tab.wrapper.vm.page.rows.find((r: any) => r.key === GHOST_KEY);

    expect(ghost.sinceMs).toBe(Date.parse(s.now) - Date.parse(ghost.since));
    tab.wrapper.unmount();

    // The same cluster live: judged at the clock's time, three days later.
    tab = await opened(clusterResource(s));
    expect(tab.wrapper.find('[data-testid="node-health-bundle-banner"]').exists()).toBe(false);
    expect(Date.parse(tab.wrapper.vm.view.now)).toBe(Date.parse(s.now) + 3 * DAY);
    expect(tab.wrapper.vm.page.rows.find((r: any) => r.key === GHOST_KEY).sinceMs).toBe(ghost.sinceMs + 3 * DAY);
  });

  it('offers no write and no registration command: each is disabled with the reason, and nothing opens', async() => {
    tab = await opened(bundleResource(ghostEtcd().now));
    const registration = tab.wrapper.find('[data-testid="node-health-registration"]');
    const refresh = tab.wrapper.find('[data-testid="node-health-refresh"]');

    expect(registration.attributes('disabled')).toBeDefined();
    expect(registration.attributes('title')).toBe(`%${ READ_ONLY_REASON_KEY }%`);
    expect(refresh.attributes('disabled')).toBeDefined();
    expect(refresh.attributes('title')).toBe(`%${ READ_ONLY_REASON_KEY }%`);
    // Said once, by the bundle's banner: the header has no load time to show and repeats nothing in its place.
    expect(tab.wrapper.find('[data-testid="node-health-bundle-banner"]').exists()).toBe(true);
    expect(tab.wrapper.find('.node-health__status').text()).toBe('');

    await tab.wrapper.find(`[data-testid="node-health-toggle-${ GHOST_KEY }"]`).trigger('click');
    await flushPromises();
    const detail = tab.wrapper.find(`[data-testid="node-health-detail-row-${ GHOST_KEY }"]`);
    const denied = detail.findAll('[data-testid^="node-health-action-denied-"]');
    const ids = denied.map((d) => d.attributes('data-testid')?.replace('node-health-action-denied-', ''));

    // The ghost's findings offer the finalizer removal and the registration command for it.
    expect(ids).toEqual(expect.arrayContaining(['remove-finalizers', 're-register']));
    expect(denied.every((d) => d.text().endsWith(`%${ READ_ONLY_REASON_KEY }%`))).toBe(true);
    expect(detail.findAll('button[data-testid^="node-health-action-"]')).toHaveLength(0);

    // Even asked to (an event from elsewhere), the tab opens no dialog.
    tab.wrapper.vm.onAction({ id: 'remove-finalizers', record: tab.wrapper.vm.openRecord });
    tab.wrapper.vm.openRegistration();
    await flushPromises();
    expect(tab.steve.actions.filter((a) => a.type === 'management/promptModal')).toEqual([]);
  });

  it('never reloads by itself: coming back to the tab a minute later reads nothing, where a live cluster is read again', async() => {
    const s = ghostEtcd();
    const comeBack = async(t: MountedTab) => {
      const before = loadUrls(t.steve.urls).length;

      t.hide();
      jest.spyOn(Date, 'now').mockReturnValue(Date.parse(s.now) + 3 * DAY + 60000);
      await t.show();

      return loadUrls(t.steve.urls).length - before;
    };

    tab = await opened(clusterResource(s));
    const live = await comeBack(tab);

    tab.wrapper.unmount();
    tab = await opened(bundleResource(s.now));
    expect(loadUrls(tab.steve.urls).length).toBeGreaterThan(0);
    expect(live).toBeGreaterThan(0);
    expect(await comeBack(tab)).toBe(0);
  });
});
