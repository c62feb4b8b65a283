import { CAPI, MANAGEMENT, NODE, SECRET } from '@shell/config/types';
import { PLAN_SECRET_STATUS_KEYS, STEVE_TYPES, steveIncludePaths } from '@pkg/node-health/engine';
import {
  PLAN_SECRET_SENSITIVE_KEYS, clusterTarget, expectedInfraKinds, infraKindsOf, initialRequests, planSecretsRequest, sanitizePlanSecret
} from '@pkg/node-health/data';
import type { ClusterTarget } from '@pkg/node-health/data';

function target(over: Partial<ClusterTarget> = {}): ClusterTarget {
  return {
    name:           'dev-k3s',
    namespace:      'fleet-default',
    mgmtId:         'c-m-4qj7x2vd',
    machineManaged: true,
    custom:         true,
    cluster:        {},
    ...over,
  };
}

function params(url: string): URLSearchParams {
  return new URL(url, 'https://rancher.example.com').searchParams;
}

describe('the requests of one load', () => {
  it('read a provisioned cluster with label selectors in its namespace and its management namespace', () => {
    expect(initialRequests(target()).map((r) => `${ r.input } ${ decodeURIComponent(r.url.replace(/\?.*/, '')) } ${ params(r.url).get('labelSelector') ?? '-' }`)).toEqual([
      'machines /v1/cluster.x-k8s.io.machines/fleet-default cluster.x-k8s.io/cluster-name=dev-k3s',
      'planSecrets /v1/secrets/fleet-default rke.cattle.io/cluster-name=dev-k3s',
      'bootstraps /v1/rke.cattle.io.rkebootstraps/fleet-default cluster.x-k8s.io/cluster-name=dev-k3s',
      'capiClusters /v1/cluster.x-k8s.io.clusters/fleet-default -',
      'machineDeployments /v1/cluster.x-k8s.io.machinedeployments/fleet-default cluster.x-k8s.io/cluster-name=dev-k3s',
      'machineSets /v1/cluster.x-k8s.io.machinesets/fleet-default cluster.x-k8s.io/cluster-name=dev-k3s',
      'machineHealthChecks /v1/cluster.x-k8s.io.machinehealthchecks/fleet-default cluster.x-k8s.io/cluster-name=dev-k3s',
      'mgmtNodes /v1/management.cattle.io.nodes/c-m-4qj7x2vd -',
      'nodes /k8s/clusters/c-m-4qj7x2vd/v1/nodes -',
    ]);
  });

  it('read only Nodes for a cluster without rkeConfig, and nothing before Rancher assigned a management id', () => {
    expect(initialRequests(target({ machineManaged: false })).map((r) => r.input)).toEqual(['mgmtNodes', 'nodes']);
    expect(initialRequests(target({ machineManaged: false, mgmtId: null }))).toEqual([]);
  });

  it('ask for plan secrets by type, keeping only metadata and the status keys and dropping the sensitive ones', () => {
    const p = params(planSecretsRequest(target()).url);

    expect(p.get('fieldSelector')).toBe('type=rke.cattle.io/machine-plan');
    expect(p.getAll('include')).toEqual(steveIncludePaths('planSecret'));
    expect(p.getAll('include')).toEqual(expect.arrayContaining([
      'apiVersion', 'kind', 'id', 'type', '_type', 'metadata.name', 'metadata.namespace', 'metadata.labels', 'metadata.annotations',
      ...PLAN_SECRET_STATUS_KEYS.map((k) => `data.${ k }`),
    ]));
    expect(p.getAll('include').filter((i) => i === 'data' || PLAN_SECRET_SENSITIVE_KEYS.some((k) => i === `data.${ k }`))).toEqual([]);
    expect(p.getAll('exclude')).toEqual([
      'metadata.managedFields', 'metadata.fields', 'metadata.relationships',
      'data.plan', 'data.appliedPlan', 'data.applied-output', 'data.failed-output', 'data.applied-periodic-output',
    ]);
    // The whitelist and the blacklist never overlap.
    expect(PLAN_SECRET_SENSITIVE_KEYS.filter((k) => (PLAN_SECRET_STATUS_KEYS as readonly string[]).includes(k))).toEqual([]);
  });

  it('encode names into the path and selector', () => {
    const r = planSecretsRequest(target({ name: 'a&b', namespace: 'ns/x' }));

    expect(r.url.startsWith('/v1/secrets/ns%2Fx?')).toBe(true);
    expect(params(r.url).get('labelSelector')).toBe('rke.cattle.io/cluster-name=a&b');
  });
});

