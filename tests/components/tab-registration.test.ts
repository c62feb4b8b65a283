import { defineComponent, h } from 'vue';
import { flushPromises, mount } from '@vue/test-utils';
import Tabbed from '@shell/components/Tabbed/index.vue';
import { Plugin } from '@shell/core/plugin';
import { getApplicableExtensionEnhancements } from '@shell/core/plugin-helpers';
import { ExtensionPoint, TabLocation } from '@shell/core/types';
import { useResourceDetailPageProvider } from '@shell/composables/resourceDetail';
import installNodeHealth, { NODE_HEALTH_TAB } from '@pkg/node-health/index';

// The tab has to show exactly once on the cluster page of every Rancher the extension supports:
// 2.10 to 2.13.1 read only the legacy location, newer ones prefer RESOURCE_DETAIL_PAGE (shell's Tabbed).
jest.mock('@pkg/node-health/tabs/NodeHealthTab.vue', () => ({ name: 'NodeHealthTabStub', render: () => null }));

function extension() {
  const plugin = new Plugin('node-health');

  installNodeHealth(plugin);

  // What the dashboard's extension manager does with a plugin's UI config (core/extension-manager-impl).
  return { plugin, $extension: { getUIConfig: (type: string, where: string) => plugin.uiConfig[type]?.[where] ?? [] } };
}

function route(resource: string, query: Record<string, string> = {}) {
  return {
    name:   'c-cluster-product-resource-namespace-id',
    params: {
      cluster: '_', product: 'manager', resource, namespace: 'fleet-default', id: 'dev'
    },
    query,
    hash: '',
    meta: {},
  };
}

/** Mounts shell's own Tabbed as a detail page would, inside or outside the new resource detail page. */
async function tabsOnPage($route: ReturnType<typeof route>, detailPage: boolean) {
  const { $extension } = extension();
  const Page = defineComponent({
    setup() {
      if (detailPage) {
        useResourceDetailPageProvider();
      }
    },
    render: () => h(Tabbed, { resource: { id: 'fleet-default/dev' } }),
  });
  const wrapper = mount(Page, {
    global: {
      mocks: {
        $extension, $route, $router: { replace: jest.fn(), currentRoute: { _value: { hash: '' } } }
      },
      provide: { 'update-count': () => undefined },
    },
  });

  await flushPromises();

  return wrapper.findAll('[data-testid="tabbed-block"] li').map((li) => li.attributes('data-testid') ?? li.text());
}

describe('tab registration', () => {
  it('registers one tab at each detail location, for provisioning clusters, in detail mode', () => {
    const { plugin } = extension();
    const at = (where: string) => plugin.uiConfig[ExtensionPoint.TAB][where];

    const pages = [
      { resource: ['provisioning.cattle.io.cluster'], mode: ['detail'] },
      {
        product: ['manager'], resource: ['cluster.x-k8s.io.machine'], mode: ['detail']
      },
      {
        product: ['explorer'], resource: ['node'], mode: ['detail']
      },
    ];

    for (const where of [TabLocation.RESOURCE_DETAIL_PAGE, TabLocation.RESOURCE_DETAIL]) {
      expect(at(where)).toEqual(pages.map((locationConfig) => expect.objectContaining({
        name: 'node-health', labelKey: 'nodeHealth.tabLabel', locationConfig
      })));
    }
    // addTab writes into the location object it is given: the two registrations must not share one.
    expect(at(TabLocation.RESOURCE_DETAIL_PAGE)[0].locationConfig).not.toBe(at(TabLocation.RESOURCE_DETAIL)[0].locationConfig);
    expect(NODE_HEALTH_TAB.name).toBe('node-health');
  });

  it('matches the cluster page and nothing else', () => {
    const { $extension } = extension();
    const matches = (r: ReturnType<typeof route>, where: string) => getApplicableExtensionEnhancements({ $extension } as any, ExtensionPoint.TAB, where as any, r as any, {} as any).length;

    expect(matches(route('provisioning.cattle.io.cluster'), TabLocation.RESOURCE_DETAIL)).toBe(1);
    expect(matches(route('provisioning.cattle.io.cluster'), TabLocation.RESOURCE_DETAIL_PAGE)).toBe(1);
    expect(matches(route('provisioning.cattle.io.cluster', { mode: 'edit' }), TabLocation.RESOURCE_DETAIL)).toBe(0);
    expect(matches(route('provisioning.cattle.io.cluster', { mode: 'edit' }), TabLocation.RESOURCE_DETAIL_PAGE)).toBe(0);
    expect(matches(route('management.cattle.io.cluster'), TabLocation.RESOURCE_DETAIL)).toBe(0);
    expect(matches(route('node'), TabLocation.RESOURCE_DETAIL_PAGE)).toBe(0);
  });

  it('the record tab matches a Machine\'s page in Cluster Management and a Node\'s in the Explorer, nothing else', () => {
    const { $extension } = extension();
    const matches = (r: any, where: string) => getApplicableExtensionEnhancements({ $extension } as any, ExtensionPoint.TAB, where as any, r as any, {} as any)
      .map((tab: any) => tab.locationConfig.resource[0]);
    const page = (product: string, resource: string, cluster: string, mode?: string) => ({
      name:   'c-cluster-product-resource-id',
      params: {
        cluster, product, resource, id: 'x'
      },
      query: mode ? { mode } : {},
      hash:  '',
      meta:  {}
    });

    expect(matches(route('cluster.x-k8s.io.machine'), TabLocation.RESOURCE_DETAIL_PAGE)).toEqual(['cluster.x-k8s.io.machine']);
    expect(matches(page('explorer', 'node', 'c-m-4qj7x2vd'), TabLocation.RESOURCE_DETAIL_PAGE)).toEqual(['node']);
    expect(matches(page('explorer', 'node', 'c-m-4qj7x2vd', 'edit'), TabLocation.RESOURCE_DETAIL_PAGE)).toEqual([]);
    expect(matches(page('manager', 'management.cattle.io.node', '_'), TabLocation.RESOURCE_DETAIL_PAGE)).toEqual([]);
    expect(matches(page('explorer', 'pod', 'c-m-4qj7x2vd'), TabLocation.RESOURCE_DETAIL_PAGE)).toEqual([]);
  });

  it('shows once on the new resource detail page (2.12.6+, 2.13.2+, 2.14+)', async() => {
    expect(await tabsOnPage(route('provisioning.cattle.io.cluster'), true)).toEqual(['node-health']);
  });

  it('shows once where only the legacy location is read (2.10 to 2.13.1)', async() => {
    expect(await tabsOnPage(route('provisioning.cattle.io.cluster'), false)).toEqual(['node-health']);
  });

  it('does not show on the edit page or on other resources', async() => {
    expect(await tabsOnPage(route('provisioning.cattle.io.cluster', { mode: 'edit' }), true)).toEqual([]);
    expect(await tabsOnPage(route('secret'), false)).toEqual([]);
  });
});
