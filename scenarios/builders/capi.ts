/**
 * Cluster API's own objects of a Rancher-provisioned cluster, as Rancher creates them (rancher
 * pkg/controllers/provisioningv2/provisioningcluster template.go) and Cluster API fills their status: the CAPI
 * Cluster named after the provisioning cluster; per machine pool a MachineDeployment `<cluster>-<pool>`, its
 * MachineSet, and, when the pool sets Auto Replace (unhealthyNodeTimeout), a MachineHealthCheck of the same name.
 */
import { stableHex } from '../random';
import type { KubeObject, MachineV1beta1 } from '../types';
import { CAPI_V1BETA1, meta, uidFor } from './common';

/** The MachineSet name a MachineDeployment's machines are owned by (the hash part is stable per deployment). */
export function machineSetNameFor(machineDeployment: string): string {
  return `${ machineDeployment }-${ stableHex(`ms:${ machineDeployment }`, 9).replace(/^[0-9]/, 'b') }`;
}

export interface CapiClusterOptions {
  name: string;
  namespace: string;
  createdAt: string;
  paused?: boolean;
  /** when the pause began: the v1beta2 Paused condition's transition */
  pausedAt?: string;
  annotations?: Record<string, string>;
}

export function capiCluster(o: CapiClusterOptions): KubeObject {
  const at = o.pausedAt ?? o.createdAt;

  return {
    apiVersion: CAPI_V1BETA1,
    kind:       'Cluster',
    metadata:   meta('CapiCluster', {
      name:            o.name,
      namespace:       o.namespace,
      createdAt:       o.createdAt,
      uid:             uidFor('CapiCluster', o.namespace, o.name),
      annotations:     o.annotations,
      finalizers:      ['cluster.cluster.x-k8s.io'],
      ownerReferences: [{
        apiVersion: 'provisioning.cattle.io/v1', kind: 'Cluster', name: o.name, uid: uidFor('Cluster', o.namespace, o.name), controller: true, blockOwnerDeletion: true
      }],
    }),
    spec: {
      controlPlaneEndpoint: { host: '', port: 0 },
      controlPlaneRef:      {
        apiVersion: 'rke.cattle.io/v1', kind: 'RKEControlPlane', name: o.name, namespace: o.namespace
      },
      infrastructureRef:    {
        apiVersion: 'rke.cattle.io/v1', kind: 'RKECluster', name: o.name, namespace: o.namespace
      },
      ...(o.paused ? { paused: true } : {}),
    },
    status: {
      phase:               'Provisioned',
      controlPlaneReady:   true,
      infrastructureReady: true,
      observedGeneration:  o.paused ? 3 : 2,
      conditions:          [
        {
          type: 'Ready', status: 'True', lastTransitionTime: o.createdAt
        },
        {
          type: 'ControlPlaneInitialized', status: 'True', lastTransitionTime: o.createdAt
        },
        {
          type: 'ControlPlaneReady', status: 'True', lastTransitionTime: o.createdAt
        },
        {
          type: 'InfrastructureReady', status: 'True', lastTransitionTime: o.createdAt
        },
      ],
      v1beta2: {
        conditions: [
          o.paused || o.annotations?.['cluster.x-k8s.io/paused'] !== undefined ? {
            type: 'Paused', status: 'True', reason: 'Paused', message: o.paused ? 'Cluster spec.paused is set to true' : 'Cluster has the cluster.x-k8s.io/paused annotation', lastTransitionTime: at, observedGeneration: 3
          } : {
            type: 'Paused', status: 'False', reason: 'NotPaused', lastTransitionTime: o.createdAt, observedGeneration: 2
          },
          // cluster-api core/reconcilers/cluster setRemoteConnectionProbeCondition: the cluster is reached
          {
            type: 'RemoteConnectionProbe', status: 'True', reason: 'ProbeSucceeded', lastTransitionTime: o.createdAt, observedGeneration: 2
          },
        ],
      },
    },
  };
}

export interface PoolOptions {
  clusterName: string;
  namespace: string;
  /** `<cluster>-<pool>` */
  machineDeployment: string;
  createdAt: string;
  machines: MachineV1beta1[];
  /** Rancher's pool settings for Auto Replace; no MachineHealthCheck without unhealthyNodeTimeout */
  unhealthyNodeTimeout?: string;
  maxUnhealthy?: string;
  unhealthyRange?: string;
  /** the health check's own verdict, as its controller wrote it, and since when */
  remediation?: { allowed: boolean; message?: string; at: string };
  annotations?: Record<string, string>;
}

