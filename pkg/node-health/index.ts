import { importTypes } from '@rancher/auto-import';
import { IPlugin, PanelLocation, TabLocation, TableColumnLocation } from '@shell/core/types';
import { _DETAIL, _LIST } from '@shell/config/query-params';
import { CAPI, NODE } from '@shell/config/types';
import { NODE_HEALTH_TAB_NAME } from './tab-name';
import { CLUSTER_COLUMN, MACHINE_COLUMN } from './config/table-headers';
import { FLEET_ROUTE_NAME, FLEET_ROUTE_PATH } from './fleet/links';
import { MANAGER_PRODUCT } from './fleet/product';

/** The Node Health tab, in the shape plugin.addTab takes; loaded on first use. */
export const NODE_HEALTH_TAB = {
  name:       NODE_HEALTH_TAB_NAME,
  labelKey:   'nodeHealth.tabLabel',
  weight:     -10,
  showHeader: false,
  component:  () => import('./tabs/NodeHealthTab.vue'),
};

/** The record's own tab on a Machine's and on a Node's detail page, in the shape plugin.addTab takes. */
export const RECORD_HEALTH_TAB = { ...NODE_HEALTH_TAB, component: () => import('./tabs/RecordHealthTab.vue') };

/** The Explorer's product name (shell config/product/explorer NAME, not imported: that module sets the product up) */
const EXPLORER = 'explorer';

/** Where the record tab shows: a Machine in Cluster Management, a downstream cluster's Node in the Explorer. */
export const RECORD_TAB_PAGES = [
  { product: [MANAGER_PRODUCT], resource: [CAPI.MACHINE] },
  { product: [EXPLORER], resource: [NODE] },
];

/**
 * Registers the tab at both detail-tab locations. Rancher 2.10 to 2.13.1 read only the legacy
 * RESOURCE_DETAIL location. Newer ones read RESOURCE_DETAIL_PAGE on the resource detail page and fall back
 * to the legacy location only when no tab matches the new one (shell components/Tabbed), so the tab shows
 * once on either. Both are limited to the detail view (not edit or config); each call gets its own location
 * object, because addTab writes into a legacy location object in place. The same for the record tab on a
 * Machine's page (whose detail page this extension gives tabs: detail/cluster.x-k8s.io.machine.vue) and on a
 * Node's page in the Explorer.
 */
export function registerNodeHealthTab(plugin: Pick<IPlugin, 'addTab'>): void {
  plugin.addTab(TabLocation.RESOURCE_DETAIL_PAGE, { resource: [CAPI.RANCHER_CLUSTER], mode: [_DETAIL] }, { ...NODE_HEALTH_TAB });
  plugin.addTab(TabLocation.RESOURCE_DETAIL, { resource: [CAPI.RANCHER_CLUSTER], mode: [_DETAIL] }, { ...NODE_HEALTH_TAB });
  for (const page of RECORD_TAB_PAGES) {
    plugin.addTab(TabLocation.RESOURCE_DETAIL_PAGE, { ...page, mode: [_DETAIL] }, { ...RECORD_HEALTH_TAB });
    plugin.addTab(TabLocation.RESOURCE_DETAIL, { ...page, mode: [_DETAIL] }, { ...RECORD_HEALTH_TAB });
  }
}

export { CLUSTER_COLUMN, MACHINE_COLUMN };

/**
 * The columns on Rancher's lists and the fleet page in Cluster Management. Columns are matched by the page's
 * route: the cluster list; the Machines list; and a cluster's page, whose Machines tab is its one resource table.
 * With server-side pagination the cluster list sorts on the server, which cannot sort by a diagnosis: there the
 * column does not sort.
 */
export function registerFleet(plugin: Pick<IPlugin, 'addTableColumn' | 'addRoutes' | 'addProduct'>): void {
  plugin.addTableColumn(TableColumnLocation.RESOURCE, {
    product: [MANAGER_PRODUCT], resource: [CAPI.RANCHER_CLUSTER], mode: [_LIST]
  }, { ...CLUSTER_COLUMN }, { ...CLUSTER_COLUMN, sort: false });
  plugin.addTableColumn(TableColumnLocation.RESOURCE, {
    product: [MANAGER_PRODUCT], resource: [CAPI.MACHINE], mode: [_LIST]
  }, { ...MACHINE_COLUMN }, { ...MACHINE_COLUMN });
  plugin.addTableColumn(TableColumnLocation.RESOURCE, { resource: [CAPI.RANCHER_CLUSTER], mode: [_DETAIL] }, { ...MACHINE_COLUMN }, { ...MACHINE_COLUMN });
  plugin.addRoutes([{
    parent: 'default',
    route:  {
      name:      FLEET_ROUTE_NAME,
      path:      FLEET_ROUTE_PATH,
      component: () => import('./pages/FleetHealthPage.vue'),
      meta:      { product: MANAGER_PRODUCT },
    },
  }]);
  plugin.addProduct(require('./fleet/product'));
}

/**
 * The bundle view's banner (data/bundle-view.ts) on the other pages of a diagnostics bundle served as a cluster by
 * the embedded Rancher API: every detail page's masthead in Cluster Management and the cluster explorer (the
 * cluster's own page and its tabs, its Machines, the explorer's resources) and every list of the explorer. The
 * shell offers no panel on the explorer's cluster dashboard (a card there would be an empty box on every
 * cluster). The panel draws nothing on a real cluster's pages.
 */
export function registerBundlePanels(plugin: Pick<IPlugin, 'addPanel'>): void {
  const panel = () => ({ component: () => import('./components/BundlePanel.vue') });

  plugin.addPanel(PanelLocation.DETAILS_MASTHEAD, { product: [MANAGER_PRODUCT, 'explorer'] }, panel());
  plugin.addPanel(PanelLocation.RESOURCE_LIST, { product: ['explorer'] }, panel());
}

// Init the package
export default function(plugin: IPlugin): void {
  // Auto-import model, detail, edit, list, dialog, formatters and l10n from the folders
  importTypes(plugin);

  // Provide plugin metadata from package.json
  plugin.metadata = require('./package.json');

  registerNodeHealthTab(plugin);
  registerFleet(plugin);
  registerBundlePanels(plugin);
}
