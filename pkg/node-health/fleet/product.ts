/**
 * The fleet page's entry in Cluster Management's side navigation. The entry is added to Rancher's own `manager`
 * product through the shell's DSL directly, not through `plugin.DSL`: the plugin's DSL records the product as the
 * extension's, and removing the extension would then remove Cluster Management itself.
 */
import { DSL } from '@shell/store/type-map';
import { FLEET_PAGE_NAME, fleetPageLocation } from './links';

export const MANAGER_PRODUCT = 'manager';

export function init(_plugin: unknown, store: any): void {
  const { virtualType, basicType, weightType } = DSL(store, MANAGER_PRODUCT);

  virtualType({
    name:       FLEET_PAGE_NAME,
    labelKey:   'nodeHealth.fleet.navLabel',
    group:      'Root',
    namespaced: false,
    icon:       'globe',
    weight:     98.5,
    route:      fleetPageLocation(),
    exact:      true,
  });
  basicType([FLEET_PAGE_NAME]);
  // Right after Clusters and Cloud Credentials.
  weightType(FLEET_PAGE_NAME, 98.5, true);
}
