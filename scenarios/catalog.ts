/**
 * Named, deterministic scenarios shared by tests, benchmarks and the embedded Rancher API.
 * Objects are kubectl-shaped; wrap them with `toSteve` (./steve) for /v1 responses.
 */

import {
  buildCluster, BuiltCluster, BuiltNode, CAPI_V1BETA1, CAPI_V1BETA2, ClusterBuild, customMachineName, DEFAULT_SECRET_MARKER, LooseNodeSpec, machineNameFor,
  event, KubeLease, machinesToV1beta2, nodeDriverMachineName, nodeLease, NodeSpec, provisioningJob, recopyNode, sortCapiConditions, summarizeReady,
} from './builders';
import { sha256Hex } from './encoding';
import { NODE_CONDITION_SIGNALS, OTHER_NODE_CONDITION, TAINT_SIGNALS } from '../pkg/node-health/engine/signals/node';
import { DELETION_STAGES, MACHINE_ANNOTATION_SIGNALS, MACHINE_CONDITION_SIGNALS } from '../pkg/node-health/engine/signals/machine';
import { createRng, stableHex } from './random';
import { ago } from './time';
import type { Duration } from './time';
import {
  CapiCondition, ClusterFailureFamily, FailureFamily, KubeObject, NodeObject, RancherCondition, Scenario
} from './types';

export interface ScenarioOptions {
  /** marker embedded in every sensitive value (default SECRET-VALUE) */
  secretMarker?: string;
  /** overrides the scenario's clock; every timestamp moves with it */
  now?: string;
  /** Rancher server URL used in registration commands */
  serverUrl?: string;
}

export const FAILURE_FAMILIES: readonly FailureFamily[] = [
  'agent-never-checked-in', 'plan-not-applied', 'plan-apply-failed', 'probes-failing', 'stuck-deleting',
  'etcd-removal-hook-blocked', 'waiting-for-node-ref', 'infrastructure-missing', 'node-name-mismatch', 'orphan-node',
  'node-missing', 'node-not-ready', 'plan-secret-missing', 'machine-missing', 'blocking-cluster-operation',
  'windows-version-unsupported', 'windows-memory-low', 'node-condition', 'node-taint', 'machine-signal', 'related-record',
];

/** A 64-hex agent id whose custom machine name is `custom-<prefix>`. */
function agentId(prefix12: string): string {
  return prefix12 + sha256Hex(`agent-id:${ prefix12 }`).slice(0, 52);
}

/**
 * A cluster's objects with the Lease of each Node's kubelet, as its state says it is renewed (nodeLease), where the
 * scenario did not give one of its own.
 */
function withLeases(objects: KubeObject[], now: string): KubeObject[] {
  const given = new Set(objects.filter((o) => o.kind === 'Lease').map((o) => o.metadata.name));
  const leases = objects
    .filter((o): o is NodeObject => o.kind === 'Node' && o.apiVersion === 'v1' && !given.has(o.metadata.name))
    .map((n) => nodeLease(n, now))
    .filter((l): l is KubeLease => !!l);

  return [...objects, ...leases];
}

function scenarioFrom(
  meta: { name: string; title: string; description: string; now: string; secretMarker: string },
  built: BuiltCluster[],
  expected: Record<string, FailureFamily[]>,
  expectedClusters?: Record<string, ClusterFailureFamily[]>,
): Scenario {
  const downstream: Record<string, KubeObject[]> = {};

  for (const b of built) downstream[b.cluster.mgmtId] = withLeases(b.downstream, meta.now);

  return {
    ...meta,
    clusters: built.map((b) => b.cluster),
    objects:  built.flatMap((b) => b.local),
    downstream,
    expected,
    ...(expectedClusters ? { expectedClusters } : {}),
  };
}

function clusterBuild(base: Omit<ClusterBuild, 'now' | 'secretMarker' | 'serverUrl'>, now: string, o: ScenarioOptions): ClusterBuild {
  return {
    ...base, now, secretMarker: o.secretMarker ?? DEFAULT_SECRET_MARKER, serverUrl: o.serverUrl
  };
}

/* ------------------------------------------------------------------------------------------------ */

export const GHOST_MACHINE = 'custom-2d74d4c9a104';

/**
 * Seed case 1: a k3s custom cluster stuck "Updating". One etcd machine's agent lost its credentials,
 * never applied its plan, blocks certificate rotation, and its deletion hangs on the finalizer. The
 * host it was meant to be still runs as Node dev-k8s-node01, attached to a machine that is gone.
 */
export function ghostEtcd(o: ScenarioOptions = {}): Scenario {
  const now = o.now ?? '2026-01-15T08:10:00Z';
  const master = (host: string, id: string, address: string): NodeSpec => ({
    hostname: host, machineId: agentId(id), roles: { etcd: true, controlPlane: true }, address, createdAgo: '412d', planUpdatedAgo: '35d', agentCredentials: true,
  });
  const workerIds = [
    '3524fa7f0d71', '3b154219b4e1', '40e383a8d1da', '4c1f0a9e73b2', '5a92d7c4e018', '61b0e5f3c2a7', '6fd48a1b9e05',
    '7c2e91d06f34', '8a07b3f5d1c9', '93e6c0a47b18', 'a4d15f82c7e0', 'b87e2c09d4f1', 'f0c3a6d9b825',
  ];
  const workers: NodeSpec[] = workerIds.map((id, i) => ({
    hostname:         `dev-k8s-node${ String(i + 2).padStart(2, '0') }`,
    machineId:        agentId(id),
    roles:            { worker: true },
    address:          `10.20.1.${ 22 + i }`,
    createdAgo:       `${ 400 - i * 7 }d`,
    planUpdatedAgo:   '35d',
    agentCredentials: true,
  }));
  const ghost: NodeSpec = {
    hostname:         'dev-k8s-node01',
    machineId:        agentId('2d74d4c9a104'),
    roles:            { etcd: true },
    address:          '10.20.1.21',
    createdAgo:       '97d',
    agent:            'never-checked-in',
    node:             'never-registered',
    deleting:         { ago: '2d', blockedBy: 'finalizer' },
    agentCredentials: true,
  };
  const orphan: LooseNodeSpec = {
    name:          'dev-k8s-node01',
    roles:         { worker: true },
    address:       '10.20.1.21',
    createdAgo:    '405d',
    formerMachine: { name: 'custom-f489526f114a' },
  };
  const built = buildCluster(clusterBuild({
    name:              'dev-k3s',
    mgmtId:            'c-m-4qj7x2vd',
    kind:              'custom',
    kubernetesVersion: 'v1.27.10+k3s2',
    createdAgo:        '412d',
    nodes:             [
      master('dev-k8s-master01', '898d97f03763', '10.20.1.11'),
      master('dev-k8s-master02', 'a1c55e0f2b37', '10.20.1.12'),
      master('dev-k8s-master03', 'c0d4e9b81f62', '10.20.1.13'),
      ghost,
      ...workers,
    ],
    looseNodes:         [orphan],
    rotateCertificates: { generation: 3 },
    waitingSince:       '2d',
  }, now, o));

  return scenarioFrom({
    name:        'ghost-etcd',
    title:       'Ghost etcd machine blocks the cluster',
    description: 'k3s custom cluster of 16 machines. Etcd machine custom-2d74d4c9a104 never applied its plan (its agent\'s ' +
      'credentials are invalid), holds the whole cluster back, and hangs in deletion on its finalizer. Node ' +
      'dev-k8s-node01 still points at machine custom-f489526f114a, which no longer exists.',
    now,
    secretMarker: o.secretMarker ?? DEFAULT_SECRET_MARKER,
  }, [built], {
    [GHOST_MACHINE]:  ['agent-never-checked-in', 'blocking-cluster-operation', 'stuck-deleting'],
    'dev-k8s-node01': ['orphan-node'],
  });
}

/* ------------------------------------------------------------------------------------------------ */

type PooledSpec = Omit<NodeSpec, 'hostname' | 'pool' | 'machineName'>;

/** A node-driver pool's host: named by the machine Rancher creates for it, as node drivers name their VMs. */
function pooledNode(cluster: string, pool: string, key: string, rest: PooledSpec): NodeSpec {
  const machineName = nodeDriverMachineName(cluster, pool, key);

  return {
    ...rest, hostname: machineName, machineName, pool
  };
}

export const WINDOWS_VM_GONE_MACHINE = nodeDriverMachineName('vs-win', 'win', 'win-1');
export const WINDOWS_CASE_MACHINE = nodeDriverMachineName('vs-win', 'win', 'win-2');

/**
 * Seed case 2: a vSphere cluster with Linux servers and two Windows workers stuck "Waiting for Node
 * Ref": one VM vanished from vCenter ("no VM found"), the other registered as win-worker-01 while
 * the machine expects WIN-WORKER-01.
 */
export function windowsNodeRef(o: ScenarioOptions = {}): Scenario {
  const now = o.now ?? '2026-02-03T06:30:00Z';
  const pooled = (pool: string, key: string, rest: PooledSpec): NodeSpec => pooledNode('vs-win', pool, key, rest);
  const nodes: NodeSpec[] = [
    pooled('cp', 'cp-1', {
      roles: { etcd: true, controlPlane: true }, address: '172.16.40.11', createdAgo: '60d'
    }),
    pooled('cp', 'cp-2', {
      roles: { etcd: true, controlPlane: true }, address: '172.16.40.12', createdAgo: '60d'
    }),
    pooled('cp', 'cp-3', {
      roles: { etcd: true, controlPlane: true }, address: '172.16.40.13', createdAgo: '60d'
    }),
    pooled('lnx', 'lnx-1', {
      roles: { worker: true }, address: '172.16.40.21', createdAgo: '60d'
    }),
    pooled('lnx', 'lnx-2', {
      roles: { worker: true }, address: '172.16.40.22', createdAgo: '60d'
    }),
    {
      hostname:    WINDOWS_VM_GONE_MACHINE,
      machineName: WINDOWS_VM_GONE_MACHINE,
      pool:        'win',
      roles:       { worker: true },
      os:          'windows',
      address:     '172.16.40.31',
      createdAgo:  '5h',
      infra:       'vm-missing',
      agent:       'never-checked-in',
      node:        'never-registered',
    },
    {
      hostname:    'WIN-WORKER-01',
      machineName: WINDOWS_CASE_MACHINE,
      pool:        'win',
      roles:       { worker: true },
      os:          'windows',
      osImage:     'Windows Server 2019 Datacenter',
      address:     '172.16.40.32',
      createdAgo:  '4h',
      node:        'unlinked',
    },
  ];
  const built = buildCluster(clusterBuild({
    name:              'vs-win',
    mgmtId:            'c-m-w8k2p5tz',
    kind:              'node-driver',
    kubernetesVersion: 'v1.28.10+rke2r1',
    createdAgo:        '60d',
    planStateKeys:     true,
    nodes,
    waitingSince:      '5h',
    machinePools:      [
      {
        name: 'cp', quantity: 3, roles: { etcd: true, controlPlane: true }
      },
      {
        name: 'lnx', quantity: 2, roles: { worker: true }
      },
      {
        name: 'win', quantity: 2, roles: { worker: true }, os: 'windows'
      },
    ],
  }, now, o));

  return scenarioFrom({
    name:        'windows-node-ref',
    title:       'Windows workers waiting for node ref',
    description: `vSphere RKE2 cluster. Windows worker ${ WINDOWS_VM_GONE_MACHINE } lost its VM ("no VM found") and never ` +
      `checked in; Windows worker ${ WINDOWS_CASE_MACHINE } expects host WIN-WORKER-01 but kubelet registered ` +
      `win-worker-01 without the machine label.`,
    now,
    secretMarker: o.secretMarker ?? DEFAULT_SECRET_MARKER,
  }, [built], {
    [WINDOWS_VM_GONE_MACHINE]: ['infrastructure-missing', 'waiting-for-node-ref', 'blocking-cluster-operation'],
    [WINDOWS_CASE_MACHINE]:    ['node-name-mismatch', 'waiting-for-node-ref'],
    // The Node that worker's host registered as: the same host, and the machine's findings name it.
    'win-worker-01':           ['related-record'],
  });
}

/* ------------------------------------------------------------------------------------------------ */

export const NODE_NOT_FOUND_MACHINE = 'custom-6a3d0f9e2b58';

/** A Node left behind by a deleted machine, and a machine whose Node was deleted (NodeNotFound). */
export function orphanNode(o: ScenarioOptions = {}): Scenario {
  const now = o.now ?? '2026-03-10T12:00:00Z';
  const server = (n: number): NodeSpec => ({
    hostname: `edge-server-0${ n }`,
    roles:    {
      etcd: true, controlPlane: true, worker: true
    },
    address:    `192.168.50.1${ n }`,
    createdAgo: '200d',
  });
  const built = buildCluster(clusterBuild({
    name:              'edge-rke2',
    mgmtId:            'c-m-r5n8d3kx',
    kind:              'custom',
    kubernetesVersion: 'v1.29.4+rke2r1',
    createdAgo:        '200d',
    nodes:             [
      server(1), server(2), server(3),
      {
        hostname: 'edge-worker-01', roles: { worker: true }, address: '192.168.50.21', createdAgo: '190d'
      },
      {
        hostname: 'edge-worker-02', roles: { worker: true }, address: '192.168.50.22', createdAgo: '190d'
      },
      {
        hostname: 'edge-worker-04', machineId: agentId('6a3d0f9e2b58'), roles: { worker: true }, address: '192.168.50.24', createdAgo: '150d', node: 'deleted'
      },
    ],
    looseNodes: [{
      name:          'edge-worker-03',
      roles:         { worker: true },
      address:       '192.168.50.23',
      createdAgo:    '170d',
      formerMachine: { name: 'custom-5f1e0b7a9c2d' },
    }],
  }, now, o));

  return scenarioFrom({
    name:        'orphan-node',
    title:       'Orphan node and NodeNotFound machine',
    description: 'RKE2 custom cluster. Node edge-worker-03 still carries machine custom-5f1e0b7a9c2d, which was deleted; ' +
      `machine ${ NODE_NOT_FOUND_MACHINE } points at Node edge-worker-04, which was deleted.`,
    now,
    secretMarker: o.secretMarker ?? DEFAULT_SECRET_MARKER,
  }, [built], {
    [NODE_NOT_FOUND_MACHINE]: ['node-missing'],
    'edge-worker-03':         ['orphan-node'],
  });
}

/* ------------------------------------------------------------------------------------------------ */

export const LEAVING_ETCD_MACHINE = 'custom-3f8b2c6d1e90';

/** An etcd machine deleting for two hours, held by the pre-terminate hook while a node is still joined to it. */
export function etcdHook(o: ScenarioOptions = {}): Scenario {
  const now = o.now ?? '2026-04-22T09:15:00Z';
  const built = buildCluster(clusterBuild({
    name:              'prod-rke2',
    mgmtId:            'c-m-t2h6v9qc',
    kind:              'custom',
    kubernetesVersion: 'v1.30.2+rke2r1',
    createdAgo:        '300d',
    nodes:             [
      {
        hostname: 'prod-etcd-01', roles: { etcd: true }, address: '10.40.0.11', createdAgo: '300d'
      },
      {
        hostname: 'prod-etcd-02', roles: { etcd: true }, address: '10.40.0.12', createdAgo: '300d'
      },
      {
        hostname:   'prod-etcd-03',
        machineId:  agentId('3f8b2c6d1e90'),
        roles:      { etcd: true },
        address:    '10.40.0.13',
        createdAgo: '300d',
        deleting:   { ago: '2h', blockedBy: 'etcd-hook' },
      },
      {
        hostname: 'prod-etcd-04', roles: { etcd: true }, address: '10.40.0.14', createdAgo: '2h'
      },
      {
        hostname: 'prod-cp-01', roles: { controlPlane: true }, address: '10.40.0.21', createdAgo: '300d', joinedTo: 'prod-etcd-03'
      },
      {
        hostname: 'prod-cp-02', roles: { controlPlane: true }, address: '10.40.0.22', createdAgo: '300d'
      },
      {
        hostname: 'prod-worker-01', roles: { worker: true }, address: '10.40.1.11', createdAgo: '290d'
      },
      {
        hostname: 'prod-worker-02', roles: { worker: true }, address: '10.40.1.12', createdAgo: '290d'
      },
      {
        hostname: 'prod-worker-03', roles: { worker: true }, address: '10.40.1.13', createdAgo: '290d'
      },
    ],
  }, now, o));

  return scenarioFrom({
    name:        'etcd-hook',
    title:       'Etcd machine held by the pre-terminate hook',
    description: `Etcd machine ${ LEAVING_ETCD_MACHINE } (prod-etcd-03) has been deleting for 2 hours: ` +
      'PreTerminateDeleteHookSucceeded=False (WaitingExternalHook) while prod-cp-01 is still joined to it.',
    now,
    secretMarker: o.secretMarker ?? DEFAULT_SECRET_MARKER,
  }, [built], { [LEAVING_ETCD_MACHINE]: ['etcd-removal-hook-blocked', 'stuck-deleting'] });
}

/* ------------------------------------------------------------------------------------------------ */

