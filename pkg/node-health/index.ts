import { importTypes } from '@rancher/auto-import';
import { IPlugin, TabLocation } from '@shell/core/types';
import { _DETAIL } from '@shell/config/query-params';
import { CAPI } from '@shell/config/types';
import { NODE_HEALTH_TAB_NAME } from './tab-name';

/** The Node Health tab, in the shape plugin.addTab takes; loaded on first use. */
export const NODE_HEALTH_TAB = {
  name:       NODE_HEALTH_TAB_NAME,
  labelKey:   'nodeHealth.tabLabel',
  weight:     -10,
  showHeader: false,
  component:  () => import('./tabs/NodeHealthTab.vue'),
};

/**
 * Registers the tab at both detail-tab locations. Rancher 2.10 to 2.13.1 read only the legacy
 * RESOURCE_DETAIL location. Newer ones read RESOURCE_DETAIL_PAGE on the resource detail page and fall back
 * to the legacy location only when no tab matches the new one (shell components/Tabbed), so the tab shows
 * once on either. Both are limited to the detail view (not edit or config); each call gets its own location
 * object, because addTab writes into a legacy location object in place.
 */
export function registerNodeHealthTab(plugin: Pick<IPlugin, 'addTab'>): void {
  plugin.addTab(TabLocation.RESOURCE_DETAIL_PAGE, { resource: [CAPI.RANCHER_CLUSTER], mode: [_DETAIL] }, { ...NODE_HEALTH_TAB });
  plugin.addTab(TabLocation.RESOURCE_DETAIL, { resource: [CAPI.RANCHER_CLUSTER], mode: [_DETAIL] }, { ...NODE_HEALTH_TAB });
}

// Init the package
export default function(plugin: IPlugin): void {
  // Auto-import model, detail, edit, list, dialog and l10n from the folders
  importTypes(plugin);

  // Provide plugin metadata from package.json
  plugin.metadata = require('./package.json');

  registerNodeHealthTab(plugin);
}
