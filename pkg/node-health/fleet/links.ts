/**
 * Where the fleet's views lead: a cluster's page opened on its Node Health tab, optionally on one record, and
 * the fleet page in Cluster Management.
 */
import { NODE_HEALTH_TAB_NAME } from '../tab-name';

/** Query parameter of a cluster's page that names the Node Health record to open. */
export const RECORD_QUERY = 'nodeHealthRecord';

export const FLEET_PAGE_NAME = 'node-health-fleet';
export const FLEET_ROUTE_NAME = 'c-cluster-manager-node-health';
export const FLEET_ROUTE_PATH = '/c/:cluster/manager/node-health';

/** Cluster Management pages run under the "_" cluster */
const BLANK_CLUSTER = '_';

export interface TabLocation {
  name: string;
  params: Record<string, string>;
  query?: Record<string, string>;
  hash: string;
}

export function clusterTabLocation(namespace: string, name: string, recordKey?: string | null): TabLocation {
  return {
    name:   'c-cluster-product-resource-namespace-id',
    params: {
      cluster: BLANK_CLUSTER, product: 'manager', resource: 'provisioning.cattle.io.cluster', namespace, id: name
    },
    ...(recordKey ? { query: { [RECORD_QUERY]: recordKey } } : {}),
    hash: `#${ NODE_HEALTH_TAB_NAME }`,
  };
}

export function fleetPageLocation(): { name: string; params: Record<string, string> } {
  return { name: FLEET_ROUTE_NAME, params: { cluster: BLANK_CLUSTER, product: 'manager' } };
}

/** The record a cluster page's URL asks the tab to open, if any. */
export function requestedRecord(query: Record<string, unknown> | undefined | null): string | null {
  const value = query?.[RECORD_QUERY];
  const first = Array.isArray(value) ? value[0] : value;

  return typeof first === 'string' && first ? first : null;
}
