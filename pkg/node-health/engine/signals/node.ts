/**
 * What the kubelet and node-problem-detector write on a Node, and the taints Kubernetes controllers, cloud
 * providers and the cluster autoscaler put on it. Sources: kubelet `pkg/kubelet/nodestatus/setters.go`
 * (conditions and their reasons), node-problem-detector `config/*.json` (the default monitors' permanent
 * conditions), `k8s.io/api/core/v1` well-known taints, cloud-provider and cluster-autoscaler taints.
 */
import type { SignalEntry, SignalTable } from './table';

/** A Node condition entry: the condition type and the status that is bad. */
export interface NodeConditionSignal extends SignalEntry {
  conditionType: string;
  /** A real reason and message the writer uses, for scenarios */
  example: { reason: string; message: string };
}

export interface TaintSignal extends SignalEntry {
  taintKey: string;
  example: { effect: 'NoSchedule' | 'NoExecute' | 'PreferNoSchedule'; value?: string };
}

const KUBELET = 'kubelet pkg/kubelet/nodestatus/setters.go';
const NPD = 'node-problem-detector config/';

function condition(id: string, conditionType: string, severity: SignalEntry['severity'], source: string, example: NodeConditionSignal['example'], fix: string[]): NodeConditionSignal {
  return {
    id, object: 'node', field: `status.conditions[${ conditionType }]`, when: 'True', severity, rule: 'node-condition', source, fix, conditionType, example
  };
}

export const NODE_CONDITION_SIGNALS: readonly NodeConditionSignal[] = [
  condition('memoryPressure', 'MemoryPressure', 'warning', KUBELET, { reason: 'KubeletHasInsufficientMemory', message: 'kubelet has insufficient memory available' }, ['describe', 'memory']),
  condition('diskPressure', 'DiskPressure', 'warning', KUBELET, { reason: 'KubeletHasDiskPressure', message: 'kubelet has disk pressure' }, ['describe', 'disk']),
  condition('pidPressure', 'PIDPressure', 'warning', KUBELET, { reason: 'KubeletHasInsufficientPID', message: 'kubelet has insufficient PID available' }, ['describe', 'pids']),
  condition('networkUnavailable', 'NetworkUnavailable', 'error', 'kubelet / CNI / cloud route controller', { reason: 'NoRouteCreated', message: 'RouteController failed to create a route' }, ['describe', 'network']),
  condition('kernelDeadlock', 'KernelDeadlock', 'error', `${ NPD }kernel-monitor.json`, { reason: 'DockerHung', message: 'kernel: INFO: task docker:20744 blocked for more than 120 seconds.' }, ['describe', 'kernelLog', 'reboot']),
  condition('readonlyFilesystem', 'ReadonlyFilesystem', 'error', `${ NPD }readonly-monitor.json`, { reason: 'FilesystemIsReadOnly', message: 'Remounting filesystem read-only' }, ['describe', 'kernelLog', 'filesystem']),
  condition('xfsShutdown', 'XfsShutdown', 'error', `${ NPD }kernel-monitor.json`, { reason: 'XfsHasShutdown', message: 'XFS (sda1): Corruption of in-memory data detected. Shutting down filesystem' }, ['describe', 'kernelLog', 'filesystem']),
  condition('hardwareErrorFatal', 'CperHardwareErrorFatal', 'error', `${ NPD }kernel-monitor.json`, { reason: 'CperHardwareErrorFatal', message: '[Hardware Error]: event severity: fatal' }, ['describe', 'hardware']),
  condition('containerRuntimeUnhealthy', 'ContainerRuntimeUnhealthy', 'error', `${ NPD }health-checker-containerd.json`, { reason: 'ContainerdUnhealthy', message: 'containerd:containerd on the node is unhealthy' }, ['describe', 'runtime']),
  condition('kubeletUnhealthy', 'KubeletUnhealthy', 'error', `${ NPD }health-checker-kubelet.json`, { reason: 'KubeletUnhealthy', message: 'kubelet:kubelet on the node is unhealthy' }, ['describe', 'kubelet']),
  condition('kubeProxyUnhealthy', 'KubeProxyUnhealthy', 'error', `${ NPD }windows-health-checker-kubeproxy.json`, { reason: 'KubeProxyUnhealthy', message: 'kube-proxy:kube-proxy on the node is unhealthy' }, ['describe', 'kubelet']),
  condition('corruptDockerOverlay2', 'CorruptDockerOverlay2', 'warning', `${ NPD }docker-monitor.json`, { reason: 'CorruptDockerOverlay2', message: 'returned error: readlink /var/lib/docker/overlay2/l/ABC: invalid argument.' }, ['describe', 'runtime']),
  condition('frequentKubeletRestart', 'FrequentKubeletRestart', 'warning', `${ NPD }systemd-monitor-counter.json`, { reason: 'FrequentKubeletRestart', message: 'Found 5 matching logs, which meets the threshold of 5' }, ['describe', 'kubelet']),
  condition('frequentContainerdRestart', 'FrequentContainerdRestart', 'warning', `${ NPD }systemd-monitor-counter.json`, { reason: 'FrequentContainerdRestart', message: 'Found 5 matching logs, which meets the threshold of 5' }, ['describe', 'runtime']),
  condition('frequentDockerRestart', 'FrequentDockerRestart', 'warning', `${ NPD }systemd-monitor-counter.json`, { reason: 'FrequentDockerRestart', message: 'Found 5 matching logs, which meets the threshold of 5' }, ['describe', 'runtime']),
  condition('frequentUnregisterNetDevice', 'FrequentUnregisterNetDevice', 'warning', `${ NPD }kernel-monitor-counter.json`, { reason: 'UnregisterNetDevice', message: 'unregister_netdevice: waiting for eth0 to become free. Usage count = 1' }, ['describe', 'kernelLog', 'reboot']),
  condition('diskBadBlock', 'DiskBadBlock', 'warning', `${ NPD }disk-log-message-filelog.json`, { reason: 'DiskBadBlock', message: '150 Currently unreadable (pending) sectors' }, ['describe', 'hardware']),
  condition('ntpProblem', 'NTPProblem', 'warning', `${ NPD }custom-plugin-monitor.json`, { reason: 'NTPIsDown', message: 'NTP service is not running' }, ['describe', 'ntp']),
];

