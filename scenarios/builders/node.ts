/**
 * The downstream cluster's v1 Node, as the kubelet registers it.
 */

import { stableHex, stableInt, stableUid } from '../random';
import { microTime } from '../time';
import { DEFAULT_LEASE_DURATION_S, statusOverdue } from '../../pkg/node-health/engine/leases';
import { NODE_LEASE_NAMESPACE } from '../../pkg/node-health/engine/objects';
import {
  KubeObject, Labels, NodeCondition, NodeObject, NodeSystemInfo
} from '../types';
import {
  MACHINE_UID_LABEL, meta, OperatingSystem, Roles, runtimeOf
} from './common';

export interface DownstreamNodeOptions {
  name: string;
  createdAt: string;
  kubernetesVersion: string;
  roles: Roles;
  os?: OperatingSystem;
  osImage?: string;
  kernelVersion?: string;
  containerRuntimeVersion?: string;
  address: string;
  internalAddress?: string;
  cpu?: number;
  memoryKi?: number;
  /** Machine uid the planner put into the node labels; omit for nodes Rancher did not provision */
  machineUid?: string;
  /** CAPI annotations, present once CAPI linked the node to its machine */
  capiMachine?: { name: string; clusterName: string; namespace: string };
  providerID?: string;
  ready?: { status: 'True' | 'False' | 'Unknown'; reason?: string; message?: string; since?: string };
  unschedulable?: boolean;
  /** When it was cordoned: the time its unschedulable taint was added (the last heartbeat where not said) */
  cordonedAt?: string;
  extraLabels?: Labels;
  heartbeat: string;
}

const WINDOWS_KERNELS: Record<string, string> = {
  'Windows Server 2016 Datacenter': '10.0.14393.6709',
  'Windows Server 2019 Datacenter': '10.0.17763.5329',
  'Windows Server 2022 Datacenter': '10.0.20348.2227',
};

export function nodeSystemInfo(o: {
  name: string; kubernetesVersion: string; os?: OperatingSystem; osImage?: string; kernelVersion?: string;
  containerRuntimeVersion?: string;
}): NodeSystemInfo {
  const windows = (o.os ?? 'linux') === 'windows';
  const osImage = o.osImage ?? (windows ? 'Windows Server 2019 Datacenter' : 'Ubuntu 22.04.4 LTS');
  const runtime = runtimeOf(o.kubernetesVersion);
  const machineID = stableHex(`machine-id:${ o.name }`, 32);

  return {
    architecture:            'amd64',
    bootID:                  stableUid(`boot:${ o.name }`),
    containerRuntimeVersion: o.containerRuntimeVersion ?? (runtime === 'k3s' ? 'containerd://1.7.11-k3s2' : 'containerd://1.7.11-k3s2'),
    kernelVersion:           o.kernelVersion ?? (windows ? (WINDOWS_KERNELS[osImage] ?? '10.0.17763.5329') : '5.15.0-105-generic'),
    kubeProxyVersion:        o.kubernetesVersion,
    kubeletVersion:          o.kubernetesVersion,
    machineID,
    operatingSystem:         windows ? 'windows' : 'linux',
    osImage,
    systemUUID:              stableUid(`system-uuid:${ o.name }`).toUpperCase(),
  };
}

