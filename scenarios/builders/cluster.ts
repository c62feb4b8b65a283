/**
 * The provisioning cluster (provisioning.cattle.io) and Rancher's management cluster (management.cattle.io).
 */

import { stableSuffix } from '../random';
import { ClusterKind, KubeObject, Labels, RancherCondition } from '../types';
import { meta, OperatingSystem, Roles, runtimeOf } from './common';

export interface ProvisioningClusterOptions {
  name: string;
  namespace: string;
  mgmtId: string;
  kind: ClusterKind;
  createdAt: string;
  kubernetesVersion?: string;
  /** the planner's message: goes into Updated and Provisioned (Unknown/Waiting) */
  waitingMessage?: string;
  /** the message is a hard error (False/Error, wrangler's SetError), not progress (Unknown/Waiting) */
  waitingFailed?: boolean;
  waitingSince?: string;
  rotateCertificatesGeneration?: number;
  machinePools?: {
    name: string; quantity: number; roles: Roles; os?: OperatingSystem; unhealthyNodeTimeout?: string; maxUnhealthy?: string; unhealthyRange?: string;
  }[];
  annotations?: Labels;
  generation?: number;
}

export function provisioningCluster(o: ProvisioningClusterOptions): KubeObject {
  const generation = o.generation ?? 3;
  const conditions: RancherCondition[] = [
    {
      type: 'Created', status: 'True', lastUpdateTime: o.createdAt
    },
    {
      type: 'RKECluster', status: 'True', lastUpdateTime: o.createdAt
    },
    {
      type: 'BackingNamespaceCreated', status: 'True', lastUpdateTime: o.createdAt
    },
    {
      type: 'DefaultProjectCreated', status: 'True', lastUpdateTime: o.createdAt
    },
    {
      type: 'SystemProjectCreated', status: 'True', lastUpdateTime: o.createdAt
    },
    {
      type: 'InitialRolesPopulated', status: 'True', lastUpdateTime: o.createdAt
    },
    {
      type: 'CreatorMadeOwner', status: 'True', lastUpdateTime: o.createdAt
    },
    {
      type: 'Connected', status: 'True', lastUpdateTime: o.createdAt
    },
  ];

  if (o.kind === 'imported') {
    conditions.splice(1, 1);
  }
  const since = o.waitingSince ?? o.createdAt;

  if (o.waitingMessage) {
    const [status, reason] = o.waitingFailed ? ['False' as const, 'Error'] : ['Unknown' as const, 'Waiting'];

    conditions.push(
      {
        type: 'Updated', status, reason, message: o.waitingMessage, lastUpdateTime: since
      },
      {
        type: 'Provisioned', status, reason, message: o.waitingMessage, lastUpdateTime: since
      },
    );
  } else {
    conditions.push(
      {
        type: 'Updated', status: 'True', lastUpdateTime: o.createdAt
      },
      {
        type: 'Provisioned', status: 'True', lastUpdateTime: o.createdAt
      },
    );
  }
  conditions.push({
    type: 'Ready', status: 'True', lastUpdateTime: o.createdAt
  });

  const spec: Record<string, unknown> = {};

  if (o.kind !== 'imported') {
    spec.kubernetesVersion = o.kubernetesVersion;
    spec.localClusterAuthEndpoint = {};
    const rkeConfig: Record<string, unknown> = {
      chartValues:         runtimeOf(o.kubernetesVersion ?? '') === 'rke2' ? { 'rke2-calico': {} } : {},
      etcd:                { snapshotRetention: 5, snapshotScheduleCron: '0 */5 * * *' },
      machineGlobalConfig: runtimeOf(o.kubernetesVersion ?? '') === 'rke2' ? {
        cni: 'calico', 'disable-kube-proxy': false, 'etcd-expose-metrics': false
      } : {
        'disable-apiserver': false, 'disable-cloud-controller': false, 'etcd-expose-metrics': false
      },
      machineSelectorConfig: [{ config: { 'protect-kernel-defaults': false } }],
      registries:            {},
      upgradeStrategy:       {
        controlPlaneConcurrency:  '1',
        controlPlaneDrainOptions: {
          enabled: false, deleteEmptyDirData: true, gracePeriod: -1, timeout: 120
        },
        workerConcurrency:        '1',
        workerDrainOptions:       {
          enabled: false, deleteEmptyDirData: true, gracePeriod: -1, timeout: 120
        },
      },
    };

    if (o.rotateCertificatesGeneration) rkeConfig.rotateCertificates = { generation: o.rotateCertificatesGeneration };
    if (o.machinePools) {
      rkeConfig.machinePools = o.machinePools.map((p) => ({
        name:             p.name,
        quantity:         p.quantity,
        etcdRole:         Boolean(p.roles.etcd),
        controlPlaneRole: Boolean(p.roles.controlPlane),
        workerRole:       Boolean(p.roles.worker),
        machineOS:        p.os ?? 'linux',
        machineConfigRef: { kind: 'VmwarevsphereConfig', name: `nc-${ o.name }-${ p.name }-${ stableSuffix(`nc:${ o.name }/${ p.name }`) }` },
        ...(p.os === 'windows' ? { hostnameLengthLimit: 15 } : {}),
        ...(p.unhealthyNodeTimeout ? { unhealthyNodeTimeout: p.unhealthyNodeTimeout } : {}),
        ...(p.maxUnhealthy ? { maxUnhealthy: p.maxUnhealthy } : {}),
        ...(p.unhealthyRange ? { unhealthyRange: p.unhealthyRange } : {}),
      }));
    }
    spec.rkeConfig = rkeConfig;
  }

  const annotations: Labels = {
    'field.cattle.io/creatorId': `user-${ stableSuffix(`creator:${ o.name }`) }`,
    ...(o.annotations ?? {}),
  };
  const status: Record<string, unknown> = {
    clusterName:        o.mgmtId,
    fleetWorkspaceName: o.namespace,
    conditions,
    observedGeneration: generation,
    ready:              true,
    agentDeployed:      true,
    clientSecretName:   `${ o.name }-kubeconfig`,
  };

  return {
    apiVersion: 'provisioning.cattle.io/v1',
    kind:       'Cluster',
    metadata:   meta('ProvCluster', {
      name:       o.name,
      namespace:  o.namespace,
      createdAt:  o.createdAt,
      generation,
      annotations,
      finalizers: ['wrangler.cattle.io/provisioning-cluster-remove', 'wrangler.cattle.io/rke-cluster-remove'],
    }),
    spec,
    status,
  };
}

