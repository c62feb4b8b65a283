// Steve-shaped objects for the action tests, judged by the real engine so that the records (findings,
// actions, evidence) are the ones the tab would pass to the dialogs.
import { diagnose } from '@pkg/node-health/engine';
import type { KubeObject, NodeRecord } from '@pkg/node-health/engine';

export const NOW = '2024-05-02T12:00:00Z';
export const NOW_MS = Date.parse(NOW);
export const NS = 'fleet-default';
export const MACHINE = 'custom-2d74d4c9a104';
export const ETCD_HOOK = 'pre-terminate.delete.hook.machine.cluster.x-k8s.io/rke-bootstrap-cleanup';

const BASE = 'https://rancher.example.com';

export interface StuckOptions {
  etcd?: boolean;
  /** Steve sets links.update only for users allowed to update */
  canUpdateMachine?: boolean;
  canUpdateBootstrap?: boolean;
  deletingSince?: string | null;
  finalizers?: string[];
  resourceVersion?: string;
  bootstrapAnnotations?: Record<string, string> | null;
  withBootstrap?: boolean;
  /** For an etcd machine: how many other etcd members, each with its Ready Node (default 2, so quorum is kept) */
  etcdPeers?: number;
  /** The machine's own Node node-1 is there, Ready, its kubelet reporting at NOW: the host is alive */
  liveNode?: boolean;
}

/** node-1, the fixture machine's own Node, Ready and reporting. */
function liveNode(): KubeObject {
  return {
    id:         'node-1',
    type:       'node',
    apiVersion: 'v1',
    kind:       'Node',
    metadata:   {
      name: 'node-1', uid: '5f0e8a52-1111-4c4c-9d9d-0000000000aa', creationTimestamp: '2024-05-01T00:00:00Z', labels: { 'rke.cattle.io/machine': '5f0e8a52-1111-4c4c-9d9d-000000000001' }
    },
    status: {
      conditions: [{
        type: 'Ready', status: 'True', lastHeartbeatTime: NOW, lastTransitionTime: '2024-05-01T00:00:00Z'
      }]
    },
  };
}

/** Another etcd member of the same cluster, running, with a Ready Node: what keeps quorum without the fixture machine. */
function etcdPeer(i: number): KubeObject[] {
  const name = `prod-etcd-${ i }`;
  const uid = `5f0e8a52-2222-4c4c-9d9d-00000000000${ i }`;

  return [{
    id:         `${ NS }/${ name }`,
    type:       'cluster.x-k8s.io.machine',
    links:      machineLinks(name, true),
    apiVersion: 'cluster.x-k8s.io/v1beta1',
    kind:       'Machine',
    metadata:   {
      name,
      namespace:         NS,
      uid,
      resourceVersion:   '100',
      creationTimestamp: '2024-05-01T00:00:00Z',
      labels:            {
        'cluster.x-k8s.io/cluster-name': 'prod', 'rke.cattle.io/cluster-name': 'prod', 'rke.cattle.io/etcd-role': 'true', 'cattle.io/os': 'linux'
      }
    },
    spec:   { clusterName: 'prod' },
    status: { phase: 'Running', nodeRef: { kind: 'Node', name } },
  }, {
    id:         name,
    type:       'node',
    apiVersion: 'v1',
    kind:       'Node',
    metadata:   {
      name, uid: `${ uid }-node`, creationTimestamp: '2024-05-01T00:00:00Z', labels: { 'node-role.kubernetes.io/etcd': 'true', 'rke.cattle.io/machine': uid }
    },
    status: {
      conditions: [{
        type: 'Ready', status: 'True', lastHeartbeatTime: NOW, lastTransitionTime: '2024-05-01T00:00:00Z'
      }]
    },
  }];
}

export function machineLinks(name: string, update: boolean): Record<string, string> {
  const links: Record<string, string> = {
    self: `${ BASE }/v1/cluster.x-k8s.io.machines/${ NS }/${ name }`,
    view: `${ BASE }/apis/cluster.x-k8s.io/v1beta1/namespaces/${ NS }/machines/${ name }`,
  };

  if (update) {
    links.update = links.self;
    links.remove = links.self;
  }

  return links;
}