function ready(m: MachineV1beta1): boolean {
  return (m.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

function healthy(m: MachineV1beta1): boolean {
  return !(m.status?.conditions ?? []).some((c) => c.type === 'HealthCheckSucceeded' && c.status === 'False') && !!m.status?.nodeRef;
}

/** A pool's MachineDeployment, MachineSet and (with Auto Replace) MachineHealthCheck. */
export function poolObjects(o: PoolOptions): KubeObject[] {
  const pool = o.machineDeployment.slice(o.clusterName.length + 1);
  const replicas = o.machines.length;
  const readyReplicas = o.machines.filter(ready).length;
  const labels = { 'cluster.x-k8s.io/cluster-name': o.clusterName, 'rke.cattle.io/rke-machine-pool-name': pool };
  // What each Machine of the pool is made from, as Rancher writes it: its cluster's bootstrap template and the
  // pool's machine template (Rancher's cluster page reads the deployment's template to name the pool's provider).
  const infra = o.machines[0].spec.infrastructureRef;
  const template = {
    metadata: {
      labels: {
        'cluster.x-k8s.io/cluster-name': o.clusterName, 'cluster.x-k8s.io/deployment-name': o.machineDeployment, 'rke.cattle.io/rke-machine-pool-name': pool
      }
    },
    spec:     {
      clusterName: o.clusterName,
      bootstrap:   {
        configRef: {
          apiVersion: 'rke.cattle.io/v1', kind: 'RKEBootstrapTemplate', name: `${ o.clusterName }-bootstrap-template`, namespace: o.namespace
        }
      },
      infrastructureRef: {
        apiVersion: infra.apiVersion, kind: `${ infra.kind }Template`, name: `${ o.machineDeployment }-${ stableHex(`template:${ o.machineDeployment }`, 8) }`, namespace: o.namespace
      },
    },
  };
  const replicaStatus = {
    replicas, readyReplicas, availableReplicas: readyReplicas, updatedReplicas: replicas, unavailableReplicas: replicas - readyReplicas
  };
  const deployment: KubeObject = {
    apiVersion: CAPI_V1BETA1,
    kind:       'MachineDeployment',
    metadata:   meta('MachineDeployment', {
      name: o.machineDeployment, namespace: o.namespace, createdAt: o.createdAt, labels, annotations: o.annotations, generation: 2
    }),
    spec: {
      clusterName: o.clusterName,
      replicas,
      selector:    { matchLabels: { 'cluster.x-k8s.io/cluster-name': o.clusterName, 'cluster.x-k8s.io/deployment-name': o.machineDeployment } },
      template,
    },
    status: {
      ...replicaStatus,
      phase:      readyReplicas === replicas ? 'Running' : 'ScalingUp',
      conditions: [{
        type: 'Ready', status: readyReplicas === replicas ? 'True' : 'False', lastTransitionTime: o.createdAt
      }],
    },
  };
  const setName = machineSetNameFor(o.machineDeployment);
  const set: KubeObject = {
    apiVersion: CAPI_V1BETA1,
    kind:       'MachineSet',
    metadata:   meta('MachineSet', {
      name:            setName,
      namespace:       o.namespace,
      createdAt:       o.createdAt,
      uid:             uidFor('MachineSet', o.namespace, o.machineDeployment),
      labels:          { ...labels, 'cluster.x-k8s.io/deployment-name': o.machineDeployment },
      ownerReferences: [{
        apiVersion: CAPI_V1BETA1, kind: 'MachineDeployment', name: o.machineDeployment, uid: uidFor('MachineDeployment', o.namespace, o.machineDeployment), controller: true, blockOwnerDeletion: true
      }],
    }),
    spec:   {
      clusterName: o.clusterName, replicas, template
    },
    status: {
      ...replicaStatus,
      fullyLabeledReplicas: replicas,
      conditions:           [{
        type: 'Ready', status: 'True', lastTransitionTime: o.createdAt
      }]
    },
  };

  if (!o.unhealthyNodeTimeout) {
    return [deployment, set];
  }
  const currentHealthy = o.machines.filter(healthy).length;
  const remediation = o.remediation ?? { allowed: true, at: o.createdAt };
  const check: KubeObject = {
    apiVersion: CAPI_V1BETA1,
    kind:       'MachineHealthCheck',
    metadata:   meta('MachineHealthCheck', {
      name: o.machineDeployment, namespace: o.namespace, createdAt: o.createdAt, labels: { 'cluster.x-k8s.io/cluster-name': o.clusterName }
    }),
    spec: {
      clusterName:         o.clusterName,
      selector:            { matchLabels: { 'cluster.x-k8s.io/deployment-name': o.machineDeployment } },
      unhealthyConditions: [
        {
          type: 'Ready', status: 'Unknown', timeout: o.unhealthyNodeTimeout
        },
        {
          type: 'Ready', status: 'False', timeout: o.unhealthyNodeTimeout
        },
      ],
      ...(o.maxUnhealthy ? { maxUnhealthy: o.maxUnhealthy } : {}),
      ...(o.unhealthyRange ? { unhealthyRange: o.unhealthyRange } : {}),
      nodeStartupTimeout: '10m0s',
    },
    status: {
      expectedMachines:    replicas,
      currentHealthy,
      remediationsAllowed: remediation.allowed ? Math.max(0, replicas - currentHealthy) : 0,
      targets:             o.machines.map((m) => m.metadata.name).sort(),
      observedGeneration:  1,
      conditions:          [remediation.allowed ? {
        type: 'RemediationAllowed', status: 'True', lastTransitionTime: remediation.at
      } : {
        type: 'RemediationAllowed', status: 'False', severity: 'Warning', reason: 'TooManyUnhealthy', message: remediation.message, lastTransitionTime: remediation.at
      }],
    },
  };

  return [deployment, set, check];
}