describe('infrastructure kinds', () => {
  const machine = (ref: Record<string, string>) => ({ spec: { infrastructureRef: ref } });

  it('are the distinct Rancher and Cluster API provider kinds the machines refer to, in CAPI v1beta1 and v1beta2 form', () => {
    expect(infraKindsOf([
      machine({
        apiVersion: 'rke-machine.cattle.io/v1', kind: 'VmwarevsphereMachine', name: 'a'
      }),
      machine({
        apiGroup: 'rke-machine.cattle.io', kind: 'VmwarevsphereMachine', name: 'b'
      }),
      machine({
        apiVersion: 'rke.cattle.io/v1', kind: 'CustomMachine', name: 'c'
      }),
      machine({
        apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1', kind: 'AWSMachine', name: 'd'
      }),
      machine({
        apiVersion: 'rke-machine.cattle.io/v1', kind: '../secrets', name: 'e'
      }),
      {},
    ])).toEqual([
      { group: 'infrastructure.cluster.x-k8s.io', kind: 'AWSMachine' },
      { group: 'rke-machine.cattle.io', kind: 'VmwarevsphereMachine' },
      { group: 'rke.cattle.io', kind: 'CustomMachine' },
    ]);
  });

  it('are expected from the cluster: CustomMachine for a custom cluster, each pool\'s driver machine otherwise', () => {
    const pool = (kind: unknown) => ({ name: 'p', machineConfigRef: { kind, name: 'nc-p' } });
    const pooled = (...pools: unknown[]) => target({ custom: false, cluster: { spec: { rkeConfig: { machinePools: pools } } } });

    expect(expectedInfraKinds(target())).toEqual([{ group: 'rke.cattle.io', kind: 'CustomMachine' }]);
    expect(expectedInfraKinds(pooled(pool('VmwarevsphereConfig'), pool('HarvesterConfig'), pool('VmwarevsphereConfig')))).toEqual([
      { group: 'rke-machine.cattle.io', kind: 'VmwarevsphereMachine' },
      { group: 'rke-machine.cattle.io', kind: 'HarvesterMachine' },
    ]);
    expect(expectedInfraKinds(pooled(pool('../secretsConfig'), pool('Config'), pool(7), pool('VmwarevsphereTemplate'), {}, null))).toEqual([]);
    expect(expectedInfraKinds(target({ machineManaged: false, custom: false }))).toEqual([]);
  });
});

describe('sanitizePlanSecret', () => {
  const secret = {
    id:       'fleet-default/custom-1-machine-plan',
    type:     'secret',
    _type:    'rke.cattle.io/machine-plan',
    metadata: {
      name:          'custom-1-machine-plan',
      managedFields: [{ manager: 'rancher' }],
      annotations:   {
        'rke.cattle.io/joined-to':                          'custom-0',
        'kubectl.kubernetes.io/last-applied-configuration': '{"data":{"plan":"SECRET"}}',
      },
    },
    data: {
      plan:              'SECRET',
      appliedPlan:       'SECRET',
      'applied-output':  'SECRET',
      'failure-count':   'MA==',
      'some-future-key': 'SECRET',
    },
    stringData: { plan: 'SECRET' },
  };

  it('keeps only the status keys of the data and nothing that copies it', () => {
    const out = sanitizePlanSecret(secret);

    expect(out.data).toEqual({ 'failure-count': 'MA==' });
    expect(JSON.stringify(out)).not.toContain('SECRET');
    expect(out.metadata.annotations).toEqual({ 'rke.cattle.io/joined-to': 'custom-0' });
    expect(out.metadata.managedFields).toBeUndefined();
    expect(out._type).toBe('rke.cattle.io/machine-plan');
    expect(out.id).toBe(secret.id);
  });

  it('does not touch its input and survives garbage', () => {
    const copy = JSON.parse(JSON.stringify(secret));

    sanitizePlanSecret(secret);
    expect(secret).toEqual(copy);
    expect(sanitizePlanSecret(null)).toEqual({});
    expect(sanitizePlanSecret({ data: 'x', metadata: 3 })).toEqual({ metadata: 3 });
  });
});