export function steveMachine(options: StuckOptions = {}): KubeObject {
  const etcd = options.etcd ?? false;
  const annotations: Record<string, string> = etcd ? { [ETCD_HOOK]: '' } : {};
  const metadata: KubeObject = {
    name:              MACHINE,
    namespace:         NS,
    uid:               '5f0e8a52-1111-4c4c-9d9d-000000000001',
    resourceVersion:   options.resourceVersion ?? '4711',
    creationTimestamp: '2024-05-01T00:00:00Z',
    finalizers:        options.finalizers ?? ['machine.cluster.x-k8s.io'],
    labels:            {
      'cluster.x-k8s.io/cluster-name':    'prod',
      'rke.cattle.io/cluster-name':       'prod',
      'rke.cattle.io/etcd-role':          etcd ? 'true' : 'false',
      'rke.cattle.io/control-plane-role': etcd ? 'true' : 'false',
      'rke.cattle.io/worker-role':        'true',
      'cattle.io/os':                     'linux',
    },
    annotations,
  };

  if (options.deletingSince !== null) {
    metadata.deletionTimestamp = options.deletingSince ?? '2024-05-02T10:00:00Z';
  }

  return {
    id:         `${ NS }/${ MACHINE }`,
    type:       'cluster.x-k8s.io.machine',
    links:      machineLinks(MACHINE, options.canUpdateMachine ?? true),
    apiVersion: 'cluster.x-k8s.io/v1beta1',
    kind:       'Machine',
    metadata,
    spec:       {
      clusterName:       'prod',
      bootstrap:         {
        configRef: {
          apiVersion: 'rke.cattle.io/v1', kind: 'RKEBootstrap', name: MACHINE, namespace: NS
        }
      },
      infrastructureRef: {
        apiVersion: 'rke.cattle.io/v1', kind: 'CustomMachine', name: MACHINE, namespace: NS
      },
    },
    status: {
      phase:      metadata.deletionTimestamp ? 'Deleting' : 'Running',
      nodeRef:    { kind: 'Node', name: 'node-1' },
      conditions: etcd ? [{
        type: 'PreTerminateDeleteHookSucceeded', status: 'False', reason: 'WaitingExternalHook', lastTransitionTime: '2024-05-02T10:00:01Z'
      }] : [],
    },
  };
}

export function steveBootstrap(options: StuckOptions = {}): KubeObject {
  const metadata: KubeObject = {
    name: MACHINE, namespace: NS, resourceVersion: '815'
  };

  if (options.bootstrapAnnotations !== null) {
    metadata.annotations = options.bootstrapAnnotations ?? { 'rke.cattle.io/machine-name': MACHINE };
  }
  const links: Record<string, string> = {
    self: `${ BASE }/v1/rke.cattle.io.rkebootstraps/${ NS }/${ MACHINE }`,
    view: `${ BASE }/apis/rke.cattle.io/v1/namespaces/${ NS }/rkebootstraps/${ MACHINE }`,
  };

  if (options.canUpdateBootstrap ?? true) {
    links.update = links.self;
  }

  return {
    id: `${ NS }/${ MACHINE }`, type: 'rke.cattle.io.rkebootstrap', apiVersion: 'rke.cattle.io/v1', kind: 'RKEBootstrap', links, metadata
  };
}

/** The machines' provisioning cluster, its agent connected: an action's preflight reads the connection from it. */
function provisioningCluster(): KubeObject {
  return {
    id:         `${ NS }/prod`,
    type:       'provisioning.cattle.io.cluster',
    apiVersion: 'provisioning.cattle.io/v1',
    kind:       'Cluster',
    metadata:   {
      name: 'prod', namespace: NS, uid: '5f0e8a52-3333-4c4c-9d9d-000000000001', creationTimestamp: '2024-05-01T00:00:00Z'
    },
    spec:   { kubernetesVersion: 'v1.28.9+rke2r1', rkeConfig: {} },
    status: {
      clusterName: 'c-m-prod',
      conditions:  ['Ready', 'Connected', 'Provisioned', 'Updated'].map((type) => ({
        type, status: 'True', lastTransitionTime: '2024-05-01T00:00:00Z'
      })),
    },
  };
}

/** The record the engine makes of a machine stuck deleting (its Node is gone: none is loaded). */
export function stuckRecord(options: StuckOptions = {}): NodeRecord {
  const objects: KubeObject[] = [provisioningCluster(), steveMachine(options)];

  if (options.withBootstrap ?? true) {
    objects.push(steveBootstrap(options));
  }
  if (options.liveNode) {
    objects.push(liveNode());
  }
  if (options.etcd) {
    for (let i = 2; i < 2 + (options.etcdPeers ?? 2); i++) {
      objects.push(...etcdPeer(i));
    }
  }
  const report = diagnose(objects, { now: NOW, availability: { nodes: 'ok' } });
  const record = report.records.find((r) => r.machineName === MACHINE);

  if (!record) {
    throw new Error('the engine made no record of the fixture machine');
  }

  return record;
}