/** Five healthy nodes: three etcd + control plane, two workers. */
export function healthy(o: ScenarioOptions = {}): Scenario {
  const now = o.now ?? '2026-05-01T10:00:00Z';
  const built = buildCluster(clusterBuild({
    name:              'demo-rke2',
    mgmtId:            'c-m-h3l7t9yb',
    kind:              'custom',
    kubernetesVersion: 'v1.30.4+rke2r1',
    createdAgo:        '45d',
    nodes:             [
      {
        hostname: 'demo-cp-01', roles: { etcd: true, controlPlane: true }, address: '10.0.0.11', createdAgo: '45d', agentCredentials: true
      },
      {
        hostname: 'demo-cp-02', roles: { etcd: true, controlPlane: true }, address: '10.0.0.12', createdAgo: '45d', agentCredentials: true
      },
      {
        hostname: 'demo-cp-03', roles: { etcd: true, controlPlane: true }, address: '10.0.0.13', createdAgo: '45d', agentCredentials: true
      },
      {
        hostname: 'demo-worker-01', roles: { worker: true }, address: '10.0.1.11', createdAgo: '44d', agentCredentials: true
      },
      {
        hostname: 'demo-worker-02', roles: { worker: true }, address: '10.0.1.12', createdAgo: '44d', agentCredentials: true
      },
    ],
  }, now, o));

  return scenarioFrom({
    name:         'healthy',
    title:        'Healthy cluster',
    description:  'RKE2 custom cluster with five healthy nodes (three etcd + control plane, two workers), all joined and in sync.',
    now,
    secretMarker: o.secretMarker ?? DEFAULT_SECRET_MARKER,
  }, [built], {});
}

/* ------------------------------------------------------------------------------------------------ */

/**
 * One machine (or node) per failure family, designed by hand: machine name or, for nodes without a
 * machine, Node name -> family. Rule tests check diagnoses against this map.
 */
export const EVERY_FAILURE_EXPECTED: Readonly<Record<string, FailureFamily>> = {
  'custom-1e0c8f3a5b21': 'agent-never-checked-in', // ef-wk-agent-gone
  'custom-2b7d4e9c1a32': 'plan-not-applied', // ef-wk-plan-pending
  'custom-3c9a1f7e2d43': 'plan-apply-failed', // ef-wk-plan-failed
  'custom-4d2e8b6f3c54': 'probes-failing', // ef-cp-probes
  'custom-5e3f9c7a4d65': 'stuck-deleting', // ef-wk-deleting
  'custom-6f4a0d8b5e76': 'etcd-removal-hook-blocked', // ef-etcd-leaving
  'custom-7a5b1e9c6f87': 'waiting-for-node-ref', // ef-wk-no-node
  'custom-8b6c2f0d7a98': 'infrastructure-missing', // ef-wk-infra-gone
  'custom-9c7d3a1e8b09': 'node-name-mismatch', // EF-WIN-CASE / ef-win-case
  // the Node that machine's host registered: the same host, named by the machine's finding
  'ef-win-case':         'related-record',
  'ef-orphan':           'orphan-node',
  'custom-b1f9c5d3a2e1': 'node-missing', // ef-wk-node-gone
  'custom-c2a0d6e4b3f2': 'node-not-ready', // ef-wk-notready
  'custom-d3b1e7f5c4a3': 'plan-secret-missing', // ef-wk-no-secret
  'ef-stale-record':     'machine-missing',
  'custom-e4c2f8a6d5b4': 'blocking-cluster-operation', // ef-etcd-stuck
  'custom-f5d3a9b7e6c5': 'windows-version-unsupported', // ef-win2016
  'custom-06e4b0c8f7d6': 'windows-memory-low', // ef-win-small
  'custom-17f5c1d9a8e7': 'node-not-ready', // ef-wk-xss: HTML in the Ready message
  'custom-28a6d2e0b9f8': 'node-condition', // ef-wk-memory
  'custom-39b7e3f1ca09': 'node-taint', // ef-wk-out-of-service
  'custom-4ac8f402db1a': 'machine-signal', // ef-wk-mhc
};

export const XSS_PAYLOAD = '<img src=x onerror=alert(1)>';

export function everyFailure(o: ScenarioOptions = {}): Scenario {
  const now = o.now ?? '2026-06-15T14:00:00Z';
  const m = (prefix: string) => ({ machineId: agentId(prefix) });
  const worker = { worker: true };
  const nodes: NodeSpec[] = [
    {
      hostname: 'ef-cp-01', ...m('0a11ce5e7c01'), roles: { etcd: true, controlPlane: true }, address: '10.9.0.11', createdAgo: '180d'
    },
    {
      hostname: 'ef-cp-02', ...m('0a11ce5e7c02'), roles: { etcd: true, controlPlane: true }, address: '10.9.0.12', createdAgo: '180d'
    },
    {
      hostname: 'ef-cp-03', ...m('0a11ce5e7c03'), roles: { etcd: true, controlPlane: true }, address: '10.9.0.13', createdAgo: '180d'
    },
    {
      hostname: 'ef-wk-ok', ...m('0a11ce5e7c04'), roles: worker, address: '10.9.1.10', createdAgo: '170d', joinedTo: 'ef-etcd-leaving'
    },
    {
      hostname: 'ef-wk-agent-gone', ...m('1e0c8f3a5b21'), roles: worker, address: '10.9.1.11', createdAgo: '3h', agent: 'never-checked-in', node: 'never-registered'
    },
    {
      hostname: 'ef-wk-plan-pending', ...m('2b7d4e9c1a32'), roles: worker, address: '10.9.1.12', createdAgo: '160d', agent: 'plan-pending', planUpdatedAgo: '25m'
    },
    {
      hostname: 'ef-wk-plan-failed', ...m('3c9a1f7e2d43'), roles: worker, address: '10.9.1.13', createdAgo: '160d', agent: 'plan-failed', planUpdatedAgo: '40m'
    },
    {
      // rancher#42505: after a plan change, kube-apiserver's startup probe times out while the kubelet, healthy, keeps the Node Ready.
      hostname: 'ef-cp-probes', ...m('4d2e8b6f3c54'), roles: { controlPlane: true }, address: '10.9.0.21', createdAgo: '150d', agent: 'probes-failing', unhealthyProbes: ['kube-apiserver'], planUpdatedAgo: '40m'
    },
    {
      hostname: 'ef-wk-deleting', ...m('5e3f9c7a4d65'), roles: worker, address: '10.9.1.14', createdAgo: '140d', deleting: { ago: '40m', blockedBy: 'drain' }
    },
    {
      hostname: 'ef-etcd-leaving', ...m('6f4a0d8b5e76'), roles: { etcd: true }, address: '10.9.0.31', createdAgo: '170d', deleting: { ago: '2h', blockedBy: 'etcd-hook' }
    },
    {
      hostname: 'ef-wk-no-node', ...m('7a5b1e9c6f87'), roles: worker, address: '10.9.1.15', createdAgo: '50m', node: 'never-registered'
    },
    {
      hostname: 'ef-wk-infra-gone', ...m('8b6c2f0d7a98'), roles: worker, address: '10.9.1.16', createdAgo: '120d', infra: 'deleted'
    },
    {
      hostname:      'EF-WIN-CASE',
      ...m('9c7d3a1e8b09'),
      nodeNameLabel: 'EF-WIN-CASE',
      roles:         worker,
      os:            'windows',
      osImage:       'Windows Server 2022 Datacenter',
      address:       '10.9.2.11',
      createdAgo:    '6h',
      node:          'unlinked',
    },
    {
      hostname: 'ef-wk-node-gone', ...m('b1f9c5d3a2e1'), roles: worker, address: '10.9.1.17', createdAgo: '110d', node: 'deleted'
    },
    {
      hostname:   'ef-wk-notready',
      ...m('c2a0d6e4b3f2'),
      roles:      worker,
      address:    '10.9.1.18',
      createdAgo: '100d',
      node:       'not-ready',
      notReady:   {
        status:  'False',
        reason:  'KubeletNotReady',
        since:   '30m',
        message: 'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized',
      },
    },
    {
      hostname: 'ef-wk-no-secret', ...m('d3b1e7f5c4a3'), roles: worker, address: '10.9.1.19', createdAgo: '90d', planSecret: false
    },
    {
      hostname: 'ef-etcd-stuck', ...m('e4c2f8a6d5b4'), roles: { etcd: true }, address: '10.9.0.32', createdAgo: '170d', agent: 'plan-pending', planUpdatedAgo: '3h'
    },
    {
      hostname: 'ef-win2016', ...m('f5d3a9b7e6c5'), roles: worker, os: 'windows', osImage: 'Windows Server 2016 Datacenter', address: '10.9.2.12', createdAgo: '30d'
    },
    {
      hostname: 'ef-win-small', ...m('06e4b0c8f7d6'), roles: worker, os: 'windows', osImage: 'Windows Server 2022 Datacenter', memoryKi: 2096612, address: '10.9.2.13', createdAgo: '20d'
    },
    {
      hostname:   'ef-wk-xss',
      ...m('17f5c1d9a8e7'),
      roles:      worker,
      address:    '10.9.1.20',
      createdAgo: '80d',
      node:       'not-ready',
      notReady:   {
        status: 'False', reason: 'KubeletNotReady', since: '45m', message: `PLEG is not healthy: pleg was last seen active 3m12s ago; threshold is 3m0s ${ XSS_PAYLOAD }`
      },
    },
    {
      hostname: 'ef-wk-memory', ...m('28a6d2e0b9f8'), roles: worker, address: '10.9.1.21', createdAgo: '70d'
    },
    {
      hostname: 'ef-wk-out-of-service', ...m('39b7e3f1ca09'), roles: worker, address: '10.9.1.22', createdAgo: '70d'
    },
    {
      hostname: 'ef-wk-mhc', ...m('4ac8f402db1a'), roles: worker, address: '10.9.1.23', createdAgo: '70d'
    },
  ];
  const built = buildCluster(clusterBuild({
    name:              'ef-rke2',
    mgmtId:            'c-m-ef4k8w2n',
    kind:              'custom',
    kubernetesVersion: 'v1.30.4+rke2r1',
    createdAgo:        '180d',
    nodes,
    waitingSince:      '3h',
    looseNodes:        [
      {
        name: 'ef-orphan', roles: worker, address: '10.9.1.30', createdAgo: '60d', formerMachine: { name: 'custom-a0e8b4c2f1d0' }
      },
      {
        // Machine deleted and its Node gone; Rancher's management Node still names the machine.
        name: 'ef-stale-record', roles: worker, address: '10.9.1.31', createdAgo: '12d', formerMachine: { name: 'custom-b8d4f0a2c6e9' }, downstream: false
      },
      {
        // Registered by another tool (an F5 BIG-IP flannel node): it never had a machine, and is not broken.
        name: 'ef-external', roles: worker, address: '10.9.1.32', createdAgo: '30d'
      },
    ],
  }, now, o));
  // The kubelet's memory pressure with its taint, the non-graceful shutdown taint, a MachineHealthCheck's verdict.
  const memory = builtNode(built, 'ef-wk-memory').node as NodeObject;

  memory.status.conditions = memory.status.conditions.map((c) => (c.type === 'MemoryPressure' ? {
    ...c, status: 'True', reason: 'KubeletHasInsufficientMemory', message: 'kubelet has insufficient memory available', lastTransitionTime: ago(now, '35m')
  } : c));
  memory.spec.taints = [...(memory.spec.taints ?? []), {
    key: 'node.kubernetes.io/memory-pressure', effect: 'NoSchedule', timeAdded: ago(now, '35m')
  }];
  const outOfService = builtNode(built, 'ef-wk-out-of-service').node as NodeObject;

  outOfService.spec.taints = [...(outOfService.spec.taints ?? []), {
    key: 'node.kubernetes.io/out-of-service', value: 'nodeshutdown', effect: 'NoExecute', timeAdded: ago(now, '1h')
  }];
  recopyNode(builtNode(built, 'ef-wk-memory').managementNode, memory);
  recopyNode(builtNode(built, 'ef-wk-out-of-service').managementNode, outOfService);
  const checked = builtNode(built, 'ef-wk-mhc').machine as Record<string, any>;

  checked.status.conditions = [...checked.status.conditions, {
    type: 'HealthCheckSucceeded', status: 'False', severity: 'Warning', reason: 'NodeStartupTimeout', message: 'Node failed to report startup in 10m0s', lastTransitionTime: ago(now, '20m')
  }];
  const expected: Record<string, FailureFamily[]> = {};

  for (const [name, family] of Object.entries(EVERY_FAILURE_EXPECTED)) expected[name] = [family];

  return scenarioFrom({
    name:        'every-failure',
    title:       'One node per failure family',
    description: 'RKE2 custom cluster where each failure family appears on exactly one machine or node (see EVERY_FAILURE_EXPECTED), ' +
      'plus a Ready message carrying HTML.',
    now,
    secretMarker: o.secretMarker ?? DEFAULT_SECRET_MARKER,
  }, [built], expected);
}

/* ------------------------------------------------------------------------------------------------ */

/** An imported cluster: no CAPI machines, only downstream and management Nodes; one NotReady. */
export function imported(o: ScenarioOptions = {}): Scenario {
  const now = o.now ?? '2026-07-01T08:00:00Z';
  const built = buildCluster(clusterBuild({
    name:              'imp-k3s',
    mgmtId:            'c-m-i6m2p4rq',
    kind:              'imported',
    kubernetesVersion: 'v1.29.6+k3s1',
    createdAgo:        '75d',
    nodes:             [],
    looseNodes:        [
      {
        name: 'imp-server-01', roles: { etcd: true, controlPlane: true }, address: '10.77.0.10', createdAgo: '300d'
      },
      {
        name: 'imp-worker-01', roles: { worker: true }, address: '10.77.0.21', createdAgo: '290d'
      },
      {
        name:       'imp-worker-02',
        roles:      { worker: true },
        address:    '10.77.0.22',
        createdAgo: '290d',
        notReady:   {
          status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.', since: '2h'
        },
      },
      {
        name: 'imp-worker-03', roles: { worker: true }, address: '10.77.0.23', createdAgo: '120d'
      },
    ],
  }, now, o));

  return scenarioFrom({
    name:         'imported',
    title:        'Imported cluster',
    description:  'Imported k3s cluster: four downstream Nodes with their management Nodes, no machines; imp-worker-02 stopped posting status two hours ago.',
    now,
    secretMarker: o.secretMarker ?? DEFAULT_SECRET_MARKER,
  }, [built], { 'imp-worker-02': ['node-not-ready'] });
}

/* ------------------------------------------------------------------------------------------------ */
/* Failure families seen in public threads (shared/docs/failure-families.md): each scenario is built   */
/* healthy, then the objects are changed the way the thread shows them.                                */
/* ------------------------------------------------------------------------------------------------ */

function builtNode(b: BuiltCluster, hostname: string): BuiltNode {
  const n = b.nodes.find((x) => x.spec.hostname === hostname);

  if (!n) throw new Error(`no node ${ hostname } in ${ b.cluster.name }`);

  return n;
}

function machineStatus(n: BuiltNode): Record<string, any> {
  return n.machine.status as unknown as Record<string, any>;
}

/** Replaces or adds a machine condition and summarises Ready again, as CAPI would. */
function setMachineCondition(n: BuiltNode, c: CapiCondition): void {
  const status = machineStatus(n);
  const others = (status.conditions as CapiCondition[]).filter((x) => x.type !== c.type && x.type !== 'Ready');
  const all = [...others, c];

  status.conditions = sortCapiConditions([summarizeReady(all, {
    deleting: false, providerID: n.machine.spec.providerID, at: n.machine.metadata.creationTimestamp
  }), ...all]);
}

/**
 * A Node that kubelet registered with the machine's uid label, but that Cluster API never linked: the Machine and its
 * infrastructure machine have no providerID, and the Node none either (or, `nodeKeepsProviderId`, its own, which
 * never reached them).
 */