export function downstreamNode(o: DownstreamNodeOptions): NodeObject {
  const windows = (o.os ?? 'linux') === 'windows';
  const runtime = runtimeOf(o.kubernetesVersion);
  const labels: Labels = {
    'beta.kubernetes.io/arch':          'amd64',
    'beta.kubernetes.io/instance-type': runtime,
    'beta.kubernetes.io/os':            windows ? 'windows' : 'linux',
    'kubernetes.io/arch':               'amd64',
    'kubernetes.io/hostname':           o.name,
    'kubernetes.io/os':                 windows ? 'windows' : 'linux',
    'node.kubernetes.io/instance-type': runtime,
  };

  if (o.roles.controlPlane) {
    labels['node-role.kubernetes.io/control-plane'] = 'true';
    labels['node-role.kubernetes.io/master'] = 'true';
  }
  if (o.roles.etcd) labels['node-role.kubernetes.io/etcd'] = 'true';
  if (o.roles.worker) labels['node-role.kubernetes.io/worker'] = 'true';
  const info = nodeSystemInfo({
    name: o.name, kubernetesVersion: o.kubernetesVersion, os: o.os, osImage: o.osImage, kernelVersion: o.kernelVersion, containerRuntimeVersion: o.containerRuntimeVersion
  });

  if (windows) labels['node.kubernetes.io/windows-build'] = info.kernelVersion.split('.').slice(0, 3).join('.');
  if (o.machineUid) {
    labels[MACHINE_UID_LABEL] = o.machineUid;
    labels['cattle.io/os'] = windows ? 'windows' : 'linux';
  }
  Object.assign(labels, o.extraLabels ?? {});

  const internal = o.internalAddress ?? o.address;
  const annotations: Labels = {
    'node.alpha.kubernetes.io/ttl':                           '0',
    'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
    [`${ runtime }.io/hostname`]:                               o.name,
    [`${ runtime }.io/internal-ip`]:                            internal,
  };

  if (o.address !== internal) annotations[`${ runtime }.io/external-ip`] = o.address;
  if (o.roles.etcd) {
    annotations[`etcd.${ runtime }.cattle.io/node-name`] = `${ o.name }-${ stableHex(`etcd:${ o.name }`, 8) }`;
    annotations[`etcd.${ runtime }.cattle.io/node-address`] = internal;
  }
  if (o.capiMachine) {
    annotations['cluster.x-k8s.io/cluster-name'] = o.capiMachine.clusterName;
    annotations['cluster.x-k8s.io/cluster-namespace'] = o.capiMachine.namespace;
    annotations['cluster.x-k8s.io/machine'] = o.capiMachine.name;
    annotations['cluster.x-k8s.io/owner-kind'] = 'Machine';
    annotations['cluster.x-k8s.io/owner-name'] = o.capiMachine.name;
  }

  const taints: NodeObject['spec']['taints'] = [];

  if (o.roles.etcd && !o.roles.controlPlane && !o.roles.worker) {
    taints.push({
      key: 'node-role.kubernetes.io/etcd', value: 'true', effect: 'NoExecute'
    });
  }
  if (o.roles.controlPlane && !o.roles.worker) {
    taints.push({
      key: 'node-role.kubernetes.io/control-plane', value: 'true', effect: 'NoSchedule'
    });
  }
  const readyStatus = o.ready?.status ?? 'True';

  if (readyStatus !== 'True') {
    taints.push({
      key: readyStatus === 'Unknown' ? 'node.kubernetes.io/unreachable' : 'node.kubernetes.io/not-ready', effect: 'NoSchedule', timeAdded: o.ready?.since ?? o.heartbeat
    });
  }
  if (o.unschedulable) {
    taints.push({
      // The node lifecycle controller stamps the taints it adds (SwapNodeControllerTaint): when the Node was cordoned.
      key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule', timeAdded: o.cordonedAt ?? o.heartbeat
    });
  }

  const cpu = o.cpu ?? (windows ? 4 : 4);
  const memoryKi = o.memoryKi ?? (windows ? 8388084 : 16374624);
  const podIndex = stableInt(`pod-cidr:${ o.name }`, 0, 250);
  const since = o.ready?.since ?? o.createdAt;
  const pressure = (type: string, reason: string, message: string): NodeCondition => (
    readyStatus === 'Unknown' ? {
      type, status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.', lastHeartbeatTime: since, lastTransitionTime: since
    } : {
      type, status: 'False', reason, message, lastHeartbeatTime: o.heartbeat, lastTransitionTime: o.createdAt
    }
  );
  const readyCondition: NodeCondition = readyStatus === 'True' ? {
    type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', lastHeartbeatTime: o.heartbeat, lastTransitionTime: o.ready?.since ?? o.createdAt
  } : {
    type:               'Ready',
    status:             readyStatus,
    reason:             o.ready?.reason ?? (readyStatus === 'Unknown' ? 'NodeStatusUnknown' : 'KubeletNotReady'),
    message:            o.ready?.message ?? (readyStatus === 'Unknown' ? 'Kubelet stopped posting node status.' : 'container runtime is down'),
    lastHeartbeatTime:  readyStatus === 'Unknown' ? since : o.heartbeat,
    lastTransitionTime: since,
  };

  const node: NodeObject = {
    apiVersion: 'v1',
    kind:       'Node',
    metadata:   meta('Node', {
      name: o.name, createdAt: o.createdAt, labels, annotations
    }),
    spec:       {
      podCIDR:  `10.42.${ podIndex }.0/24`,
      podCIDRs: [`10.42.${ podIndex }.0/24`],
    },
    status: {
      addresses:   [{ type: 'InternalIP', address: internal }, ...(o.address !== internal ? [{ type: 'ExternalIP' as const, address: o.address }] : []), { type: 'Hostname', address: o.name }],
      allocatable: {
        cpu: String(cpu), 'ephemeral-storage': '99833802265', memory: `${ memoryKi }Ki`, pods: '110'
      },
      capacity:    {
        cpu: String(cpu), 'ephemeral-storage': '102626232Ki', memory: `${ memoryKi }Ki`, pods: '110'
      },
      conditions:  windows ? [readyCondition] : [
        pressure('MemoryPressure', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
        pressure('DiskPressure', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
        pressure('PIDPressure', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
        readyCondition,
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      nodeInfo:        info,
    },
  };

  if (o.providerID) node.spec.providerID = o.providerID;
  if (taints.length) node.spec.taints = taints;
  if (o.unschedulable) node.spec.unschedulable = true;
  if (windows) {
    node.status.allocatable['ephemeral-storage'] = '84297749500';
    node.status.capacity['ephemeral-storage'] = '83334144Ki';
  }

  return node;
}

/**
 * The Lease the Node's kubelet keeps in kube-node-lease (pkg/kubelet/nodelease), as the Node's state says it is
 * renewed: `renewedAt` where given; else the last time the kubelet was heard where Kubernetes marked the Node
 * Unknown or its status is overdue (nothing reaches the cluster from it); else seconds before `now` (the kubelet
 * renews it every 10 s). None for a Node without a Ready condition.
 */
export function nodeLease(node: NodeObject, now: string, renewedAt?: string): KubeLease | null {
  const ready = node.status.conditions.find((c) => c.type === 'Ready');

  if (!ready) {
    return null;
  }
  const name = node.metadata.name;
  const beat = Date.parse(ready.lastHeartbeatTime ?? ready.lastTransitionTime ?? '');
  const nowMs = Date.parse(now);
  // Unknown, or a status older than a running kubelet leaves it: as the tab judges it (engine/leases.ts).
  const silent = ready.status === 'Unknown' || statusOverdue(node, nowMs);
  const renewed = renewedAt ? Date.parse(renewedAt) : (silent ? (Number.isNaN(beat) ? Date.parse(node.metadata.creationTimestamp) : beat) : nowMs - 1000 * stableInt(`lease:${ name }`, 1, 9));

  // Renewed within the second its Node's heartbeat was stamped in (that one is whole seconds), at a microsecond of its own.
  const micros = stableInt(`lease-us:${ name }`, 0, 999999);
  const renewTime = microTime(Math.floor(renewed / 1000) * 1000 + Math.floor(micros / 1000), micros % 1000);

  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind:       'Lease',
    metadata:   meta('Lease', {
      name,
      namespace:       NODE_LEASE_NAMESPACE,
      createdAt:       node.metadata.creationTimestamp,
      ownerReferences: [{
        apiVersion: 'v1', kind: 'Node', name, uid: node.metadata.uid
      }],
    }),
    spec: {
      holderIdentity: name, leaseDurationSeconds: DEFAULT_LEASE_DURATION_S, renewTime
    },
  };
}

export interface KubeLease extends KubeObject {
  apiVersion: 'coordination.k8s.io/v1';
  kind: 'Lease';
  spec: { holderIdentity: string; leaseDurationSeconds: number; renewTime: string };
}