describe('clusterTarget', () => {
  it('reads name, namespace, management id and whether machines apply, from a model or a plain object', () => {
    const model = {
      id:        'fleet-default/dev',
      type:      'provisioning.cattle.io.cluster',
      metadata:  { name: 'dev', namespace: 'fleet-default' },
      spec:      { rkeConfig: { machinePools: [] } },
      status:    { clusterName: 'c-m-1' },
      // store models carry functions and back references; they must not reach the engine
      $dispatch: () => undefined,
      get mgmt() {
        return { self: this };
      },
    };

    const t = clusterTarget(model);

    expect(t).toMatchObject({
      name: 'dev', namespace: 'fleet-default', mgmtId: 'c-m-1', machineManaged: true, custom: true
    });
    expect(Object.keys(t?.cluster ?? {}).sort()).toEqual(['id', 'metadata', 'spec', 'status', 'type']);
    expect(clusterTarget({
      metadata: { name: 'imp', namespace: 'fleet-default' }, spec: {}, status: {}
    })).toMatchObject({
      mgmtId: null, machineManaged: false, custom: false
    });
    expect(clusterTarget({ spec: { rkeConfig: { machinePools: [{ name: 'pool' }] } }, metadata: { name: 'nd', namespace: 'fleet-default' } })?.custom).toBe(false);
    expect(clusterTarget({ metadata: {} })).toBeNull();
    expect(clusterTarget(undefined)).toBeNull();
  });
});

describe('the Steve types the requests and links name', () => {
  // The shell's own names for the types it knows; the RKEBootstrap has none there.
  const SHELL_NAMES: Record<keyof typeof STEVE_TYPES, string | null> = {
    cluster:            CAPI.RANCHER_CLUSTER,
    machine:            CAPI.MACHINE,
    planSecret:         SECRET,
    bootstrap:          null,
    mgmtNode:           MANAGEMENT.NODE,
    node:               NODE,
    lease:              null,
    registrationToken:  null,
    mgmtCluster:        MANAGEMENT.CLUSTER,
    capiCluster:        CAPI.CAPI_CLUSTER,
    machineHealthCheck: null,
    machineDeployment:  CAPI.MACHINE_DEPLOYMENT,
    machineSet:         CAPI.MACHINE_SET,
  };

  it.each(Object.entries(SHELL_NAMES).filter(([, shell]) => shell))('%s is the type @shell/config/types names', (key, shell) => {
    expect(STEVE_TYPES[key as keyof typeof STEVE_TYPES]).toBe(shell);
  });

  it('types the shell does not name are Rancher\'s own, by group and kind', () => {
    expect(Object.keys(SHELL_NAMES).sort()).toEqual(Object.keys(STEVE_TYPES).sort());
    expect(STEVE_TYPES.bootstrap).toBe('rke.cattle.io.rkebootstrap');
    expect(STEVE_TYPES.registrationToken).toBe('management.cattle.io.clusterregistrationtoken');
    expect(STEVE_TYPES.lease).toBe('coordination.k8s.io.lease');
  });

  it('every request of a load but the infrastructure machines\' asks for a list of one of them', () => {
    const requests = initialRequests(target()).filter((r) => r.input !== 'infraMachines');
    const lists = requests.map((r) => {
      const segments = decodeURIComponent(r.url.replace(/\?.*/, '')).split('/');

      return segments[segments.lastIndexOf('v1') + 1];
    });
    const types = new Set(Object.values(STEVE_TYPES).map((t) => `${ t }s`));

    expect(lists.filter((list) => !types.has(list))).toEqual([]);
    expect(lists).toHaveLength(9);
  });
});
