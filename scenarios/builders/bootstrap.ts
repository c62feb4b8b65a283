/**
 * RKEBootstrap, the bootstrap object of a Rancher-provisioned machine.
 */

import { KubeObject, Labels } from '../types';
import {
  CAPI_V1BETA1, ETCD_FORCE_REMOVE_ANNOTATION, meta, roleLabels, Roles, uidFor
} from './common';

export interface RkeBootstrapOptions {
  name: string;
  namespace: string;
  clusterName: string;
  machineName: string;
  createdAt: string;
  roles?: Roles;
  etcdForceRemove?: boolean;
  deletionTimestamp?: string;
}

export function rkeBootstrap(o: RkeBootstrapOptions): KubeObject {
  const annotations: Labels = {};

  if (o.etcdForceRemove) annotations[ETCD_FORCE_REMOVE_ANNOTATION] = 'true';

  return {
    apiVersion: 'rke.cattle.io/v1',
    kind:       'RKEBootstrap',
    metadata:   meta('RKEBootstrap', {
      name:              o.name,
      namespace:         o.namespace,
      createdAt:         o.createdAt,
      labels:            { 'cluster.x-k8s.io/cluster-name': o.clusterName, ...roleLabels(o.roles ?? {}) },
      annotations,
      deletionTimestamp: o.deletionTimestamp,
      generation:        1,
      ownerReferences:   [{
        apiVersion:         CAPI_V1BETA1,
        kind:               'Machine',
        name:               o.machineName,
        uid:                uidFor('Machine', o.namespace, o.machineName),
        controller:         true,
        blockOwnerDeletion: true,
      }],
    }),
    spec:   { clusterName: o.clusterName },
    status: { ready: true, dataSecretName: `${ o.name }-machine-bootstrap` },
  };
}