function unlinkWithoutProviderId(n: BuiltNode, o: { uninitializedSince?: string; nodeKeepsProviderId?: boolean } = {}): void {
  const status = machineStatus(n);
  const created = n.machine.metadata.creationTimestamp;
  const at = (minutes: number) => new Date(Date.parse(created) + minutes * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');

  delete n.machine.spec.providerID;
  delete status.nodeRef;
  delete status.nodeInfo;
  status.phase = 'Provisioning';
  status.infrastructureReady = false;
  setMachineCondition(n, {
    type: 'InfrastructureReady', status: 'False', severity: 'Info', reason: 'WaitingForInfrastructure', lastTransitionTime: at(1)
  });
  setMachineCondition(n, {
    type: 'NodeHealthy', status: 'False', severity: 'Info', reason: 'WaitingForNodeRef', lastTransitionTime: at(1)
  });
  if (n.infraMachine) {
    delete (n.infraMachine.spec as Record<string, unknown>).providerID;
    (n.infraMachine as Record<string, any>).status = { ...(n.infraMachine.status as object), ready: false };
  }
  const node = n.node as NodeObject;

  if (!o.nodeKeepsProviderId) {
    delete node.spec.providerID;
  }
  for (const key of Object.keys(node.metadata.annotations ?? {})) {
    if (key.startsWith('cluster.x-k8s.io/')) delete node.metadata.annotations?.[key];
  }
  if (o.uninitializedSince) {
    node.spec.taints = [...(node.spec.taints ?? []), {
      key: 'node.cloudprovider.kubernetes.io/uninitialized', value: 'true', effect: 'NoSchedule', timeAdded: o.uninitializedSince
    }];
  }
  // Rancher's node syncer copies the Node into its management Node: the copy follows.
  recopyNode(n.managementNode, node);
}

function provisioningClusterOf(b: BuiltCluster): Record<string, any> {
  return b.local.find((o) => o.kind === 'Cluster' && o.apiVersion.startsWith('provisioning.cattle.io/')) as Record<string, any>;
}

function managementClusterOf(b: BuiltCluster): Record<string, any> {
  return b.local.find((o) => o.kind === 'Cluster' && o.apiVersion.startsWith('management.cattle.io/')) as Record<string, any>;
}

function setRancherCondition(obj: Record<string, any>, c: RancherCondition): void {
  const list = obj.status.conditions as RancherCondition[];
  const i = list.findIndex((x) => x.type === c.type);

  if (i >= 0) list[i] = c; else list.push(c);
}

export const WINDOWS_NO_PROVIDER_ID_MACHINE = customMachineName(agentId('7b3e5a1c9d02'));

/**
 * Seed 004's own family (rancher#43587, #43701): a custom Windows worker registered as win-worker-01 with the
 * machine's uid label, but without a providerID; its Machine expects WIN-WORKER-01 and has been Provisioning,
 * NodeHealthy False WaitingForNodeRef, for three days.
 */
export function windowsProviderId(o: ScenarioOptions = {}): Scenario {
  const now = o.now ?? '2026-09-14T09:30:00Z';
  const server = (i: number): NodeSpec => ({
    hostname: `wc-cp-0${ i }`, roles: { etcd: true, controlPlane: true }, address: `10.61.0.1${ i }`, createdAgo: '120d'
  });
  const built = buildCluster(clusterBuild({
    name:              'win-custom',
    mgmtId:            'c-m-wc7p2k9d',
    kind:              'custom',
    kubernetesVersion: 'v1.28.9+rke2r1',
    createdAgo:        '120d',
    nodes:             [
      server(1), server(2), server(3),
      {
        hostname: 'wc-linux-01', roles: { worker: true }, address: '10.61.1.11', createdAgo: '119d'
      },
      {
        hostname:      'WIN-WORKER-01',
        machineId:     agentId('7b3e5a1c9d02'),
        nodeNameLabel: 'WIN-WORKER-01',
        roles:         { worker: true },
        os:            'windows',
        osImage:       'Windows Server 2022 Datacenter',
        address:       '10.61.2.11',
        createdAgo:    '3d',
      },
    ],
  }, now, o));

  unlinkWithoutProviderId(builtNode(built, 'WIN-WORKER-01'));

  return scenarioFrom({
    name:        'windows-provider-id',
    title:       'Windows worker without a providerID',
    description: `RKE2 custom cluster. Windows worker ${ WINDOWS_NO_PROVIDER_ID_MACHINE } (label rke.cattle.io/node-name WIN-WORKER-01) has been ` +
      'Provisioning for three days with NodeHealthy False (WaitingForNodeRef), while the Ready Node win-worker-01 carries its uid label ' +
      'and has no spec.providerID.',
    now,
    secretMarker: o.secretMarker ?? DEFAULT_SECRET_MARKER,
  }, [built], { [WINDOWS_NO_PROVIDER_ID_MACHINE]: ['provider-id-missing', 'node-name-mismatch', 'waiting-for-node-ref'] });
}

export const NOT_LINKED_MACHINE = customMachineName(agentId('6d52ad314026'));

/**
 * The first node of a custom RKE2 cluster whose providerID never reaches its machine (rancher#37406, Rancher 2.6.4,
 * RKE2 v1.21.9+rke2r1 on Ubuntu 22.04): the host ran the plan, its kubelet registered a Ready Node with the machine's
 * uid label and the providerID rke2://mc-t-001-node1, and Rancher logs at 21:54:00 "Searching for providerID for
 * selector rke.cattle.io/machine=… in cluster fleet-default/mc-t-001, machine custom-6d52ad314026: … is forbidden:
 * User … cannot get resource \"clusters\"". Its look-up of the Node was refused, so the CustomMachine never got the
 * providerID, the Machine neither, and Cluster API never linked the Node. The cluster says what 2.6.4 said of such a
 * machine (rancher#37174): "waiting for providerID to be set".
 */
export function nodeNotLinked(o: ScenarioOptions = {}): Scenario {
  const now = o.now ?? '2022-04-19T21:54:00Z';
  const built = buildCluster(clusterBuild({
    name:              'mc-t-001',
    mgmtId:            'c-m-9smmqlj9',
    kind:              'custom',
    kubernetesVersion: 'v1.21.9+rke2r1',
    createdAgo:        '40m',
    nodes:             [{
      hostname:   'mc-t-001-node1',
      machineId:  agentId('6d52ad314026'),
      roles:      {
        etcd: true, controlPlane: true, worker: true
      },
      osImage:    'Ubuntu 22.04 LTS',
      address:    '10.0.0.4',
      createdAgo: '38m',
    }],
    waitingMessage: `provisioning bootstrap node(s) ${ NOT_LINKED_MACHINE }: waiting for providerID to be set`,
    waitingSince:   '30m',
  }, now, o));
  const n = builtNode(built, 'mc-t-001-node1');

  unlinkWithoutProviderId(n, { nodeKeepsProviderId: true });

  return scenarioFrom({
    name:        'node-not-linked',
    title:       'A Ready Node whose providerID never reaches its machine',
    description: `RKE2 custom cluster mc-t-001 (Rancher 2.6.4). Its first machine ${ NOT_LINKED_MACHINE } has been Provisioning for 38 minutes: ` +
      'the Node mc-t-001-node1 carries its uid label, is Ready and has the providerID rke2://mc-t-001-node1, but the CustomMachine and the ' +
      'Machine have none, and the cluster waits "for providerID to be set".',
    now,
    secretMarker: o.secretMarker ?? DEFAULT_SECRET_MARKER,
  }, [built], { [NOT_LINKED_MACHINE]: ['blocking-cluster-operation', 'node-not-linked', 'waiting-for-node-ref'] });
}

/**
 * An external cloud provider that never initialised the Nodes (rancher#50065, #36716): kubelet runs with
 * --cloud-provider=external, every Node keeps node.cloudprovider.kubernetes.io/uninitialized and has no
 * providerID, the machines wait for their node ref, and the cluster waits "for control plane to be available".
 */
export function cloudProviderExternal(o: ScenarioOptions = {}): Scenario {
  const now = o.now ?? '2026-10-02T16:45:00Z';
  const server = (i: number, id: string): NodeSpec => ({
    hostname:   `ccm-node-0${ i }`,
    machineId:  agentId(id),
    roles:      {
      etcd: true, controlPlane: true, worker: true
    },
    address:    `172.20.8.1${ i }`,
    createdAgo: '2h',
  });
  const built = buildCluster(clusterBuild({
    name:              'ext-ccm',
    mgmtId:            'c-m-x2cc4m8n',
    kind:              'custom',
    kubernetesVersion: 'v1.31.7+rke2r1',
    createdAgo:        '2h',
    nodes:             [server(1, '3e9a0c57b1d4'), server(2, '5c1f7e28a0b6'), server(3, '8d4b2f61c9e3')],
    waitingMessage:    'waiting for control plane to be available',
    waitingSince:      '1h50m',
  }, now, o));
  const cluster = provisioningClusterOf(built);

  cluster.spec.rkeConfig.machineGlobalConfig = { ...cluster.spec.rkeConfig.machineGlobalConfig, 'cloud-provider-name': 'external' };
  for (const n of built.nodes) {
    unlinkWithoutProviderId(n, { uninitializedSince: n.node?.metadata.creationTimestamp });
  }
  const expected: Record<string, FailureFamily[]> = {};

  for (const n of built.nodes) expected[n.machineName] = ['cloud-provider-uninitialized', 'provider-id-missing', 'waiting-for-node-ref'];

  return scenarioFrom({
    name:         'cloud-provider-external',
    title:        'External cloud provider never initialised the Nodes',
    description:  'RKE2 custom cluster with cloud-provider-name external and no cloud controller manager: its three Nodes are Ready ' +
      'but keep the uninitialized taint and have no providerID, so no machine gets its node ref.',
    now,
    secretMarker: o.secretMarker ?? DEFAULT_SECRET_MARKER,
  }, [built], expected);
}

export const DELETE_FAILED_MACHINE = nodeDriverMachineName('vs-del', 'wk', 'wk-2');
export const CREATE_FAILED_MACHINE = nodeDriverMachineName('vs-del', 'wk', 'wk-3');

/**
 * A vSphere worker whose infrastructure delete fails (rancher#40812, #40608, #41635): the pool was scaled down after
 * the vCenter password changed, and the delete job's docker-machine run cannot log in. Rancher reports
 * "failed deleting server [...] of kind (VmwarevsphereMachine) for machine ... in infrastructure provider:
 * DeleteError: ..." on the infrastructure machine (DeleteJob False, failureReason DeleteError) and Cluster API
 * mirrors it to the Machine's InfrastructureReady. The VM still runs: removing the Machine's finalizers would
 * orphan it.
 */
export function infraDeleteFailed(o: ScenarioOptions = {}): Scenario {
  const now = o.now ?? '2026-04-14T11:20:00Z';
  const pooled = (pool: string, key: string, rest: PooledSpec): NodeSpec => pooledNode('vs-del', pool, key, rest);
  const built = buildCluster(clusterBuild({
    name:              'vs-del',
    mgmtId:            'c-m-d3l7x9qa',
    kind:              'node-driver',
    kubernetesVersion: 'v1.30.6+rke2r1',
    createdAgo:        '120d',
    // Since the machine that replaces the deleted one was made and its create job failed, not since the cluster was.
    waitingSince:      '58m',
    planStateKeys:     true,
    nodes:             [
      pooled('cp', 'cp-1', {
        roles: { etcd: true, controlPlane: true }, address: '172.16.60.11', createdAgo: '120d'
      }),
      pooled('cp', 'cp-2', {
        roles: { etcd: true, controlPlane: true }, address: '172.16.60.12', createdAgo: '120d'
      }),
      pooled('cp', 'cp-3', {
        roles: { etcd: true, controlPlane: true }, address: '172.16.60.13', createdAgo: '120d'
      }),
      pooled('wk', 'wk-1', {
        roles: { worker: true }, address: '172.16.60.21', createdAgo: '120d'
      }),
      pooled('wk', 'wk-2', {
        roles: { worker: true }, address: '172.16.60.22', createdAgo: '120d', deleting: { ago: '2h', blockedBy: 'finalizer' }
      }),
      pooled('wk', 'wk-3', {
        roles: { worker: true }, address: '172.16.60.23', createdAgo: '1h', agent: 'never-checked-in', node: 'never-registered'
      }),
    ],
    machinePools: [
      {
        name: 'cp', quantity: 3, roles: { etcd: true, controlPlane: true }
      },
      {
        name: 'wk', quantity: 1, roles: { worker: true }
      },
    ],
  }, now, o));
  const failing = builtNode(built, DELETE_FAILED_MACHINE);
  const infra = failing.infraMachine as Record<string, any>;
  const failedAt = ago(now, '1h52m');
  const driverOutput = [
    'Downloading driver from https://rancher.example.com/assets/docker-machine-driver-vmwarevsphere',
    'Doing /etc/rancher/ssl',
    'docker-machine-driver-vmwarevsphere',
    `About to remove ${ DELETE_FAILED_MACHINE }`,
    'WARNING: This action will delete both local reference and remote instance.',
    `Error removing host "${ DELETE_FAILED_MACHINE }": ServerFaultCode: Cannot complete login due to an incorrect user name or password.`,
  ].join('\n');
  const message = `failed deleting server [${ infra.metadata.namespace }/${ infra.metadata.name }] of kind (VmwarevsphereMachine) for machine ${ DELETE_FAILED_MACHINE } in infrastructure provider: DeleteError: ${ driverOutput }`;

  infra.metadata.deletionTimestamp = ago(now, '2h');
  infra.metadata.finalizers = ['wrangler.cattle.io/machine-provision-remove'];
  infra.status = {
    ...infra.status,
    ready:          false,
    failureReason:  'DeleteError',
    failureMessage: driverOutput,
    conditions:     [
      ...infra.status.conditions.filter((c: any) => c.type === 'CreateJob'),
      {
        type: 'Ready', status: 'False', reason: 'DeleteError', message, lastUpdateTime: failedAt
      },
      {
        type: 'DeleteJob', status: 'False', reason: 'DeleteError', message, lastUpdateTime: failedAt
      },
    ],
  };
  failing.machine.status.conditions = failing.machine.status.conditions.map((c) => (c.type === 'InfrastructureReady' ? {
    type: 'InfrastructureReady', status: 'False', severity: 'Error', reason: 'DeleteError', message, lastTransitionTime: failedAt
  } : c));

  // The machine that replaces it cannot be created either: its create job fails on the same login.
  const created = builtNode(built, CREATE_FAILED_MACHINE);
  const createInfra = created.infraMachine as Record<string, any>;
  const createdAt = ago(now, '58m');
  const createOutput = [
    'Downloading driver from https://rancher.example.com/assets/docker-machine-driver-vmwarevsphere',
    'Doing /etc/rancher/ssl',
    'docker-machine-driver-vmwarevsphere',
    'Running pre-create checks...',
    'Error with pre-create check: "ServerFaultCode: Cannot complete login due to an incorrect user name or password."',
  ].join('\n');
  const createMessage = `failed creating server [${ createInfra.metadata.namespace }/${ createInfra.metadata.name }] of kind (VmwarevsphereMachine) for machine ${ CREATE_FAILED_MACHINE } in infrastructure provider: CreateError: ${ createOutput }`;

  createInfra.status = {
    ...createInfra.status,
    ready:          false,
    failureReason:  'CreateError',
    failureMessage: createOutput,
    conditions:     [
      {
        type: 'CreateJob', status: 'False', reason: 'CreateError', message: createMessage, lastUpdateTime: createdAt
      },
      {
        type: 'Ready', status: 'False', reason: 'CreateError', message: createMessage, lastUpdateTime: createdAt
      },
    ],
  };
  created.machine.status.conditions = created.machine.status.conditions.map((c) => (c.type === 'InfrastructureReady' ? {
    type: 'InfrastructureReady', status: 'False', severity: 'Error', reason: 'CreateError', message: createMessage, lastTransitionTime: createdAt
  } : c));

  const scenario = scenarioFrom({
    name:        'infra-delete-failed',
    title:       'A server the provider refuses to delete',
    description: `vSphere RKE2 cluster after the vCenter password changed: worker ${ DELETE_FAILED_MACHINE } has been deleting for 2 h ` +
      `because its delete job cannot log in to vCenter (the VM still runs), and ${ CREATE_FAILED_MACHINE } could not be created for the same reason.`,
    now,
    secretMarker: o.secretMarker ?? DEFAULT_SECRET_MARKER,
  }, [built], { [DELETE_FAILED_MACHINE]: ['infrastructure-delete-failed'], [CREATE_FAILED_MACHINE]: ['infrastructure-create-failed', 'waiting-for-node-ref'] });

  // What Rancher's provisioning jobs left: the delete job that cannot log in, and the create job of the replacement.
  // A driver run with debugging prints its flags: a credential in a log line, which no screen, bundle or report shows.
  const lines = driverOutput.split('\n');
  const deleteLog = [...lines.slice(0, -1), `(${ DELETE_FAILED_MACHINE }) DBG | logging in with --vmwarevsphere-password ${ scenario.secretMarker }`, lines[lines.length - 1]].join('\n');

  return withHistory(scenario, [
    provisioningJob({
      infraMachine: infra as KubeObject, capiMachine: DELETE_FAILED_MACHINE, remove: true, started: ago(now, '1h53m'), finished: failedAt, failed: true, log: deleteLog
    }),
    provisioningJob({
      infraMachine: createInfra as KubeObject, capiMachine: CREATE_FAILED_MACHINE, remove: false, started: ago(now, '59m'), finished: createdAt, failed: true, log: createOutput
    }),
  ]);
}

/** Adds Events, jobs, pods and pod logs to a scenario's own cluster. */
function withHistory(scenario: Scenario, parts: ({ objects: KubeObject[]; logs?: Record<string, string> } | KubeObject)[]): Scenario {
  for (const part of parts) {
    if ('objects' in part && Array.isArray(part.objects)) {
      scenario.objects.push(...part.objects);
      scenario.podLogs = { ...scenario.podLogs, ...(part.logs ?? {}) };
    } else {
      scenario.objects.push(part as KubeObject);
    }
  }

  return scenario;
}

export const ROTATION_MACHINE = customMachineName(agentId('7e21c4b9a0d3'));

/**
 * A k3s custom cluster that Rotate Certificates walks: two etcd and control-plane masters, one etcd machine (`etcd`,
 * the one the rotation stops at), one worker. The planner pauses the CAPI cluster while it rotates.
 */
function rotationCluster(o: ScenarioOptions, now: string, c: {
  name: string; mgmtId: string; prefix: string; subnet: string; ids: [string, string, string, string]; etcd: Partial<NodeSpec>;
  waitingMessage: string; waitingFailed?: boolean; waitingSince: Duration;
}): BuiltCluster {
  const master = (host: string, id: string, address: string): NodeSpec => ({
    hostname: host, machineId: agentId(id), roles: { etcd: true, controlPlane: true }, address, createdAgo: '410d', planUpdatedAgo: '2h', agentCredentials: true,
  });

  return buildCluster(clusterBuild({
    name:              c.name,
    mgmtId:            c.mgmtId,
    kind:              'custom',
    kubernetesVersion: 'v1.27.10+k3s2',
    createdAgo:        '410d',
    nodes:             [
      master(`${ c.prefix }-master01`, c.ids[0], `${ c.subnet }.11`),
      master(`${ c.prefix }-master02`, c.ids[1], `${ c.subnet }.12`),
      {
        hostname: `${ c.prefix }-etcd01`, machineId: agentId(c.ids[2]), roles: { etcd: true }, address: `${ c.subnet }.21`, createdAgo: '95d', agentCredentials: true, ...c.etcd,
      },
      {
        hostname: `${ c.prefix }-node01`, machineId: agentId(c.ids[3]), roles: { worker: true }, address: `${ c.subnet }.31`, createdAgo: '400d', planUpdatedAgo: '2h', agentCredentials: true,
      },
    ],
    rotateCertificates: { generation: 3 },
    waitingMessage:     c.waitingMessage,
    waitingFailed:      c.waitingFailed,
    waitingSince:       c.waitingSince,
    capiCluster:        { paused: true, pausedAgo: '2h' },
  }, now, o));
}

/**
 * Seed 000 before the deletion: Rotate Certificates on a k3s custom cluster whose etcd machine's agent lost its
 * credentials. The planner walks the machines and waits for each one's rotation plan (assignAndCheckPlan in rancher
 * pkg/capr/planner/certificaterotation.go: "waiting for [<machine>] certificate rotation"), and pauses the CAPI
 * cluster while it does.
 */
export function certRotationBlocked(o: ScenarioOptions = {}): Scenario {
  const now = o.now ?? '2026-01-13T08:10:00Z';
  const built = rotationCluster(o, now, {
    name:           'rot-k3s',
    mgmtId:         'c-m-r8t2k6cq',
    prefix:         'rot',
    subnet:         '10.21.1',
    ids:            ['1a6f3c9e2b70', '2b7a4d0f3c81', '7e21c4b9a0d3', '3c8b5e1a4d92'],
    etcd:           { agent: 'never-checked-in', node: 'never-registered' },
    waitingMessage: `waiting for [${ ROTATION_MACHINE }] certificate rotation`,
    waitingSince:   '2h',
  });

  return scenarioFrom({
    name:         'cert-rotation-blocked',
    title:        'Certificate rotation waits for a machine whose agent is gone',
    description:  `k3s custom cluster where Rotate Certificates has waited 2 h for ${ ROTATION_MACHINE }, whose agent never checked in; the planner keeps the CAPI cluster paused while it rotates (seed 000).`,
    now,
    secretMarker: o.secretMarker ?? DEFAULT_SECRET_MARKER,
  }, [built], { [ROTATION_MACHINE]: ['agent-never-checked-in', 'blocking-cluster-operation'] }, { 'rot-k3s': ['reconciliation-paused'] });
}

export const FAILED_ROTATION_MACHINE = customMachineName(agentId('8f32d5ca1be4'));

/**
 * The same rotation when the machine's agent did apply its rotation plan and it failed: the planner says
 * "operation [<machine>] certificate rotation failed" (store.go assignAndCheckPlan, a failure threshold of 0) as an
 * error on the cluster's conditions, and keeps the CAPI cluster paused (certificaterotation.go) until it succeeds.
 */
export function certRotationFailed(o: ScenarioOptions = {}): Scenario {
  const now = o.now ?? '2026-01-13T08:10:00Z';
  const built = rotationCluster(o, now, {
    name:           'rotf-k3s',
    mgmtId:         'c-m-f4r7t2kq',
    prefix:         'rotf',
    subnet:         '10.22.1',
    ids:            ['4d9e6b2a7c15', '5e0f7c3b8d26', '8f32d5ca1be4', '9a43e6db2cf5'],
    etcd:           { planUpdatedAgo: '2h', agent: 'plan-failed' },
    waitingMessage: `operation [${ FAILED_ROTATION_MACHINE }] certificate rotation failed`,
    waitingFailed:  true,
    waitingSince:   '1h',
  });

  return scenarioFrom({
    name:         'cert-rotation-failed',
    title:        'Certificate rotation failed on a machine',
    description:  `k3s custom cluster where the certificate rotation plan failed on ${ FAILED_ROTATION_MACHINE }: the planner reports the failure and keeps the CAPI cluster paused until that machine's rotation succeeds.`,
    now,
    secretMarker: o.secretMarker ?? DEFAULT_SECRET_MARKER,
  }, [built], { [FAILED_ROTATION_MACHINE]: ['plan-apply-failed', 'blocking-cluster-operation'] }, { 'rotf-k3s': ['reconciliation-paused'] });
}

export const CLUSTER_HEALTH_MACHINES = {
  etcdDown:     customMachineName(agentId('c1a0e7d43b25')),
  controlPlane: customMachineName(agentId('c2b1f8e54c36')),
  unplanned:    customMachineName(agentId('c3c209f65d47')),
};

/** The kubelet of a host that went away: "Kubelet stopped posting node status." (NodeStatusUnknown). */
const KUBELET_GONE = {
  status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.', since: '40m'
} as const;

function clusterHealthNode(hostname: string, address: string, roles: NodeSpec['roles'], rest: Partial<NodeSpec> = {}): NodeSpec {
  return {
    hostname, roles, address, createdAgo: '200d', machineId: agentId(stableHex(`cluster-health:${ hostname }`, 12)), ...rest
  };
}

/** `planner`: what the planner says on the cluster's Updated and Provisioned instead of what its machines make it say. */
function clusterHealthCluster(name: string, mgmtId: string, nodes: NodeSpec[], now: string, o: ScenarioOptions,
  planner: Pick<ClusterBuild, 'waitingMessage' | 'waitingFailed' | 'waitingSince'> = {}): BuiltCluster {
  return buildCluster(clusterBuild({
    name, mgmtId, kind: 'custom', kubernetesVersion: 'v1.31.5+rke2r1', createdAgo: '200d', nodes, ...planner
  }, now, o));
}

const ETCD_CP = { etcd: true, controlPlane: true };
const WORKER = { worker: true };

/** An etcd member whose kubelet stopped posting status: two of three members left, one failure from losing quorum. */
export function etcdQuorum(o: ScenarioOptions = {}): Scenario {
  const now = o.now ?? '2026-05-08T07:45:00Z';
  const built = clusterHealthCluster('q-rke2', 'c-m-q0r4m8tz', [
    clusterHealthNode('q-cp-01', '10.61.0.11', ETCD_CP),
    clusterHealthNode('q-cp-02', '10.61.0.12', ETCD_CP),
    clusterHealthNode('q-cp-03', '10.61.0.13', ETCD_CP, {
      machineId: agentId('c1a0e7d43b25'), node: 'not-ready', notReady: KUBELET_GONE
    }),
    clusterHealthNode('q-wk-01', '10.61.1.11', WORKER),
    clusterHealthNode('q-wk-02', '10.61.1.12', WORKER),
  ], now, o);

  return scenarioFrom({
    name:         'etcd-quorum',
    title:        'etcd one failure from losing quorum',
    description:  'RKE2 custom cluster with three etcd members, one of them down for 40 min (Kubelet stopped posting node status): two of three left.',
    now,
    secretMarker: o.secretMarker ?? DEFAULT_SECRET_MARKER,
  }, [built], { [CLUSTER_HEALTH_MACHINES.etcdDown]: ['node-not-ready'] }, { 'q-rke2': ['etcd-quorum'] });
}

/** Separate roles, and the only control-plane node down. */
export function controlPlaneDown(o: ScenarioOptions = {}): Scenario {
  const now = o.now ?? '2026-05-08T07:45:00Z';
  const built = clusterHealthCluster('cpl-rke2', 'c-m-cp1l9v3k', [
    clusterHealthNode('cpl-etcd-01', '10.62.0.11', { etcd: true }),
    clusterHealthNode('cpl-etcd-02', '10.62.0.12', { etcd: true }),
    clusterHealthNode('cpl-etcd-03', '10.62.0.13', { etcd: true }),
    clusterHealthNode('cpl-cp-01', '10.62.0.21', { controlPlane: true }, {
      machineId: agentId('c2b1f8e54c36'), node: 'not-ready', notReady: KUBELET_GONE
    }),
    clusterHealthNode('cpl-wk-01', '10.62.1.11', WORKER),
  ], now, o);

  return scenarioFrom({
    name:         'control-plane-down',
    title:        'No healthy control plane',
    description:  'RKE2 custom cluster with separate etcd, control-plane and worker machines; its only control-plane node has been down for 40 min.',
    now,
    secretMarker: o.secretMarker ?? DEFAULT_SECRET_MARKER,
  }, [built], { [CLUSTER_HEALTH_MACHINES.controlPlane]: ['node-not-ready'] }, { 'cpl-rke2': ['control-plane-unavailable'] });
}

/**
 * A cluster whose workers were all removed: three healthy servers and nothing to run workloads on; the planner says
 * "waiting for at least one control plane, etcd, and worker node to be registered".
 */
export function noWorker(o: ScenarioOptions = {}): Scenario {
  const now = o.now ?? '2026-05-08T07:45:00Z';
  const built = clusterHealthCluster('nw-rke2', 'c-m-nw7k2w5p', [
    clusterHealthNode('nw-cp-01', '10.63.0.11', ETCD_CP),
    clusterHealthNode('nw-cp-02', '10.63.0.12', ETCD_CP),
    clusterHealthNode('nw-cp-03', '10.63.0.13', ETCD_CP),
  ], now, o);

  // The planner's sanity check (clusterIsSane) since the last worker went, three hours ago.
  setRancherCondition(provisioningClusterOf(built), {
    type: 'Provisioned', status: 'Unknown', reason: 'Waiting', message: 'waiting for at least one control plane, etcd, and worker node to be registered', lastUpdateTime: ago(now, '3h'), lastTransitionTime: ago(now, '3h')
  });

  return scenarioFrom({
    name:         'no-worker',
    title:        'A cluster without a worker',
    description:  'RKE2 custom cluster of three etcd and control-plane machines whose workers were all removed.',
    now,
    secretMarker: o.secretMarker ?? DEFAULT_SECRET_MARKER,
  }, [built], {}, { 'nw-rke2': ['role-missing'] });
}

/**
 * Every etcd host of a running cluster replaced: the new etcd machines never got a plan, and the planner stops with
 * "rkecontrolplane was already initialized but no etcd machines exist that have plans, indicating the etcd plane has
 * been entirely replaced. Restoration from etcd snapshot is required." (pkg/capr/planner/planner.go Process).
 */
export function etcdPlaneReplaced(o: ScenarioOptions = {}): Scenario {
  const now = o.now ?? '2026-05-08T07:45:00Z';
  const newEtcd = (host: string, address: string): NodeSpec => clusterHealthNode(host, address, { etcd: true }, {
    createdAgo: '6m', node: 'never-registered', agentCredentials: true
  });
  const built = clusterHealthCluster('ep-rke2', 'c-m-ep5r8l2c', [
    newEtcd('ep-etcd-04', '10.66.0.14'),
    newEtcd('ep-etcd-05', '10.66.0.15'),
    newEtcd('ep-etcd-06', '10.66.0.16'),
    clusterHealthNode('ep-cp-01', '10.66.0.21', { controlPlane: true }),
    clusterHealthNode('ep-wk-01', '10.66.1.11', WORKER),
  ], now, o, {
    waitingMessage: 'rkecontrolplane was already initialized but no etcd machines exist that have plans, indicating the etcd plane has been entirely replaced. Restoration from etcd snapshot is required.',
    waitingSince:   '5m',
  });

  // The planner stops before it writes the new etcd machines a plan or a Reconciled condition: their plan secrets
  // hold no data and no plan-last-updated.
  for (const n of built.nodes.filter((b) => b.spec.roles.etcd)) {
    if (n.planSecret) {
      n.planSecret.data = {};
      delete (n.planSecret.metadata.annotations as Record<string, string> | undefined)?.['rke.cattle.io/plan-last-updated'];
    }
    n.machine.status.conditions = (n.machine.status.conditions ?? []).filter((c) => c.type !== 'Reconciled' && c.type !== 'PlanApplied');
  }

  return scenarioFrom({
    name:         'etcd-plane-replaced',
    title:        'The whole etcd plane replaced',
    description:  'RKE2 custom cluster whose three etcd hosts were all replaced minutes ago: the new etcd machines get no plan, and the planner asks for an etcd snapshot restore.',
    now,
    secretMarker: o.secretMarker ?? DEFAULT_SECRET_MARKER,
  }, [built], {}, { 'ep-rke2': ['init-node-missing'] });
}

/**
 * Cluster API reaches a Rancher cluster through Rancher (its `<cluster>-kubeconfig` points at Rancher's
 * /k8s/clusters/<id>, pkg/provisioningv2/kubeconfig), so when the cluster agent's tunnel is down it cannot reach it
 * either: past its grace period the CAPI Cluster's RemoteConnectionProbe is False ProbeFailed, and every Machine's
 * NodeHealthy and NodeReady Unknown ConnectionDown (cluster-api core/reconcilers, as 1.10 writes them under
 * status.v1beta2 for Rancher 2.12 and 2.13). Its Nodes, which the tab reads itself, are fine.
 */
export function capiConnectionDown(o: ScenarioOptions = {}): Scenario {
  const now = o.now ?? '2026-03-11T16:40:00Z';
  const built = clusterHealthCluster('cd-rke2', 'c-m-cd7n2w4q', [
    clusterHealthNode('cd-cp-01', '10.74.0.11', ETCD_CP),
    clusterHealthNode('cd-cp-02', '10.74.0.12', ETCD_CP),
    clusterHealthNode('cd-cp-03', '10.74.0.13', ETCD_CP),
    clusterHealthNode('cd-wk-01', '10.74.1.11', WORKER),
    clusterHealthNode('cd-wk-02', '10.74.1.12', WORKER),
  ], now, o);
  const lastProbe = ago(now, '50m');
  const capi = built.local.find((x) => x.kind === 'Cluster' && String(x.apiVersion).startsWith('cluster.x-k8s.io')) as Record<string, any>;

  agentLost(built, lastProbe);
  capi.status.v1beta2.conditions = capi.status.v1beta2.conditions.map((c: Record<string, unknown>) => (c.type === 'RemoteConnectionProbe' ? {
    ...c, status: 'False', reason: 'ProbeFailed', message: `Remote connection probe failed, probe last succeeded at ${ lastProbe }`, lastTransitionTime: ago(now, '45m')
  } : c));
  for (const n of built.nodes) {
    const status = n.machine.status as Record<string, any>;
    const down = (type: string) => ({
      type, status: 'Unknown', reason: 'ConnectionDown', message: `Last successful probe at ${ lastProbe }`, lastTransitionTime: ago(now, '45m'), observedGeneration: n.machine.metadata.generation ?? 1
    });

    status.v1beta2 = { ...(status.v1beta2 ?? {}), conditions: [...(status.v1beta2?.conditions ?? []).filter((c: any) => c.type !== 'NodeHealthy' && c.type !== 'NodeReady'), down('NodeHealthy'), down('NodeReady')] };
  }

  return scenarioFrom({
    name:         'capi-connection-down',
    title:        'Cluster API cannot reach the cluster',
    description:  'RKE2 custom cluster whose cluster agent lost its connection 50 min ago: Cluster API, which reaches the cluster through Rancher, says ConnectionDown on every machine; the Nodes themselves are fine.',
    now,
    secretMarker: o.secretMarker ?? DEFAULT_SECRET_MARKER,
  }, [built], {}, { 'cd-rke2': ['cluster-agent-disconnected', 'capi-connection-down'] });
}

/** The worker the join-URL scenario's planner cannot join, by its Machine's name as the planner writes it. */
export const PLANNER_JOIN_WORKER = customMachineName(agentId('a3f19c0e7b52'));

/** The planner's words for what it stopped on (pkg/capr/planner), as each cluster's Updated and Provisioned carry them. */
export const PLANNER_STOPS = {
  kdm:       'fleet-default/ps-kdm: KDM release data is empty for v1.31.5+rke2r1',
  files:     'error rendering files: cluster fleet-default/ps-files was not authorized to access secret fleet-default/registry-ca',
  initNodes: 'multiple init nodes found',
  joinUrl:   `no suitable join URL found to join machine fleet-default/${ PLANNER_JOIN_WORKER } in rkecluster fleet-default/ps-join to`,
} as const;

type PlannerStop = keyof typeof PLANNER_STOPS;

const PLANNER_STOP_CLUSTERS: Record<PlannerStop, { name: string; mgmtId: string; subnet: string; failed: boolean; since: Duration; title: string; description: string }> = {
  kdm: {
    name:        'ps-kdm',
    mgmtId:      'c-m-ps1k4m9a',
    subnet:      '10.71.0',
    failed:      false,
    since:       '2h',
    title:       'No release data for the cluster\'s Kubernetes version',
    description: 'RKE2 custom cluster whose planner has waited 2 h for release data Rancher does not have: rke-metadata-config points at another release\'s metadata (rancher#46046).',
  },
  files: {
    name:        'ps-files',
    mgmtId:      'c-m-ps2f6l3b',
    subnet:      '10.71.1',
    failed:      true,
    since:       '40m',
    title:       'A file secret the cluster may not read',
    description: 'RKE2 custom cluster whose machineSelectorFiles take a file from a Secret that does not authorize the cluster: the planner stopped on the error 40 min ago.',
  },
  initNodes: {
    name:        'ps-init',
    mgmtId:      'c-m-ps3n1t7d',
    subnet:      '10.71.2',
    failed:      true,
    since:       '25m',
    title:       'Two machines marked as the init node',
    description: 'RKE2 custom cluster whose two etcd machines\' plan secrets both carry the init-node mark: the planner stopped on "multiple init nodes found" 25 min ago.',
  },
  joinUrl: {
    name:        'ps-join',
    mgmtId:      'c-m-ps4j8n2e',
    subnet:      '10.71.3',
    failed:      true,
    since:       '15m',
    title:       'A worker with no control-plane node to join',
    description: 'RKE2 custom cluster where no control-plane machine has a join URL: the planner stopped 15 min ago on the worker it cannot join.',
  },
};

/**
 * A cluster whose planner stopped on one of its own errors, which its controller writes to the RKEControlPlane's Ready
 * as False/Error (pkg/controllers/capr/planner OnChange) and the provisioning cluster copies to Updated and Provisioned;
 * release data missing it writes as a wait (planner.go Process) that no pass of its own ends. The errors: a
 * machineSelectorFiles secret without the cluster's authorization (config.go), two plan secrets marked as the init
 * node (initnode.go), a worker with no control-plane node to join (planner.go determineJoinURL).
 */
function plannerStopped(stop: PlannerStop, o: ScenarioOptions = {}): Scenario {
  const now = o.now ?? '2026-06-02T10:20:00Z';
  const c = PLANNER_STOP_CLUSTERS[stop];
  const built = clusterHealthCluster(c.name, c.mgmtId, [
    ...Array.from({ length: stop === 'initNodes' ? 2 : 1 }, (_, i) => clusterHealthNode(`${ c.name }-cp-0${ i + 1 }`, `${ c.subnet }.1${ i + 1 }`, ETCD_CP)),
    clusterHealthNode(`${ c.name }-wk-01`, `${ c.subnet }.21`, WORKER, stop === 'joinUrl' ? { machineId: agentId('a3f19c0e7b52') } : {}),
  ], now, o, {
    waitingMessage: PLANNER_STOPS[stop], waitingFailed: c.failed, waitingSince: c.since
  });

  for (const n of built.nodes) {
    const labels = n.planSecret?.metadata.labels as Record<string, string> | undefined;
    const annotations = n.planSecret?.metadata.annotations as Record<string, string> | undefined;

    // Both etcd machines' plan secrets carry the init-node mark the planner counts (initnode.go).
    if (stop === 'initNodes' && n.spec.roles.etcd && labels) {
      labels['rke.cattle.io/init-node'] = 'true';
    }
    // No control-plane machine has the join URL a worker would join through (store.go setMachineJoinURL).
    if (stop === 'joinUrl' && n.spec.roles.controlPlane) {
      delete annotations?.['rke.cattle.io/join-url'];
    }
  }

  return scenarioFrom({
    name:         `planner-${ stop === 'initNodes' ? 'init-nodes' : (stop === 'joinUrl' ? 'join-url' : stop) }`,
    title:        c.title,
    description:  c.description,
    now,
    secretMarker: o.secretMarker ?? DEFAULT_SECRET_MARKER,
  }, [built], {}, { [c.name]: ['planner-error'] });
}

/**
 * Reconciliation left paused ("CAPI cluster or RKEControlPlane is paused", pkg/capr/planner/planner.go): a worker
 * added two hours ago has no plan secret, and no rule on it alone can say why.
 */
export function reconciliationPaused(o: ScenarioOptions = {}): Scenario {
  const now = o.now ?? '2026-05-08T07:45:00Z';
  const built = clusterHealthCluster('pz-rke2', 'c-m-pz3u8s6d', [
    clusterHealthNode('pz-cp-01', '10.64.0.11', {
      etcd: true, controlPlane: true, worker: true
    }),
    clusterHealthNode('pz-wk-01', '10.64.1.11', WORKER),
    clusterHealthNode('pz-wk-02', '10.64.1.12', WORKER, {
      machineId: agentId('c3c209f65d47'), createdAgo: '2h', planSecret: false, node: 'never-registered'
    }),
  ], now, o);

  // Its CAPI Cluster was paused 3 h ago (spec.paused); the planner marks the cluster provisioned, then stops at
  // the pause before it reaches any tier.
  const capi = built.local.find((x) => x.kind === 'Cluster' && x.apiVersion.startsWith('cluster.x-k8s.io/')) as Record<string, any>;

  capi.spec.paused = true;
  capi.status.v1beta2.conditions = [{
    type: 'Paused', status: 'True', reason: 'Paused', message: 'Cluster spec.paused is set to true', lastTransitionTime: ago(now, '3h'), observedGeneration: 3
  }];
  // The planner stops at the pause before it reaches any machine (pkg/capr/planner/planner.go Process): the worker
  // added since has no Reconciled condition from it.
  const unplanned = built.local.find((x) => x.kind === 'Machine' && x.metadata.name === CLUSTER_HEALTH_MACHINES.unplanned) as Record<string, any>;

  unplanned.status.conditions = unplanned.status.conditions.filter((c: { type: string }) => c.type !== 'Reconciled');
  setRancherCondition(provisioningClusterOf(built), {
    type: 'Provisioned', status: 'True', lastUpdateTime: ago(now, '200d')
  });
  setRancherCondition(provisioningClusterOf(built), {
    type: 'Updated', status: 'Unknown', reason: 'Waiting', message: 'CAPI cluster or RKEControlPlane is paused', lastUpdateTime: ago(now, '3h'), lastTransitionTime: ago(now, '3h')
  });

  return scenarioFrom({
    name:         'reconciliation-paused',
    title:        'Reconciliation paused',
    description:  'RKE2 custom cluster whose reconciliation has been paused for 3 h; a worker added since has no plan secret.',
    now,
    secretMarker: o.secretMarker ?? DEFAULT_SECRET_MARKER,
  }, [built], { [CLUSTER_HEALTH_MACHINES.unplanned]: ['plan-secret-missing', 'waiting-for-node-ref'] }, { 'pz-rke2': ['reconciliation-paused'] });
}

export const MHC_BLOCKED_MACHINES = [nodeDriverMachineName('vs-mhc', 'wk', 'wk-2'), nodeDriverMachineName('vs-mhc', 'wk', 'wk-3')];

/**
 * A pool with Auto Replace whose health check found two of its three workers unhealthy and, because its
 * maxUnhealthy is 1, replaces neither (cluster-api's "Remediation is not allowed, the number of not started or
 * unhealthy machines exceeds maxUnhealthy (total: 3, unhealthy: …, maxUnhealthy: 1)", as in
 * teutonet/teutonet-helm-charts#596): the workers lost their rack's network 35 min ago; on the machines,
 * HealthCheckSucceeded False ("Condition Ready on node is reporting status Unknown for more than 5m0s") and no
 * OwnerRemediated, because remediation never started.
 */
export function healthCheckBlocked(o: ScenarioOptions = {}): Scenario {
  const now = o.now ?? '2026-07-02T14:05:00Z';
  const pooled = (pool: string, key: string, rest: PooledSpec): NodeSpec => pooledNode('vs-mhc', pool, key, rest);
  const lost = {
    status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.', since: '35m'
  } as const;
  const built = buildCluster(clusterBuild({
    name:              'vs-mhc',
    mgmtId:            'c-m-h7c4k2rm',
    kind:              'node-driver',
    kubernetesVersion: 'v1.31.5+rke2r1',
    createdAgo:        '90d',
    nodes:             [
      pooled('cp', 'cp-1', {
        roles: { etcd: true, controlPlane: true }, address: '172.16.70.11', createdAgo: '90d'
      }),
      pooled('wk', 'wk-1', {
        roles: { worker: true }, address: '172.16.71.21', createdAgo: '90d'
      }),
      pooled('wk', 'wk-2', {
        roles: { worker: true }, address: '172.16.71.22', createdAgo: '90d', node: 'not-ready', notReady: lost
      }),
      pooled('wk', 'wk-3', {
        roles: { worker: true }, address: '172.16.71.23', createdAgo: '90d', node: 'not-ready', notReady: lost
      }),
    ],
    machinePools: [
      {
        name: 'cp', quantity: 1, roles: { etcd: true, controlPlane: true }
      },
      {
        name:                 'wk',
        quantity:             3,
        roles:                { worker: true },
        unhealthyNodeTimeout: '5m0s',
        maxUnhealthy:         '1',
        remediation:          {
          allowed: false, ago: '30m', message: 'Remediation is not allowed, the number of not started or unhealthy machines exceeds maxUnhealthy (total: 3, unhealthy: 2, maxUnhealthy: 1)'
        },
      },
    ],
  }, now, o));

  for (const name of MHC_BLOCKED_MACHINES) {
    setMachineCondition(builtNode(built, name), {
      type: 'HealthCheckSucceeded', status: 'False', severity: 'Warning', reason: 'UnhealthyNode', message: 'Condition Ready on node is reporting status Unknown for more than 5m0s', lastTransitionTime: ago(now, '30m')
    });
  }
  const check = built.local.find((x) => x.kind === 'MachineHealthCheck') as Record<string, any>;

  check.status.currentHealthy = 1;

  const scenario = scenarioFrom({
    name:         'health-check-blocked',
    title:        'Auto Replace blocked: too many unhealthy machines',
    description:  'vSphere cluster whose worker pool has Auto Replace (5 min, maxUnhealthy 1); two of its three workers lost their network 35 min ago and the health check may replace neither.',
    now,
    secretMarker: o.secretMarker ?? DEFAULT_SECRET_MARKER,
  }, [built], Object.fromEntries(MHC_BLOCKED_MACHINES.map((m) => [m, ['node-not-ready', 'machine-signal'] as FailureFamily[]])), { 'vs-mhc': ['health-check-cannot-remediate'] });
  const downstream = (scenario.downstream[built.cluster.mgmtId] ??= []);

  // As the node lifecycle controller and Cluster API's health check record them (cluster-api 1.10 wording).
  for (const name of MHC_BLOCKED_MACHINES) {
    const n = builtNode(built, name);

    if (n.node) {
      downstream.push(event({
        about: n.node as KubeObject, reason: 'NodeNotReady', message: `Node ${ n.nodeName } status is now: NodeNotReady`, component: 'node-controller', first: ago(now, '35m')
      }));
    }
    scenario.objects.push(event({
      about: n.machine as KubeObject, reason: 'DetectedUnhealthy', message: `Machine ${ n.machine.metadata.namespace }/${ name } has unhealthy Node ${ n.nodeName }`, component: 'machinehealthcheck-controller', first: ago(now, '30m'), last: ago(now, '1m'), count: 29
    }));
  }

  return scenario;
}

export const KUBELET_SKEW_MACHINE = customMachineName(agentId('4f0d2b9e6a13'));

/**
 * An upgrade stuck "waiting for kubelet to update" although the node was updated (harvester#6041,
 * harvester/docs#604): the Node reports the new kubelet, the Machine's copy still the old one, because
 * capi-controller-manager lost its watch on the downstream Nodes. Nodes not reached yet are only queued.
 */
export function kubeletSkew(o: ScenarioOptions = {}): Scenario {
  const now = o.now ?? '2026-06-19T09:10:00Z';
  const from = 'v1.26.15+rke2r1';
  const to = 'v1.27.13+rke2r1';
  const waiting = 'waiting for kubelet to update';
  const built = buildCluster(clusterBuild({
    name:              'hv-rke2',
    mgmtId:            'c-m-hv6k1s3u',
    kind:              'custom',
    kubernetesVersion: from,
    createdAgo:        '300d',
    nodes:             [
      {
        hostname: 'hv-node-01',
        roles:    {
          etcd: true, controlPlane: true, worker: true
        },
        address:    '10.52.0.11',
        createdAgo: '300d'
      },
      {
        hostname: 'hv-node-02', machineId: agentId('4f0d2b9e6a13'), roles: { controlPlane: true, worker: true }, address: '10.52.0.12', createdAgo: '300d', reconciledMessage: waiting, planUpdatedAgo: '3h'
      },
      {
        hostname: 'hv-node-03', roles: { controlPlane: true, worker: true }, address: '10.52.0.13', createdAgo: '300d'
      },
      {
        hostname: 'hv-node-04', roles: { worker: true }, address: '10.52.0.14', createdAgo: '280d'
      },
    ],
    waitingMessage: `configuring control plane node(s) ${ KUBELET_SKEW_MACHINE }: ${ waiting }`,
    waitingSince:   '3h',
  }, now, o));
  const cluster = provisioningClusterOf(built);

  cluster.spec.kubernetesVersion = to;
  for (const host of ['hv-node-01', 'hv-node-02']) {
    const n = builtNode(built, host);
    const node = n.node as NodeObject;

    node.status.nodeInfo.kubeletVersion = to;
    node.status.nodeInfo.kubeProxyVersion = to;
    if (host === 'hv-node-01') {
      machineStatus(n).nodeInfo = { ...node.status.nodeInfo };
      n.machine.spec.version = to;
    }
  }

  return scenarioFrom({
    name:         'kubelet-skew',
    title:        'Upgrade waiting for kubelet to update',
    description:  `RKE2 cluster upgrading from ${ from } to ${ to }. Machine ${ KUBELET_SKEW_MACHINE } (hv-node-02) holds the upgrade ` +
      '"waiting for kubelet to update" for three hours: its Node already reports the new kubelet, its Machine still the old one.',
    now,
    secretMarker: o.secretMarker ?? DEFAULT_SECRET_MARKER,
  }, [built], { [KUBELET_SKEW_MACHINE]: ['kubelet-version-skew', 'blocking-cluster-operation'] });
}

export const DRAINING_MACHINE = customMachineName(agentId('9a6e3d0f2c71'));

/**
 * An upgrade with draining enabled that cannot evict a pod (rancher#37503, #36669, #48752): the worker stays
 * cordoned, Node spec.unschedulable with the unschedulable taint for five hours, and the cluster says
 * "draining worker node(s) <machine>: draining node".
 */
export function drainStuck(o: ScenarioOptions = {}): Scenario {
  const now = o.now ?? '2026-05-21T13:20:00Z';
  const built = buildCluster(clusterBuild({
    name:              'drain-rke2',
    mgmtId:            'c-m-dr5n9q2w',
    kind:              'custom',
    kubernetesVersion: 'v1.30.9+rke2r1',
    createdAgo:        '200d',
    nodes:             [
      {
        hostname: 'dr-cp-01', roles: { etcd: true, controlPlane: true }, address: '10.70.0.11', createdAgo: '200d'
      },
      {
        hostname: 'dr-worker-01', roles: { worker: true }, address: '10.70.1.11', createdAgo: '200d'
      },
      {
        hostname: 'dr-worker-02', machineId: agentId('9a6e3d0f2c71'), roles: { worker: true }, address: '10.70.1.12', createdAgo: '200d', reconciledMessage: 'draining node', planUpdatedAgo: '5h'
      },
    ],
    waitingMessage: `draining worker node(s) ${ DRAINING_MACHINE }: draining node`,
    waitingSince:   '5h',
  }, now, o));
  const cluster = provisioningClusterOf(built);

  cluster.spec.rkeConfig.upgradeStrategy.workerDrainOptions.enabled = true;
  const node = builtNode(built, 'dr-worker-02').node as NodeObject;

  node.spec.unschedulable = true;
  node.spec.taints = [...(node.spec.taints ?? []), {
    key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule', timeAdded: ago(now, '5h')
  }];

  return scenarioFrom({
    name:         'drain-stuck',
    title:        'Worker stuck draining',
    description:  `RKE2 cluster with worker draining enabled. Worker ${ DRAINING_MACHINE } (dr-worker-02) has been cordoned for five hours; ` +
      'the cluster waits "draining node".',
    now,
    secretMarker: o.secretMarker ?? DEFAULT_SECRET_MARKER,
  }, [built], { [DRAINING_MACHINE]: ['drain-stuck', 'blocking-cluster-operation'] });
}

export const DUPLICATE_NAME_MACHINE = customMachineName(agentId('c0b8e4a2d6f1'));
export const DUPLICATE_NAME_HOLDER = customMachineName(agentId('2a7c5e9b1d04'));

/**
 * Two hosts with one host name (rke2#1916): machine custom-2a7c5e9b1d04 has the Node worker-01; a second host
 * called worker-01 registered two hours ago as custom-c0b8e4a2d6f1, its kubelet is refused ("Node password
 * rejected, duplicate hostname") and its machine waits for its node ref.
 */
export function duplicateNodeName(o: ScenarioOptions = {}): Scenario {
  const now = o.now ?? '2026-03-03T07:40:00Z';
  const built = buildCluster(clusterBuild({
    name:              'dup-rke2',
    mgmtId:            'c-m-dp3h8v1x',
    kind:              'custom',
    kubernetesVersion: 'v1.29.12+rke2r1',
    createdAgo:        '150d',
    // Since the second worker-01 registered and its plan was written, not since the cluster was made.
    waitingSince:      '1h58m',
    nodes:             [
      {
        hostname: 'master-01', roles: { etcd: true, controlPlane: true }, address: '192.168.10.11', createdAgo: '150d'
      },
      {
        hostname: 'worker-01', machineId: agentId('2a7c5e9b1d04'), roles: { worker: true }, address: '192.168.10.21', createdAgo: '150d'
      },
      {
        hostname: 'worker-02', roles: { worker: true }, address: '192.168.10.22', createdAgo: '150d'
      },
      {
        hostname:        'worker-01',
        machineId:       agentId('c0b8e4a2d6f1'),
        roles:           { worker: true },
        address:         '192.168.10.23',
        createdAgo:      '2h',
        node:            'never-registered',
        agent:           'probes-failing',
        unhealthyProbes: ['kubelet'],
        planUpdatedAgo:  '1h58m',
      },
    ],
  }, now, o));

  return scenarioFrom({
    name:         'duplicate-node-name',
    title:        'Two hosts with one node name',
    description:  `RKE2 custom cluster. Machine ${ DUPLICATE_NAME_MACHINE } expects node worker-01, which machine ${ DUPLICATE_NAME_HOLDER } ` +
      'already has: its kubelet is refused and it has waited two hours for its node ref.',
    now,
    secretMarker: o.secretMarker ?? DEFAULT_SECRET_MARKER,
  }, [built], { [DUPLICATE_NAME_MACHINE]: ['duplicate-node-name', 'waiting-for-node-ref', 'probes-failing', 'blocking-cluster-operation'] });
}

/**
 * kube-controller-manager and kube-scheduler serving certificates expired after a year (rancher#41125,
 * harvester#3863): on the 400-day-old servers only those two probes fail, and the cluster waits
 * "waiting for probes: kube-controller-manager, kube-scheduler". As in rancher#41125 ("the problem appears after
 * we edit the cluster to upgrade"), an upgrade 6 h ago wrote the servers new plans, whose probes the planner waits for.
 */
export function servingCerts(o: ScenarioOptions = {}): Scenario {
  const now = o.now ?? '2026-05-06T18:50:00Z';
  const server = (i: number, id: string): NodeSpec => ({
    hostname:        `old-cp-0${ i }`,
    machineId:       agentId(id),
    roles:           { etcd: true, controlPlane: true },
    address:         `10.33.0.1${ i }`,
    createdAgo:      '400d',
    agent:           'probes-failing',
    unhealthyProbes: ['kube-controller-manager', 'kube-scheduler'],
    planUpdatedAgo:  '6h',
  });
  const built = buildCluster(clusterBuild({
    name:              'old-rke2',
    mgmtId:            'c-m-ol4c9r7t',
    kind:              'custom',
    kubernetesVersion: 'v1.25.9+rke2r1',
    createdAgo:        '400d',
    nodes:             [
      server(1, '24cb32ce8387'), server(2, '6e1a9d4b0c52'), server(3, 'b5f2c7e81a39'),
      {
        hostname: 'old-worker-01', roles: { worker: true }, address: '10.33.1.11', createdAgo: '400d'
      },
    ],
    waitingSince: '6h',
  }, now, o));
  const expected: Record<string, FailureFamily[]> = {};

  for (const n of built.nodes.filter((x) => x.spec.roles.controlPlane)) expected[n.machineName] = ['serving-certs-expired', 'probes-failing'];
  expected[built.nodes[0].machineName].push('blocking-cluster-operation');

  return scenarioFrom({
    name:         'serving-certs',
    title:        'Serving certificates expired',
    description:  'RKE2 custom cluster created 400 days ago: on its three servers only the kube-controller-manager and kube-scheduler probes ' +
      'fail, and the cluster waits for them.',
    now,
    secretMarker: o.secretMarker ?? DEFAULT_SECRET_MARKER,
  }, [built], expected);
}

/**
 * The cluster agent lost its connection to Rancher (rancher#48585, #41552): the management cluster says
 * Ready False [Disconnected] "Cluster agent is not connected" and Connected False; the nodes look healthy,
 * but what Rancher shows of them may be stale.
 */
/** The management cluster as Rancher marks it when the cluster agent's connection is lost (rancher#48585). */
function agentLost(built: BuiltCluster, since: string): void {
  const mgmt = managementClusterOf(built);

  mgmt.status.connected = false;
  setRancherCondition(mgmt, {
    type: 'Connected', status: 'False', lastUpdateTime: since
  });
  setRancherCondition(mgmt, {
    type: 'Ready', status: 'False', reason: 'Disconnected', message: 'Cluster agent is not connected', lastUpdateTime: since
  });
}

export function agentDisconnected(o: ScenarioOptions = {}): Scenario {
  const now = o.now ?? '2026-01-06T11:00:00Z';
  const built = buildCluster(clusterBuild({
    name:              'edge-k3s',
    mgmtId:            'c-m-ed2g5k8s',
    kind:              'custom',
    kubernetesVersion: 'v1.30.6+k3s1',
    createdAgo:        '90d',
    nodes:             [
      {
        hostname: 'edge-srv-01',
        roles:    {
          etcd: true, controlPlane: true, worker: true
        },
        address:    '10.88.0.11',
        createdAgo: '90d'
      },
      {
        hostname: 'edge-agt-01', roles: { worker: true }, address: '10.88.0.21', createdAgo: '90d'
      },
      {
        hostname: 'edge-agt-02', roles: { worker: true }, address: '10.88.0.22', createdAgo: '60d'
      },
    ],
  }, now, o));
  const since = ago(now, '2h');

  agentLost(built, since);
  setRancherCondition(provisioningClusterOf(built), {
    type: 'Connected', status: 'False', lastUpdateTime: since
  });

  return scenarioFrom({
    name:         'agent-disconnected',
    title:        'Cluster agent disconnected',
    description:  'K3s custom cluster whose cattle-cluster-agent lost its connection to Rancher two hours ago: the management cluster is ' +
      'Ready False (Disconnected, "Cluster agent is not connected"); the nodes look healthy but may be stale.',
    now,
    secretMarker: o.secretMarker ?? DEFAULT_SECRET_MARKER,
  }, [built], {}, { 'edge-k3s': ['cluster-agent-disconnected'] });
}

export const AGENT_WAIT_MACHINE = customMachineName(agentId('5d0c8e3b1f47'));

/**
 * The planner waits for the cluster agent while it configures a control-plane machine (rancher pkg/capr/planner,
 * `isControlPlane(entry) && !controlPlane.Status.AgentConnected`): the thread's words are
 * "configuring bootstrap node(s) custom-0fdaa5766c14: waiting for cluster agent to connect", seen after Rancher's
 * server URL and certificate changed and the agent could no longer connect.
 */
export function agentWaitBootstrap(o: ScenarioOptions = {}): Scenario {
  const now = o.now ?? '2026-05-19T06:08:45Z';
  const built = buildCluster(clusterBuild({
    name:              'tls-rke2',
    mgmtId:            'c-m-t1s5w8bq',
    kind:              'custom',
    kubernetesVersion: 'v1.31.7+rke2r1',
    createdAgo:        '40d',
    nodes:             [
      {
        hostname: 'tls-cp-01', machineId: agentId('5d0c8e3b1f47'), roles: { etcd: true, controlPlane: true }, address: '10.44.0.11', createdAgo: '40d'
      },
      {
        hostname: 'tls-wk-01', roles: { worker: true }, address: '10.44.0.21', createdAgo: '40d'
      },
    ],
    waitingMessage: `configuring bootstrap node(s) ${ AGENT_WAIT_MACHINE }: waiting for cluster agent to connect`,
    waitingSince:   '1h',
  }, now, o));

  agentLost(built, ago(now, '1h'));

  return scenarioFrom({
    name:         'agent-wait-bootstrap',
    title:        'The planner waits for the cluster agent',
    description:  `RKE2 custom cluster whose cluster agent stopped connecting after Rancher's certificate changed: the planner says "configuring bootstrap node(s) ${ AGENT_WAIT_MACHINE }: waiting for cluster agent to connect".`,
    now,
    secretMarker: o.secretMarker ?? DEFAULT_SECRET_MARKER,
  }, [built], {}, { 'tls-rke2': ['cluster-agent-disconnected'] });
}

export const PRE_BOOTSTRAP_MACHINE = customMachineName(agentId('8c41e9d2a7b5'));

/**
 * A new cluster whose pre-bootstrap Rancher has not finished (feature provisioningprebootstrap), in the words of the
 * source, no public thread having shown one: the planner says "configuring bootstrap node(s) <machine>: waiting for
 * cluster pre-bootstrap to complete" (pkg/capr/planner/planner.go reconcile, once the machine's plan is applied), the
 * management cluster's PreBootstrapped is still Unknown (clustermanager creates it so), and Rancher holds its Connected
 * False until the pre-bootstrap is done (clusterconnected.go checkCluster); Ready is untouched, the cluster not yet
 * provisioned.
 */
export function preBootstrapWait(o: ScenarioOptions = {}): Scenario {
  const now = o.now ?? '2026-08-03T09:30:00Z';
  const built = buildCluster(clusterBuild({
    name:              'pb-rke2',
    mgmtId:            'c-m-pb7s2k4d',
    kind:              'custom',
    kubernetesVersion: 'v1.31.7+rke2r1',
    createdAgo:        '55m',
    nodes:             [
      {
        hostname:  'pb-cp-01',
        machineId: agentId('8c41e9d2a7b5'),
        roles:     {
          etcd: true, controlPlane: true, worker: true
        },
        address:    '10.47.0.11',
        createdAgo: '50m'
      },
    ],
    waitingMessage: `configuring bootstrap node(s) ${ PRE_BOOTSTRAP_MACHINE }: waiting for cluster pre-bootstrap to complete`,
    waitingSince:   '40m',
  }, now, o));
  const mgmt = managementClusterOf(built);
  const since = ago(now, '45m');

  mgmt.status.connected = false;
  setRancherCondition(mgmt, {
    type: 'Connected', status: 'False', lastUpdateTime: since
  });
  setRancherCondition(mgmt, {
    type: 'PreBootstrapped', status: 'Unknown', lastUpdateTime: ago(now, '55m')
  });

  return scenarioFrom({
    name:         'pre-bootstrap-wait',
    title:        "The planner waits for Rancher's pre-bootstrap",
    description:  `New RKE2 custom cluster with pre-bootstrap on: the planner says "configuring bootstrap node(s) ${ PRE_BOOTSTRAP_MACHINE }: waiting for cluster pre-bootstrap to complete", and Rancher reports the agent disconnected until it is done.`,
    now,
    secretMarker: o.secretMarker ?? DEFAULT_SECRET_MARKER,
  }, [built], {}, { 'pb-rke2': ['pre-bootstrap-pending'] });
}

/**
 * The init node deleted (rancher#37133, #42709): no plan secret carries rke.cattle.io/init-node any more and
 * the cluster says "init node not found".
 */
export function initNodeLost(o: ScenarioOptions = {}): Scenario {
  const now = o.now ?? '2026-10-11T10:00:00Z';
  const built = buildCluster(clusterBuild({
    name:              'pool-rke2',
    mgmtId:            'c-m-pl8n3d6v',
    kind:              'custom',
    kubernetesVersion: 'v1.26.7+rke2r1',
    createdAgo:        '220d',
    nodes:             [
      {
        hostname: 'pool-master-02', roles: { etcd: true, controlPlane: true }, address: '10.12.0.12', createdAgo: '220d'
      },
      {
        hostname: 'pool-master-03', roles: { etcd: true, controlPlane: true }, address: '10.12.0.13', createdAgo: '220d'
      },
      {
        hostname: 'pool-worker-01', roles: { worker: true }, address: '10.12.1.11', createdAgo: '210d'
      },
    ],
  }, now, o));

  for (const n of built.nodes) {
    delete n.planSecret?.metadata.labels?.['rke.cattle.io/init-node'];
  }
  setRancherCondition(provisioningClusterOf(built), {
    type: 'Updated', status: 'False', reason: 'Error', message: 'init node not found', lastUpdateTime: ago(now, '40m')
  });

  return scenarioFrom({
    name:         'init-node-lost',
    title:        'Init node lost',
    description:  'RKE2 custom cluster whose init node was deleted when its server pool was rotated: no plan secret is marked as the ' +
      'init node, and the cluster says "init node not found".',
    now,
    secretMarker: o.secretMarker ?? DEFAULT_SECRET_MARKER,
  }, [built], {}, { 'pool-rke2': ['init-node-missing'] });
}

export const VIABLE_INIT_MACHINE = 'test-pool1-caf32326-b96cp';

/**
 * A new vSphere cluster whose only etcd machine never has its infrastructure ready (rancher-docs#585; rancher#42192,
 * #46248 on Harvester): the create job keeps running ("[machineprovision] fleet-default/test-pool1-caf32326-b96cp:
 * reconciling machine job"), the infrastructure machine says "creating server [...] in infrastructure provider" on
 * Ready False (machineprovision getMachineStatus, ExecutingMachineMessage) and the Machine mirrors it. The planner
 * elects only an etcd machine that is not deleting, not Failed and whose InfrastructureReady is True (planentry.go
 * canBeInitNode), so it says "waiting for viable init node" (initnode.go electInitNode) and writes no plan at all.
 */
export function viableInitNode(o: ScenarioOptions = {}): Scenario {
  const now = o.now ?? '2023-04-28T19:05:00Z';
  const built = buildCluster(clusterBuild({
    name:              'test',
    mgmtId:            'c-m-7x2kqv9d',
    kind:              'node-driver',
    kubernetesVersion: 'v1.25.7+rke2r1',
    createdAgo:        '41m',
    nodes:             [
      {
        hostname:    VIABLE_INIT_MACHINE,
        machineName: VIABLE_INIT_MACHINE,
        pool:        'pool1',
        roles:       {
          etcd: true, controlPlane: true, worker: true
        },
        address:    '10.20.30.41',
        createdAgo: '40m',
        agent:      'never-checked-in',
        node:       'never-registered',
      },
    ],
    machinePools: [
      {
        name:     'pool1',
        quantity: 1,
        roles:    {
          etcd: true, controlPlane: true, worker: true
        }
      },
    ],
    waitingMessage: 'waiting for viable init node',
    waitingSince:   '38m',
  }, now, o));
  const n = builtNode(built, VIABLE_INIT_MACHINE);
  const infra = n.infraMachine as Record<string, any>;
  const createdAt = n.machine.metadata.creationTimestamp as string;
  const creating = `creating server [${ infra.metadata.namespace }/${ infra.metadata.name }] of kind (VmwarevsphereMachine) for machine ${ VIABLE_INIT_MACHINE } in infrastructure provider`;

  // The create job runs: only Ready, False with the job's words; no address, no providerID yet.
  infra.status = {
    ...infra.status,
    ready:      false,
    conditions: [{
      type: 'Ready', status: 'False', message: creating, lastUpdateTime: createdAt
    }]
  };
  delete infra.status.addresses;
  delete infra.spec.providerID;
  const status = machineStatus(n);

  status.conditions = [
    {
      type: 'Ready', status: 'False', message: creating, lastTransitionTime: createdAt
    },
    {
      type: 'BootstrapReady', status: 'True', lastTransitionTime: createdAt
    },
    {
      type: 'InfrastructureReady', status: 'False', message: creating, lastTransitionTime: createdAt
    },
    {
      type: 'NodeHealthy', status: 'False', severity: 'Info', reason: 'WaitingForNodeRef', lastTransitionTime: createdAt
    },
  ];
  status.phase = 'Provisioning';
  status.infrastructureReady = false;
  delete status.addresses;
  delete status.nodeInfo;
  // The planner stops before it plans anything: Rancher's plan secret holds no plan, and no one marks the init node.
  const secret = n.planSecret as Record<string, any>;

  secret.data = {};
  for (const key of ['rke.cattle.io/plan-last-updated', 'rke.cattle.io/plan-probes-passed', 'rke.cattle.io/join-url', 'rke.cattle.io/joined-to']) {
    delete secret.metadata.annotations?.[key];
  }
  delete secret.metadata.labels?.['rke.cattle.io/init-node'];

  // Its create job still runs: the vSphere driver powered the VM on and waits for VMware Tools to report an address.
  const creatingLog = [
    'Downloading driver from https://rancher.example.com/assets/docker-machine-driver-vmwarevsphere',
    'Doing /etc/rancher/ssl',
    'docker-machine-driver-vmwarevsphere',
    'Running pre-create checks...',
    'Creating machine...',
    '(test-pool1-caf32326-b96cp) Creating VM...',
    '(test-pool1-caf32326-b96cp) Reconfiguring VM',
    '(test-pool1-caf32326-b96cp) Waiting for VMware Tools to come online...',
  ].join('\n');
  const scenario = scenarioFrom({
    name:         'viable-init-node',
    title:        'No etcd machine can be the init node',
    description:  `New vSphere RKE2 cluster whose only etcd machine, ${ VIABLE_INIT_MACHINE }, is still being created after 40 minutes: ` +
      'the planner says "waiting for viable init node" and plans nothing.',
    now,
    secretMarker: o.secretMarker ?? DEFAULT_SECRET_MARKER,
  }, [built], { [VIABLE_INIT_MACHINE]: ['waiting-for-node-ref'] }, { test: ['init-node-not-viable'] });

  return withHistory(scenario, [
    provisioningJob({
      infraMachine: infra as KubeObject, capiMachine: VIABLE_INIT_MACHINE, remove: false, started: ago(now, '39m'), failed: false, log: creatingLog
    }),
  ]);
}

export const JOIN_URL_WAIT_MACHINE = customMachineName(agentId('6c2e9a41d7b3'));

/**
 * Harvester's embedded Rancher, whose second node never joins (harvester#1993): for three hours Rancher logs
 * "[planner] rkecluster fleet-local/local: waiting: waiting for join url to be available on bootstrap node" while
 * the first node runs. The planner hands every other machine the init node's join URL (planner.go Process,
 * findInitNode), and the init node's plan secret has none. The thread gives no cause, and nothing else of the
 * cluster shows one: Rancher's wait is all there is to report.
 */
export function joinUrlWait(o: ScenarioOptions = {}): Scenario {
  const now = o.now ?? '2022-03-10T08:39:52Z';
  const built = buildCluster(clusterBuild({
    name:              'local',
    namespace:         'fleet-local',
    mgmtId:            'local',
    kind:              'custom',
    kubernetesVersion: 'v1.22.7+rke2r1',
    createdAgo:        '3h10m',
    nodes:             [
      {
        hostname:   'harvester-node-0',
        machineId:  agentId('6c2e9a41d7b3'),
        roles:      {
          etcd: true, controlPlane: true, worker: true
        },
        address:    '192.168.0.30',
        createdAgo: '3h10m',
      },
    ],
    waitingMessage: 'waiting for join url to be available on bootstrap node',
    waitingSince:   '3h2m23s',
  }, now, o));
  const annotations = builtNode(built, 'harvester-node-0').planSecret?.metadata.annotations;

  delete annotations?.['rke.cattle.io/join-url'];

  return scenarioFrom({
    name:         'join-url-wait',
    title:        'Rancher waits for the init node\'s join URL',
    description:  'Harvester\'s own cluster, whose only node runs while Rancher says for three hours "waiting for join url to be available ' +
      'on bootstrap node", and a second node never joins.',
    now,
    secretMarker: o.secretMarker ?? DEFAULT_SECRET_MARKER,
  }, [built], {}, { local: ['unexplained-cluster-wait'] });
}

/* ------------------------------------------------------------------------------------------------ */

export const V1BETA2_NODE_GONE_MACHINE = 'custom-4e7a1c9d2b60';
export const V1BETA2_NO_NODE_MACHINE = 'custom-5f8b2d0e3c71';
export const V1BETA2_DELETING_MACHINE = 'custom-6a9c3e1f4d82';
export const V1BETA2_AGENT_MACHINE = 'custom-7b0d4f2a5e93';

/**
 * A cluster as Rancher 2.14 serves it: Cluster API v1beta2 Machines (contract references
 * `{apiGroup, kind, name}`, `nodeRef: {name}`, metav1 conditions with NodeDeleted and Deleting, the old
 * conditions under status.deprecated.v1beta1). Owner references name the Machines at v1beta2 too.
 */
export function capiV1beta2(o: ScenarioOptions = {}): Scenario {
  const now = o.now ?? '2026-09-01T09:00:00Z';
  const m = (prefix: string) => ({ machineId: agentId(prefix) });
  const server = (n: number): NodeSpec => ({
    hostname: `v2-cp-0${ n }`, ...m(`0b2c3d4e5f6${ n }`), roles: { etcd: true, controlPlane: true }, address: `10.14.0.1${ n }`, createdAgo: '30d'
  });
  const built = buildCluster(clusterBuild({
    name:              'v2-rke2',
    mgmtId:            'c-m-v2b8t4qe',
    kind:              'custom',
    kubernetesVersion: 'v1.33.3+rke2r1',
    createdAgo:        '30d',
    // Since the machine it names registered.
    waitingSince:      '2h',
    nodes:             [
      server(1), server(2), server(3),
      {
        hostname: 'v2-wk-ok', ...m('1c3d5e7f9a0b'), roles: { worker: true }, address: '10.14.1.10', createdAgo: '29d'
      },
      {
        hostname: 'v2-wk-node-gone', ...m('4e7a1c9d2b60'), roles: { worker: true }, address: '10.14.1.11', createdAgo: '20d', node: 'deleted'
      },
      {
        hostname: 'v2-wk-no-node', ...m('5f8b2d0e3c71'), roles: { worker: true }, address: '10.14.1.12', createdAgo: '45m', node: 'never-registered'
      },
      {
        hostname: 'v2-wk-deleting', ...m('6a9c3e1f4d82'), roles: { worker: true }, address: '10.14.1.13', createdAgo: '15d', deleting: { ago: '50m', blockedBy: 'drain' }
      },
      {
        hostname: 'v2-wk-agent-gone', ...m('7b0d4f2a5e93'), roles: { worker: true }, address: '10.14.1.14', createdAgo: '2h', agent: 'never-checked-in', node: 'never-registered'
      },
    ],
  }, now, o));
  const atV1beta2 = (obj: KubeObject): KubeObject => {
    const refs = obj.metadata.ownerReferences;

    return refs ? { ...obj, metadata: { ...obj.metadata, ownerReferences: refs.map((r) => (r.apiVersion === CAPI_V1BETA1 ? { ...r, apiVersion: CAPI_V1BETA2 } : r)) } } : obj;
  };

  built.local = machinesToV1beta2(built.local).map(atV1beta2);

  return scenarioFrom({
    name:         'capi-v1beta2',
    title:        'Cluster API v1beta2 (Rancher 2.14)',
    description:  `RKE2 custom cluster served as Rancher 2.14 does, with v1beta2 Machines: ${ V1BETA2_NODE_GONE_MACHINE }'s Node was deleted, ` +
      `${ V1BETA2_NO_NODE_MACHINE } waits for its Node, ${ V1BETA2_DELETING_MACHINE } hangs draining, ${ V1BETA2_AGENT_MACHINE }'s agent never checked in.`,
    now,
    secretMarker: o.secretMarker ?? DEFAULT_SECRET_MARKER,
  }, [built], {
    [V1BETA2_NODE_GONE_MACHINE]: ['node-missing'],
    [V1BETA2_NO_NODE_MACHINE]:   ['waiting-for-node-ref'],
    [V1BETA2_DELETING_MACHINE]:  ['stuck-deleting'],
    [V1BETA2_AGENT_MACHINE]:     ['agent-never-checked-in', 'blocking-cluster-operation'],
  });
}

/* ------------------------------------------------------------------------------------------------ */

export const JOIN_KEY_MACHINES = {
  /** its Node carries only the rke.cattle.io/machine label: registered minutes ago, before Cluster API sets nodeRef */
  label:      'custom-1a2b3c4d5e6f',
  /** only the Machine's status.nodeRef names its Node */
  nodeRef:    'custom-2b3c4d5e6f70',
  /** only the Node's cluster.x-k8s.io/machine annotation names its Machine */
  annotation: 'custom-3c4d5e6f7081',
  /** its Node's label names it, while the Node's stale annotation names the `annotation` machine */
  disagree:   'custom-4d5e6f708192',
} as const;

/**
 * Nodes each linked to their machine by one key only, and one whose keys disagree: how real Nodes look between
 * registering and Cluster API catching up, or after a re-registration. Every node is healthy and joined to its
 * own machine; a join that missed any one key would leave a machine without its Node.
 */
export function joinKeys(o: ScenarioOptions = {}): Scenario {
  const now = o.now ?? '2026-10-01T12:00:00Z';
  // Linked only by the label or the annotation, a machine has no nodeRef yet: it registered minutes ago.
  const worker = (name: string, id: string, address: string, createdAgo = '12d'): NodeSpec => ({
    hostname: name, machineId: agentId(id), roles: { worker: true }, address, createdAgo
  });
  const built = buildCluster(clusterBuild({
    name:              'keys-rke2',
    mgmtId:            'c-m-k3y5j0n1',
    kind:              'custom',
    kubernetesVersion: 'v1.31.6+rke2r1',
    createdAgo:        '40d',
    nodes:             [
      {
        hostname:  'keys-cp-01',
        machineId: agentId('0c1d2e3f4a5b'),
        roles:     {
          etcd: true, controlPlane: true, worker: true
        },
        address:    '10.31.0.11',
        createdAgo: '40d'
      },
      worker('keys-wk-label', '1a2b3c4d5e6f', '10.31.1.11', '5m'),
      worker('keys-wk-noderef', '2b3c4d5e6f70', '10.31.1.12'),
      worker('keys-wk-annotation', '3c4d5e6f7081', '10.31.1.13', '5m'),
      worker('keys-wk-disagree', '4d5e6f708192', '10.31.1.14'),
    ],
  }, now, o));
  const nodeOf = (machine: string) => built.downstream.find((n) => n.kind === 'Node' && n.metadata.annotations?.['cluster.x-k8s.io/machine'] === machine) as KubeObject;
  const machineNamed = (name: string) => built.local.find((x) => x.kind === 'Machine' && x.metadata.name === name) as KubeObject;
  const keep = (node: KubeObject, machine: KubeObject, keys: { label?: boolean, annotation?: string | null, nodeRef?: boolean }) => {
    if (!keys.label) {
      delete node.metadata.labels?.['rke.cattle.io/machine'];
    }
    if (keys.annotation === null) {
      delete node.metadata.annotations?.['cluster.x-k8s.io/machine'];
      delete node.metadata.annotations?.['cluster.x-k8s.io/owner-name'];
    } else if (keys.annotation) {
      node.metadata.annotations = { ...node.metadata.annotations, 'cluster.x-k8s.io/machine': keys.annotation };
    }
    if (!keys.nodeRef) {
      delete (machine.status as Record<string, unknown>).nodeRef;
    }
  };
  const nodes = Object.fromEntries(Object.values(JOIN_KEY_MACHINES).map((name) => [name, nodeOf(name)]));

  keep(nodes[JOIN_KEY_MACHINES.label], machineNamed(JOIN_KEY_MACHINES.label), { label: true, annotation: null });
  keep(nodes[JOIN_KEY_MACHINES.nodeRef], machineNamed(JOIN_KEY_MACHINES.nodeRef), { nodeRef: true, annotation: null });
  keep(nodes[JOIN_KEY_MACHINES.annotation], machineNamed(JOIN_KEY_MACHINES.annotation), {});
  keep(nodes[JOIN_KEY_MACHINES.disagree], machineNamed(JOIN_KEY_MACHINES.disagree), {
    label: true, annotation: JOIN_KEY_MACHINES.annotation, nodeRef: true
  });

  return scenarioFrom({
    name:         'join-keys',
    title:        'Nodes linked by one key, and by two that disagree',
    description:  'RKE2 custom cluster whose workers are each linked to their machine by one key only (the machine label, the ' +
      'Machine\'s nodeRef, the machine annotation), and one whose label and annotation name different machines. All healthy.',
    now,
    secretMarker: o.secretMarker ?? DEFAULT_SECRET_MARKER,
  }, [built], {});
}

/* ------------------------------------------------------------------------------------------------ */

export interface LargeOptions extends ScenarioOptions {
  seed?: number | string;
  /** share of workers that get a failure (default 0.03) */
  brokenFraction?: number;
  /** the cluster's name, management id, namespace and host name prefix (default big-rke2, c-m-b1g9x7qz, fleet-default, big) */
  cluster?: { name: string; mgmtId: string; namespace?: string; hostPrefix: string };
}

type LargeFamily = Exclude<FailureFamily, 'blocking-cluster-operation' | 'etcd-removal-hook-blocked'>;

const LARGE_FAMILIES: readonly LargeFamily[] = [
  'agent-never-checked-in', 'plan-not-applied', 'plan-apply-failed', 'probes-failing', 'stuck-deleting',
  'waiting-for-node-ref', 'infrastructure-missing', 'node-name-mismatch', 'orphan-node', 'node-missing',
  'node-not-ready', 'plan-secret-missing', 'machine-missing', 'windows-version-unsupported', 'windows-memory-low',
];

function brokenWorker(family: LargeFamily, base: NodeSpec): NodeSpec {
  switch (family) {
  case 'agent-never-checked-in': return {
    ...base, createdAgo: '4h', agent: 'never-checked-in', node: 'never-registered'
  };
  case 'plan-not-applied': return {
    ...base, agent: 'plan-pending', planUpdatedAgo: '30m'
  };
  case 'plan-apply-failed': return {
    ...base, agent: 'plan-failed', planUpdatedAgo: '50m'
  };
  case 'probes-failing': return {
    ...base, agent: 'probes-failing', unhealthyProbes: ['kubelet']
  };
  case 'stuck-deleting': return { ...base, deleting: { ago: '1h', blockedBy: 'drain' } };
  case 'waiting-for-node-ref': return {
    ...base, createdAgo: '90m', node: 'never-registered'
  };
  case 'infrastructure-missing': return { ...base, infra: 'deleted' };
  case 'node-name-mismatch': return {
    ...base, hostname: base.hostname.toUpperCase(), nodeNameLabel: base.hostname.toUpperCase(), os: 'windows', node: 'unlinked'
  };
  case 'node-missing': return { ...base, node: 'deleted' };
  case 'node-not-ready': return {
    ...base, node: 'not-ready', notReady: { status: 'Unknown', since: '40m' }
  };
  case 'plan-secret-missing': return { ...base, planSecret: false };
  case 'windows-version-unsupported': return {
    ...base, os: 'windows', osImage: 'Windows Server 2016 Datacenter'
  };
  case 'windows-memory-low': return {
    ...base, os: 'windows', osImage: 'Windows Server 2019 Datacenter', memoryKi: 2096612
  };
  default: return base;
  }
}

/** The cluster of the `large-<n>` scenarios. */
export const LARGE_CLUSTER: NonNullable<LargeOptions['cluster']> = {
  name: 'big-rke2', mgmtId: 'c-m-b1g9x7qz', hostPrefix: 'big'
};

/** The cluster of `huge-10000`: a name of its own, so that it can be served beside a `large-<n>` one. */
export const HUGE_CLUSTER: NonNullable<LargeOptions['cluster']> = {
  name: 'huge-rke2', mgmtId: 'c-m-hug3x10k', hostPrefix: 'huge'
};

/**
 * A synthetic custom cluster of `n` nodes with every object per node; about `brokenFraction` of the
 * workers carry a failure, chosen by a seeded generator (same seed, same cluster).
 */
export function large(n: number, o: LargeOptions = {}): Scenario {
  if (!Number.isInteger(n) || n < 1) throw new Error(`large(): node count must be a positive integer, got ${ n }`);
  const now = o.now ?? '2026-08-01T00:00:00Z';
  const seed = o.seed ?? 1;
  const fraction = o.brokenFraction ?? 0.03;
  const rng = createRng(`large:${ seed }`);
  const servers = Math.min(n, n > 100 ? 5 : 3);
  const specs: NodeSpec[] = [];
  const loose: LooseNodeSpec[] = [];
  const expected: Record<string, FailureFamily[]> = {};
  const identity = o.cluster ?? LARGE_CLUSTER;
  const ctx = { name: identity.name, kind: 'custom' as const };

  for (let i = 0; i < servers; i++) {
    specs.push({
      hostname:   `${ identity.hostPrefix }-cp-${ String(i + 1).padStart(2, '0') }`,
      roles:      { etcd: true, controlPlane: true },
      address:    `10.${ 100 + (i >> 8) }.0.${ (i & 255) || 1 }`,
      createdAgo: '400d',
    });
  }
  for (let i = 0; i < n - servers; i++) {
    const hostname = `${ identity.hostPrefix }-wk-${ String(i + 1).padStart(5, '0') }`;
    const base: NodeSpec = {
      hostname,
      roles:      { worker: true },
      address:    `10.${ 128 + (i >> 16) }.${ (i >> 8) & 255 }.${ i & 255 }`,
      createdAgo: `${ rng.int(1, 390) }d`,
    };

    if (!rng.chance(fraction)) {
      specs.push(base);
      continue;
    }
    const family = rng.pick(LARGE_FAMILIES);

    if (family === 'orphan-node' || family === 'machine-missing') {
      // machine-missing: the machine and its Node are gone, Rancher's management Node is left.
      loose.push({
        name:          hostname,
        roles:         { worker: true },
        address:       base.address,
        createdAgo:    base.createdAgo,
        formerMachine: { name: `custom-${ stableHex(`former:${ seed }:${ hostname }`, 12) }` },
        downstream:    family !== 'machine-missing',
      });
      expected[hostname] = [family];
      continue;
    }
    const spec = brokenWorker(family, base);

    specs.push(spec);
    expected[machineNameFor(ctx, spec)] = [family];
  }

  const built = buildCluster(clusterBuild({
    name:              identity.name,
    namespace:         identity.namespace,
    mgmtId:            identity.mgmtId,
    kind:              'custom',
    kubernetesVersion: 'v1.30.4+rke2r1',
    createdAgo:        '400d',
    nodes:             specs,
    looseNodes:        loose,
    waitingSince:      '4h',
  }, now, o));

  return scenarioFrom({
    name:         `large-${ n }`,
    title:        `Synthetic cluster of ${ n } nodes`,
    description:  `RKE2 custom cluster with ${ n } nodes (${ servers } etcd + control plane), seed ${ seed }, about ${ Math.round(fraction * 1000) / 10 }% of workers broken.`,
    now,
    secretMarker: o.secretMarker ?? DEFAULT_SECRET_MARKER,
  }, [built], expected);
}

/* ------------------------------------------------------------------------------------------------ */

export const SIGNAL_MACHINES = {
  diskPressure: customMachineName(agentId('5d1e8a3c7b92')),
  readonlyFs:   customMachineName(agentId('6e2f9b4d8ca3')),
  outOfService: customMachineName(agentId('7f30ac5e9db4')),
  paused:       customMachineName(agentId('8041bd6fae05')),
  healthCheck:  customMachineName(agentId('9152ce70bf16')),
  staleStatus:  customMachineName(agentId('a263df81c027')),
};

/** A kubelet's last write of its Node, kept as it was: every condition's heartbeat is that moment, nothing since. */
function lastWrittenAt(node: NodeObject, at: string): void {
  node.status.conditions = node.status.conditions.map((c) => ({ ...c, lastHeartbeatTime: at }));
}

/**
 * What Kubernetes, node-problem-detector and Cluster API write on a node, one signal per worker of an
 * otherwise healthy RKE2 cluster, in the writers' own words: the kubelet's DiskPressure ("kubelet has disk
 * pressure") with its taint, node-problem-detector's ReadonlyFilesystem ("Remounting filesystem read-only"),
 * the non-graceful shutdown taint `node.kubernetes.io/out-of-service`, a Machine left with
 * `cluster.x-k8s.io/paused`, a MachineHealthCheck's verdict ("Condition Ready on node is reporting status
 * Unknown for more than 5m0s") waiting for remediation, and a Node still Ready from a status its kubelet wrote 38
 * minutes ago that nothing marked Unknown (the kubelet renews its Lease but cannot write its status: its log says
 * "Error updating node status, will retry"), as rancher/rancher#13578 shows Nodes Ready long after their hosts went.
 */
export function nodeSignals(o: ScenarioOptions = {}): Scenario {
  const now = o.now ?? '2026-06-02T09:40:00Z';
  const worker = (hostname: string, id: string, address: string): NodeSpec => ({
    hostname, machineId: agentId(id), roles: { worker: true }, address, createdAgo: '90d'
  });
  const built = buildCluster(clusterBuild({
    name:              'signals-rke2',
    mgmtId:            'c-m-s1gn4l5x',
    kind:              'custom',
    kubernetesVersion: 'v1.31.5+rke2r1',
    createdAgo:        '90d',
    nodes:             [
      {
        hostname: 'sg-cp-01', roles: { etcd: true, controlPlane: true }, address: '10.80.0.11', createdAgo: '90d'
      },
      worker('sg-worker-01', '5d1e8a3c7b92', '10.80.1.11'),
      worker('sg-worker-02', '6e2f9b4d8ca3', '10.80.1.12'),
      worker('sg-worker-03', '7f30ac5e9db4', '10.80.1.13'),
      worker('sg-worker-04', '8041bd6fae05', '10.80.1.14'),
      worker('sg-worker-05', '9152ce70bf16', '10.80.1.15'),
      worker('sg-worker-06', 'a263df81c027', '10.80.1.16'),
    ],
  }, now, o));
  const node = (host: string) => builtNode(built, host).node as NodeObject;
  const setCondition = (n: NodeObject, c: Record<string, string>) => {
    n.status.conditions = [...n.status.conditions.filter((x) => x.type !== c.type), { lastHeartbeatTime: ago(now, '10s'), ...c } as NodeObject['status']['conditions'][number]];
  };
  const disk = node('sg-worker-01');

  setCondition(disk, {
    type: 'DiskPressure', status: 'True', reason: 'KubeletHasDiskPressure', message: 'kubelet has disk pressure', lastTransitionTime: ago(now, '47m')
  });
  disk.spec.taints = [...(disk.spec.taints ?? []), {
    key: 'node.kubernetes.io/disk-pressure', effect: 'NoSchedule', timeAdded: ago(now, '47m')
  }];
  setCondition(node('sg-worker-02'), {
    type: 'ReadonlyFilesystem', status: 'True', reason: 'FilesystemIsReadOnly', message: 'Remounting filesystem read-only', lastTransitionTime: ago(now, '3h')
  });
  const shutDown = node('sg-worker-03');

  shutDown.spec.taints = [...(shutDown.spec.taints ?? []), {
    key: 'node.kubernetes.io/out-of-service', value: 'nodeshutdown', effect: 'NoExecute', timeAdded: ago(now, '2h')
  }];
  lastWrittenAt(node('sg-worker-06'), ago(now, '38m'));
  // Its kubelet runs: it renewed its Lease seconds ago, only its writes of the Node's status fail.
  built.downstream.push(nodeLease(node('sg-worker-06'), now, ago(now, '7s')) as KubeLease);
  for (const host of ['sg-worker-01', 'sg-worker-02', 'sg-worker-03', 'sg-worker-06']) recopyNode(builtNode(built, host).managementNode, node(host));
  const paused = builtNode(built, 'sg-worker-04').machine as KubeObject;

  paused.metadata.annotations = { ...(paused.metadata.annotations ?? {}), 'cluster.x-k8s.io/paused': '' };
  const unhealthy = builtNode(built, 'sg-worker-05').machine as Record<string, any>;

  unhealthy.status.conditions = [
    ...unhealthy.status.conditions,
    {
      type: 'HealthCheckSucceeded', status: 'False', severity: 'Warning', reason: 'UnhealthyNode', message: 'Condition Ready on node is reporting status Unknown for more than 5m0s', lastTransitionTime: ago(now, '25m')
    },
    {
      type: 'OwnerRemediated', status: 'False', severity: 'Warning', reason: 'WaitingForRemediation', message: 'Waiting for remediation', lastTransitionTime: ago(now, '25m')
    },
  ];

  return scenarioFrom({
    name:         'node-signals',
    title:        'What the kubelet, node-problem-detector and Cluster API report',
    description:  'RKE2 custom cluster whose workers each show one signal: disk pressure, a read-only filesystem, the out-of-service taint, a paused machine, a failed machine health check, a Node status nothing has written for 38 minutes.',
    now,
    secretMarker: o.secretMarker ?? DEFAULT_SECRET_MARKER,
  }, [built], {
    [SIGNAL_MACHINES.diskPressure]: ['node-condition'],
    [SIGNAL_MACHINES.readonlyFs]:   ['node-condition'],
    [SIGNAL_MACHINES.outOfService]: ['node-taint'],
    [SIGNAL_MACHINES.paused]:       ['machine-signal'],
    [SIGNAL_MACHINES.healthCheck]:  ['machine-signal', 'machine-signal'],
    [SIGNAL_MACHINES.staleStatus]:  ['node-status-stale'],
  });
}

/** nodes-frozen's first etcd machine, by its Node's and its own name */
export const FROZEN_ETCD = { node: 'fz-etcd-01', machine: customMachineName(agentId(stableHex('cluster-health:fz-etcd-01', 12))) };

/**
 * rancher/rancher#20927: a custom cluster with one control-plane and worker node and three etcd nodes, and its etcd
 * nodes powered off. Without etcd nothing in the cluster is written any more: no kubelet's status, and no
 * controller marks the silent Nodes Unknown. Rancher's agent stays connected and Rancher goes on showing the cluster
 * Active, every Node Ready from the statuses written 25 minutes ago.
 */
export function nodesFrozen(o: ScenarioOptions = {}): Scenario {
  const now = o.now ?? '2026-05-08T07:45:00Z';
  const built = clusterHealthCluster('fz-rke2', 'c-m-fr0z3n7q', [
    clusterHealthNode('fz-cp-01', '10.63.0.11', { controlPlane: true, worker: true }),
    clusterHealthNode('fz-etcd-01', '10.63.0.21', { etcd: true }),
    clusterHealthNode('fz-etcd-02', '10.63.0.22', { etcd: true }),
    clusterHealthNode('fz-etcd-03', '10.63.0.23', { etcd: true }),
  ], now, o);
  const expected: Record<string, FailureFamily[]> = {};

  for (const n of built.nodes) {
    const node = n.node as NodeObject;

    lastWrittenAt(node, ago(now, '25m'));
    recopyNode(n.managementNode, node);
    expected[(n.machine as KubeObject).metadata.name] = ['node-status-stale'];
  }

  return scenarioFrom({
    name:         'nodes-frozen',
    title:        'Nothing writes the cluster\'s Nodes',
    description:  'RKE2 custom cluster whose three etcd nodes were powered off 25 minutes ago: no Node has been written since, every one still Ready, the agent connected.',
    now,
    secretMarker: o.secretMarker ?? DEFAULT_SECRET_MARKER,
  }, [built], expected, { 'fz-rke2': ['nodes-status-frozen'] });
}

/**
 * One worker per entry of the Node and Machine signal tables, each showing its signal as its writer reports it:
 * the condition's reason and message from the kubelet's and node-problem-detector's own sources, the taint the
 * node lifecycle controller, the kubelet or the cloud provider sets, Cluster API's condition or annotation, a
 * deletion held at each of the machine controller's stages. What an admin sees when a table entry fires.
 */
export function signalCatalogue(o: ScenarioOptions = {}): Scenario {
  const now = o.now ?? '2026-06-02T09:40:00Z';
  const since = ago(now, '1h');

  type Apply = (n: BuiltNode) => void;
  const setNodeCondition = (n: BuiltNode, c: Record<string, string>) => {
    const node = n.node as NodeObject;

    node.status.conditions = [...node.status.conditions.filter((x) => x.type !== c.type), {
      lastHeartbeatTime: ago(now, '10s'), lastTransitionTime: since, ...c
    } as NodeObject['status']['conditions'][number]];
    recopyNode(n.managementNode, node);
  };
  const entries: [string, string, Apply][] = [
    ...NODE_CONDITION_SIGNALS.map((e): [string, string, Apply] => [e.id, e.rule, (n) => setNodeCondition(n, {
      type: e.conditionType, status: 'True', reason: e.example.reason, message: e.example.message
    })]),
    [OTHER_NODE_CONDITION.id, OTHER_NODE_CONDITION.rule, (n) => setNodeCondition(n, {
      type: 'GPUUnhealthyProblem', status: 'True', reason: 'XidError', message: 'NVRM: Xid (PCI:0000:3b:00): 79, GPU has fallen off the bus.'
    })],
    ...TAINT_SIGNALS.map((e): [string, string, Apply] => [`taint-${ e.id }`, e.rule, (n) => {
      const node = n.node as NodeObject;

      node.spec.taints = [...(node.spec.taints ?? []), {
        key: e.taintKey, effect: e.example.effect, ...(e.example.value ? { value: e.example.value } : {}), timeAdded: since
      }];
      recopyNode(n.managementNode, node);
    }]),
    ...MACHINE_CONDITION_SIGNALS.map((e): [string, string, Apply] => [`machine-${ e.id }`, e.rule, (n) => {
      // Paused is a v1beta2 condition: a v1beta1 Machine carries it in status.v1beta2.conditions.
      if (e.conditionType === 'Paused') {
        (n.machine.status as Record<string, any>).v1beta2 = {
          conditions: [{
            type: 'Paused', status: 'True', reason: e.example.reason, message: e.example.message, lastTransitionTime: since, observedGeneration: 2
          }]
        };

        return;
      }
      setMachineCondition(n, {
        type: e.conditionType, status: e.status, severity: 'Warning', reason: e.example.reason, message: e.example.message, lastTransitionTime: since
      } as CapiCondition);
    }]),
    ...MACHINE_ANNOTATION_SIGNALS.map((e): [string, string, Apply] => [`annotation-${ e.id }`, e.rule, (n) => {
      n.machine.metadata.annotations = { ...(n.machine.metadata.annotations ?? {}), [e.annotation]: e.example.value };
    }]),
    ...DELETION_STAGES.map((e): [string, string, Apply] => [`deleting-${ e.id }`, e.rule, (n) => {
      const m = n.machine as Record<string, any>;

      m.metadata.deletionTimestamp = since;
      m.metadata.finalizers = ['machine.cluster.x-k8s.io'];
      m.status.conditions = [
        ...m.status.conditions.filter((c: any) => c.type !== (e.conditionType ?? 'Deleting')),
        e.conditionType ? {
          type: e.conditionType, status: 'False', severity: 'Info', reason: e.example.reason, message: e.example.message, lastTransitionTime: since
        } : {
          type: 'Deleting', status: 'True', reason: e.deletingReason, message: e.example.message, lastTransitionTime: since
        },
      ];
    }]),
  ];
  const host = (i: number) => `cat-worker-${ String(i + 1).padStart(2, '0') }`;
  const built = buildCluster(clusterBuild({
    name:              'catalogue-rke2',
    mgmtId:            'c-m-c4t4l0g5',
    kind:              'custom',
    kubernetesVersion: 'v1.31.5+rke2r1',
    createdAgo:        '90d',
    nodes:             [
      {
        hostname: 'cat-cp-01', roles: { etcd: true, controlPlane: true }, address: '10.82.0.11', createdAgo: '90d'
      },
      ...entries.map((_, i): NodeSpec => ({
        hostname: host(i), machineId: agentId(stableHex(`catalogue:${ i }`, 12)), roles: { worker: true }, address: `10.82.1.${ 11 + i }`, createdAgo: '90d'
      })),
    ],
  }, now, o));
  const expected: Record<string, FailureFamily[]> = {};

  entries.forEach(([, rule, apply], i) => {
    const n = builtNode(built, host(i));

    apply(n);
    expected[n.machineName] = [rule as FailureFamily];
  });

  return scenarioFrom({
    name:         'signal-catalogue',
    title:        'Every Node and Machine signal, one worker each',
    description:  'RKE2 custom cluster with one worker per entry of the Node condition, taint, Machine condition, Machine annotation and deletion-stage tables, each showing its signal as its writer reports it.',
    now,
    secretMarker: o.secretMarker ?? DEFAULT_SECRET_MARKER,
  }, [built], expected);
}

export const SCENARIOS = {
  'ghost-etcd':              ghostEtcd,
  'cert-rotation-blocked':   certRotationBlocked,
  'agent-wait-bootstrap':    agentWaitBootstrap,
  'pre-bootstrap-wait':      preBootstrapWait,
  'windows-node-ref':        windowsNodeRef,
  'orphan-node':             orphanNode,
  'etcd-hook':               etcdHook,
  healthy,
  'every-failure':           everyFailure,
  imported,
  'windows-provider-id':     windowsProviderId,
  'cloud-provider-external': cloudProviderExternal,
  'kubelet-skew':            kubeletSkew,
  'drain-stuck':             drainStuck,
  'duplicate-node-name':     duplicateNodeName,
  'serving-certs':           servingCerts,
  'agent-disconnected':      agentDisconnected,
  'init-node-lost':          initNodeLost,
  'viable-init-node':        viableInitNode,
  'join-url-wait':           joinUrlWait,
  'node-not-linked':         nodeNotLinked,
  'capi-v1beta2':            capiV1beta2,
  'join-keys':               joinKeys,
  'node-signals':            nodeSignals,
  'infra-delete-failed':     infraDeleteFailed,
  'etcd-quorum':             etcdQuorum,
  'control-plane-down':      controlPlaneDown,
  'nodes-frozen':            nodesFrozen,
  'no-worker':               noWorker,
  'reconciliation-paused':   reconciliationPaused,
  'health-check-blocked':    healthCheckBlocked,
  'signal-catalogue':        signalCatalogue,
  'cert-rotation-failed':    certRotationFailed,
  'etcd-plane-replaced':     etcdPlaneReplaced,
  'capi-connection-down':    capiConnectionDown,
  'planner-kdm':             (o?: ScenarioOptions) => plannerStopped('kdm', o),
  'planner-files':           (o?: ScenarioOptions) => plannerStopped('files', o),
  'planner-init-nodes':      (o?: ScenarioOptions) => plannerStopped('initNodes', o),
  'planner-join-url':        (o?: ScenarioOptions) => plannerStopped('joinUrl', o),
} as const;

export type ScenarioName = keyof typeof SCENARIOS;

export const SCENARIO_NAMES = Object.keys(SCENARIOS) as ScenarioName[];

/** The cluster the tab must stay smooth on: 10,000 nodes, for the benchmark and a browser test. */
export const HUGE_SCENARIO = 'huge-10000';

/** Any named scenario, `huge-10000`, or `large-<n>` (e.g. large-20000; plain `large` is 500 nodes). */
export function buildScenario(name: string, o: LargeOptions = {}): Scenario {
  if (name in SCENARIOS) return SCENARIOS[name as ScenarioName](o);
  if (name === HUGE_SCENARIO) return { ...large(10000, { cluster: HUGE_CLUSTER, ...o }), name: HUGE_SCENARIO };
  const m = /^large(?:-(\d+))?$/.exec(name);

  if (m) return large(m[1] ? Number(m[1]) : 500, o);
  throw new Error(`unknown scenario "${ name }" (known: ${ [...SCENARIO_NAMES, HUGE_SCENARIO, 'large-<n>'].join(', ') })`);
}

/** Every object of a scenario with where it lives: 'local' (Rancher) or a management cluster id. */
export function scenarioObjects(s: Scenario): { cluster: string; object: KubeObject }[] {
  return [
    ...s.objects.map((object) => ({ cluster: 'local', object })),
    ...Object.entries(s.downstream).flatMap(([cluster, objects]) => objects.map((object) => ({ cluster, object }))),
  ];
}

/** Scenario time helper for callers that add their own objects. */
export function scenarioTime(s: Pick<Scenario, 'now'>, span: string): string {
  return ago(s.now, span);
}