/**
 * A condition nobody listed whose name says a problem, True: never healthy. The names follow the conventions
 * of the writers above (…Pressure, …Unavailable, …Problem, …Deadlock, …Unhealthy, Frequent…).
 */
export const PROBLEM_CONDITION_NAME = /(Pressure|Unavailable|Problem|Deadlock|Unhealthy|Failure|Error)$|^Frequent|^Corrupt/;

export const OTHER_NODE_CONDITION: SignalEntry = {
  id:       'otherProblem',
  object:   'node',
  field:    'status.conditions[…]',
  when:     'True, for a type named …Pressure, …Unavailable, …Problem, …Deadlock, …Unhealthy, Frequent…',
  severity: 'warning',
  rule:     'node-condition',
  source:   'any node-problem-detector custom plugin or other writer',
  fix:      ['describe', 'writer'],
};

function taint(id: string, taintKey: string, severity: SignalEntry['severity'], source: string, example: TaintSignal['example'], fix: string[]): TaintSignal {
  return {
    id, object: 'node', field: `spec.taints[${ taintKey }]`, when: 'present', severity, rule: 'node-taint', source, fix, taintKey, example
  };
}

const K8S_TAINTS = 'k8s.io/api/core/v1 well_known_taints.go';

/**
 * Taints the record's other findings do not explain. The node lifecycle controller (kube-controller-manager)
 * taints a Node from its conditions: not-ready and unreachable from Ready, the pressure taints from the kubelet's
 * pressure conditions; a condition the condition table or `node-not-ready` reads makes the taint only evidence.
 */
export const TAINT_SIGNALS: readonly TaintSignal[] = [
  taint('unreachable', 'node.kubernetes.io/unreachable', 'error', `${ K8S_TAINTS } (node lifecycle controller)`, { effect: 'NoExecute' }, ['describe', 'kubelet']),
  taint('notReady', 'node.kubernetes.io/not-ready', 'error', `${ K8S_TAINTS } (node lifecycle controller)`, { effect: 'NoExecute' }, ['describe', 'kubelet']),
  taint('outOfService', 'node.kubernetes.io/out-of-service', 'error', `${ K8S_TAINTS } (non-graceful node shutdown)`, { effect: 'NoExecute', value: 'nodeshutdown' }, ['describe', 'outOfService']),
  taint('memoryPressure', 'node.kubernetes.io/memory-pressure', 'warning', `${ K8S_TAINTS } (node lifecycle controller, from the kubelet's condition)`, { effect: 'NoSchedule' }, ['describe', 'pressure']),
  taint('diskPressure', 'node.kubernetes.io/disk-pressure', 'warning', `${ K8S_TAINTS } (node lifecycle controller, from the kubelet's condition)`, { effect: 'NoSchedule' }, ['describe', 'pressure']),
  taint('pidPressure', 'node.kubernetes.io/pid-pressure', 'warning', `${ K8S_TAINTS } (node lifecycle controller, from the kubelet's condition)`, { effect: 'NoSchedule' }, ['describe', 'pressure']),
  taint('networkUnavailable', 'node.kubernetes.io/network-unavailable', 'error', `${ K8S_TAINTS } (node lifecycle controller, from the kubelet's condition)`, { effect: 'NoSchedule' }, ['describe', 'pressure']),
  taint('cloudShutdown', 'node.cloudprovider.kubernetes.io/shutdown', 'error', 'k8s.io/cloud-provider node lifecycle controller', { effect: 'NoSchedule' }, ['describe', 'cloudShutdown']),
  taint('autoscalerDeleting', 'ToBeDeletedByClusterAutoscaler', 'warning', 'cluster-autoscaler utils/taints', { effect: 'NoSchedule', value: '1733300000' }, ['describe', 'autoscaler']),
];

/** Which condition explains a taint: a taint whose condition is already a finding is only its evidence. */
export const TAINT_CONDITIONS: Readonly<Record<string, string>> = {
  'node.kubernetes.io/not-ready':           'Ready',
  'node.kubernetes.io/unreachable':         'Ready',
  'node.kubernetes.io/memory-pressure':     'MemoryPressure',
  'node.kubernetes.io/disk-pressure':       'DiskPressure',
  'node.kubernetes.io/pid-pressure':        'PIDPressure',
  'node.kubernetes.io/network-unavailable': 'NetworkUnavailable',
};

export const NODE_CONDITION_TABLE: SignalTable = {
  id: 'nodeConditions', title: 'Node conditions (kubelet, node-problem-detector)', entries: [...NODE_CONDITION_SIGNALS, OTHER_NODE_CONDITION]
};

export const TAINT_TABLE: SignalTable = {
  id: 'taints', title: 'Node taints (Kubernetes, cloud providers, cluster autoscaler)', entries: TAINT_SIGNALS
};
