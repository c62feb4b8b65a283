/**
 * Cluster API's own objects of a cluster, beside its machines: the CAPI Cluster (paused or not), the
 * MachineDeployments and MachineSets of its pools, and the MachineHealthChecks that watch them. Rancher names the
 * CAPI Cluster after the provisioning cluster, in its namespace; the others carry the cluster's name in
 * `spec.clusterName` and, set by Cluster API's defaulting webhooks, the `cluster.x-k8s.io/cluster-name` label.
 */
import type { ClusterInfo, KubeObject } from './types';
import {
  asString, label, nameOf, namespaceOf, specOf
} from './fields';
import { LABELS } from './vocabulary';

export interface CapiObjects {
  cluster?: KubeObject;
  healthChecks: KubeObject[];
  deployments: KubeObject[];
  sets: KubeObject[];
}

export const NO_CAPI_OBJECTS: CapiObjects = Object.freeze({
  healthChecks: Object.freeze([]) as unknown as KubeObject[],
  deployments:  Object.freeze([]) as unknown as KubeObject[],
  sets:         Object.freeze([]) as unknown as KubeObject[],
});

export interface CapiBuckets {
  capiCluster: KubeObject[];
  machineHealthCheck: KubeObject[];
  machineDeployment: KubeObject[];
  machineSet: KubeObject[];
}

/** The name of the cluster an object of a pool belongs to. */
export function ownerClusterName(obj: KubeObject): string | null {
  return asString(specOf(obj).clusterName) ?? label(obj, LABELS.capiClusterName);
}

/**
 * Each cluster's objects, for the clusters already known (by their provisioning object or their machines): an
 * object of a cluster nothing else names makes no cluster of its own.
 */
export function indexCapiObjects(buckets: CapiBuckets, clusterOf: (namespace: string | null, name: string | null) => ClusterInfo | undefined): Map<ClusterInfo, CapiObjects> {
  const out = new Map<ClusterInfo, CapiObjects>();
  const entry = (info: ClusterInfo): CapiObjects => {
    let objects = out.get(info);

    if (!objects) {
      objects = {
        healthChecks: [], deployments: [], sets: []
      };
      out.set(info, objects);
    }

    return objects;
  };
  const add = (list: KubeObject[], field: 'healthChecks' | 'deployments' | 'sets') => {
    for (const obj of list) {
      const info = clusterOf(namespaceOf(obj), ownerClusterName(obj));

      if (info) {
        entry(info)[field].push(obj);
      }
    }
  };

  for (const obj of buckets.capiCluster) {
    const info = clusterOf(namespaceOf(obj), nameOf(obj));

    if (info) {
      entry(info).cluster = obj;
    }
  }
  add(buckets.machineHealthCheck, 'healthChecks');
  add(buckets.machineDeployment, 'deployments');
  add(buckets.machineSet, 'sets');

  return out;
}
