/**
 * Where each object of a node's chain has its own page in Rancher. Objects in the Rancher (local) cluster
 * open in Cluster Management (machines) or in the local cluster's explorer; the downstream Node opens in
 * the downstream cluster's explorer.
 */
import type { ChainLink, NodeRecord } from '../engine';

export interface RouteLocation {
  name: string;
  params: Record<string, string>;
}

const LOCAL_CLUSTER = 'local';
const MANAGER = 'manager';
const EXPLORER = 'explorer';
/** Cluster Management pages run under the "_" cluster */
const BLANK_CLUSTER = '_';

function namespaced(cluster: string, product: string, resource: string, namespace: string, id: string): RouteLocation {
  return {
    name:   'c-cluster-product-resource-namespace-id',
    params: {
      cluster, product, resource, namespace, id
    },
  };
}

/**
 * The page of a chain link's object, or null when there is none to open: the object was not found, or it is
 * the plan secret, whose page in Rancher would show the plan itself (join token, certificates).
 */
export function chainLinkLocation(link: ChainLink, record: NodeRecord): RouteLocation | null {
  if (!record.objects[link.kind] || !link.name || !link.type) {
    return null;
  }
  switch (link.kind) {
  case 'machine':
    return link.namespace ? namespaced(BLANK_CLUSTER, MANAGER, link.type, link.namespace, link.name) : null;
  case 'bootstrap':
  case 'infraMachine':
  case 'mgmtNode':
    return link.namespace ? namespaced(LOCAL_CLUSTER, EXPLORER, link.type, link.namespace, link.name) : null;
  case 'node': {
    const cluster = link.clusterId ?? record.cluster?.mgmtId;

    return cluster ? {
      name:   'c-cluster-product-resource-id',
      params: {
        cluster, product: EXPLORER, resource: link.type, id: link.name
      },
    } : null;
  }
  default:
    return null;
  }
}
