/**
 * Infrastructure machines: a custom cluster's CustomMachine and a node driver's VmwarevsphereMachine.
 */

import { stableHex, stableSuffix } from '../random';
import { KubeObject, NodeAddress, RancherCondition } from '../types';
import { CAPI_V1BETA1, meta, OperatingSystem, uidFor } from './common';

export interface CustomMachineOptions {
  name: string;
  namespace: string;
  clusterName: string;
  createdAt: string;
  providerID?: string;
  ready?: boolean;
}

export function customMachine(o: CustomMachineOptions): KubeObject {
  const ready = o.ready ?? true;
  const obj: KubeObject = {
    apiVersion: 'rke.cattle.io/v1',
    kind:       'CustomMachine',
    metadata:   meta('CustomMachine', {
      name:            o.name,
      namespace:       o.namespace,
      createdAt:       o.createdAt,
      labels:          { 'cluster.x-k8s.io/cluster-name': o.clusterName },
      generation:      1,
      ownerReferences: [{
        apiVersion:         CAPI_V1BETA1,
        kind:               'Machine',
        name:               o.name,
        uid:                uidFor('Machine', o.namespace, o.name),
        controller:         true,
        blockOwnerDeletion: true,
      }],
    }),
    spec:   o.providerID ? { providerID: o.providerID } : {},
    status: {
      ready,
      conditions: [{
        type: 'Ready', status: ready ? 'True' : 'False', lastUpdateTime: o.createdAt
      }],
    },
  };

  return obj;
}

export interface VsphereMachineOptions {
  name: string;
  namespace: string;
  clusterName: string;
  machineDeployment: string;
  createdAt: string;
  os?: OperatingSystem;
  providerID?: string;
  addresses?: NodeAddress[];
  ready: boolean;
  /** message of the Ready condition when not ready (e.g. the driver's "no VM found") */
  errorMessage?: string;
  errorSince?: string;
  failureReason?: string;
  failureMessage?: string;
  cpuCount?: number;
  memorySizeMb?: number;
  deletionTimestamp?: string;
}

/** A node-driver infrastructure machine (rke-machine.cattle.io/v1 VmwarevsphereMachine). */
export function vsphereMachine(o: VsphereMachineOptions): KubeObject {
  const windows = (o.os ?? 'linux') === 'windows';
  const conditions: RancherCondition[] = [
    {
      type: 'CreateJob', status: 'True', lastUpdateTime: o.createdAt
    },
  ];
  const ready: RancherCondition = {
    type: 'Ready', status: o.ready ? 'True' : 'False', lastUpdateTime: o.errorSince ?? o.createdAt
  };

  if (!o.ready) {
    ready.reason = 'Error';
    if (o.errorMessage) ready.message = o.errorMessage;
  }
  conditions.push(ready);
  const status: Record<string, unknown> = {
    ready:                     o.ready,
    jobName:                   `${ o.name }-machine-provision`,
    driverHash:                stableHex('driver:vmwarevsphere', 64),
    cloudCredentialSecretName: `cattle-global-data:cc-${ stableSuffix(`cc:${ o.clusterName }`) }`,
    conditions,
  };

  if (o.addresses) status.addresses = o.addresses.map((a) => ({ ...a }));
  if (o.failureReason) status.failureReason = o.failureReason;
  if (o.failureMessage) status.failureMessage = o.failureMessage;
  const spec: Record<string, unknown> = {
    common:       { cloudCredentialSecretName: status.cloudCredentialSecretName },
    vcenter:      'vcenter.example.com',
    vcenterPort:  '443',
    datacenter:   '/Datacenter',
    folder:       '/Datacenter/vm/rancher',
    pool:         '/Datacenter/host/Cluster01/Resources',
    datastore:    '/Datacenter/datastore/vsanDatastore',
    network:      ['/Datacenter/network/VM Network'],
    creationType: 'template',
    cloneFrom:    windows ? '/Datacenter/vm/templates/win2019-core' : '/Datacenter/vm/templates/ubuntu-2204',
    cpuCount:     String(o.cpuCount ?? (windows ? 4 : 2)),
    memorySize:   String(o.memorySizeMb ?? (windows ? 8192 : 4096)),
    diskSize:     windows ? '81920' : '40960',
    os:           windows ? 'windows' : 'linux',
  };

  if (o.providerID) spec.providerID = o.providerID;

  return {
    apiVersion: 'rke-machine.cattle.io/v1',
    kind:       'VmwarevsphereMachine',
    metadata:   meta('VmwarevsphereMachine', {
      name:      o.name,
      namespace: o.namespace,
      createdAt: o.createdAt,
      labels:    {
        'cluster.x-k8s.io/cluster-name':    o.clusterName,
        'cluster.x-k8s.io/deployment-name': o.machineDeployment,
        'rke.cattle.io/cluster-name':       o.clusterName,
      },
      annotations:       windows ? { 'rke.cattle.io/hostname-length-limit': '15' } : {},
      generation:        1,
      deletionTimestamp: o.deletionTimestamp,
      ownerReferences:   [{
        apiVersion:         CAPI_V1BETA1,
        kind:               'Machine',
        name:               o.name,
        uid:                uidFor('Machine', o.namespace, o.name),
        controller:         true,
        blockOwnerDeletion: true,
      }],
    }),
    spec,
    status,
  };
}