export interface ManagementClusterOptions {
  mgmtId: string;
  displayName: string;
  namespace: string;
  kind: ClusterKind;
  createdAt: string;
  kubernetesVersion?: string;
  nodeCount: number;
  provisioningClusterName: string;
}

export function managementCluster(o: ManagementClusterOptions): KubeObject {
  const runtime = o.kubernetesVersion ? runtimeOf(o.kubernetesVersion) : 'k3s';
  const driver = o.kind === 'imported' ? 'imported' : runtime;

  return {
    apiVersion: 'management.cattle.io/v3',
    kind:       'Cluster',
    metadata:   meta('MgmtCluster', {
      name:        o.mgmtId,
      createdAt:   o.createdAt,
      generation:  5,
      labels:      { 'provider.cattle.io': runtime },
      annotations: {
        'objectset.rio.cattle.io/owner-gvk':                      'provisioning.cattle.io/v1, Kind=Cluster',
        'objectset.rio.cattle.io/owner-name':                     o.provisioningClusterName,
        'objectset.rio.cattle.io/owner-namespace':                o.namespace,
        'provisioning.cattle.io/management-cluster-display-name': o.displayName,
      },
    }),
    spec: {
      displayName:              o.displayName,
      fleetWorkspaceName:       o.namespace,
      internal:                 false,
      localClusterAuthEndpoint: { enabled: false },
    },
    status: {
      driver,
      provider:   runtime,
      connected:  true,
      conditions: [
        {
          type: 'BackingNamespaceCreated', status: 'True', lastUpdateTime: o.createdAt
        },
        {
          type: 'Provisioned', status: 'True', lastUpdateTime: o.createdAt
        },
        {
          type: 'Ready', status: 'True', lastUpdateTime: o.createdAt
        },
      ],
      info:    {
        arch: 'amd64', kubernetesVersion: o.kubernetesVersion, machineProvider: driver, nodeCount: o.nodeCount
      },
      version: { gitVersion: o.kubernetesVersion, platform: 'linux/amd64' },
    },
  };
}
