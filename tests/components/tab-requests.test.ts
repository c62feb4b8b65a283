import { flushPromises } from '@vue/test-utils';
import { STEVE_TYPES, steveIncludePaths } from '@pkg/node-health/engine';
import { ghostEtcd, large, GHOST_MACHINE } from '../../scenarios/catalog';
import type { KubeObject } from '../../scenarios/types';
import { mountTab, pageStore } from './tab-harness';
import type { MountedTab } from './tab-harness';
import { inputOfUrl } from './tab-steve';

let tab: MountedTab | null = null;

afterEach(() => {
  tab?.wrapper.unmount();
  tab = null;
});

/** What no object is asked for with: managed fields and Steve's table columns and relationships */
const UNUSED = 'exclude=metadata.managedFields&exclude=metadata.fields&exclude=metadata.relationships';

/** Rancher's copy of the downstream Node, but for its nodeInfo; the RKE1 node config */
const MGMT_LEFT_OUT = [
  ...['images', 'conditions', 'addresses', 'capacity', 'allocatable', 'daemonEndpoints', 'volumesAttached', 'volumesInUse', 'config']
    .map((f) => `exclude=status.internalNodeStatus.${ f }`),
  'exclude=status.nodeLabels', 'exclude=spec.internalNodeSpec', 'exclude=status.nodeConfig',
].join('&');

const STATUS_KEYS = [
  'applied-checksum', 'failure-count', 'success-count', 'failed-checksum', 'last-apply-time', 'probe-statuses', 'plan-state', 'plan-revision',
  'max-failures', 'failure-threshold',
];

async function requestsFor(s: ReturnType<typeof ghostEtcd>, sqlCache = false): Promise<string[]> {
  tab = mountTab(s, { sqlCache });
  await tab.show();
  const urls = [...tab.steve.urls];

  tab.wrapper.unmount();
  tab = null;

  return urls;
}

describe('the requests the tab makes', () => {
  it('are exactly these, through management/request, with selectors and the plan-secret whitelist', async() => {
    const urls = await requestsFor(ghostEtcd());
    const decoded = urls.map((u) => decodeURIComponent(u)).sort();

    const include = (kind: Parameters<typeof steveIncludePaths>[0]) => steveIncludePaths(kind).map((p) => `include=${ p }`).join('&');

    expect(decoded).toEqual([
      `/k8s/clusters/c-m-4qj7x2vd/v1/nodes?${ include('node') }&${ UNUSED }&exclude=status.images`,
      `/v1/cluster.x-k8s.io.clusters/fleet-default?fieldSelector=metadata.name=dev-k3s&${ include('capiCluster') }&${ UNUSED }`,
      `/v1/cluster.x-k8s.io.machinedeployments/fleet-default?labelSelector=cluster.x-k8s.io/cluster-name=dev-k3s&${ include('machineDeployment') }&${ UNUSED }`,
      `/v1/cluster.x-k8s.io.machinehealthchecks/fleet-default?labelSelector=cluster.x-k8s.io/cluster-name=dev-k3s&${ include('machineHealthCheck') }&${ UNUSED }`,
      `/v1/cluster.x-k8s.io.machines/fleet-default?labelSelector=cluster.x-k8s.io/cluster-name=dev-k3s&${ include('machine') }&${ UNUSED }`,
      `/v1/cluster.x-k8s.io.machinesets/fleet-default?labelSelector=cluster.x-k8s.io/cluster-name=dev-k3s&${ include('machineSet') }&${ UNUSED }`,
      `/v1/management.cattle.io.nodes/c-m-4qj7x2vd?${ include('mgmtNode') }&${ UNUSED }&${ MGMT_LEFT_OUT }`,
      `/v1/rke.cattle.io.custommachines/fleet-default?labelSelector=cluster.x-k8s.io/cluster-name=dev-k3s&${ include('infraMachine') }&${ UNUSED }`,
      `/v1/rke.cattle.io.rkebootstraps/fleet-default?labelSelector=cluster.x-k8s.io/cluster-name=dev-k3s&${ include('bootstrap') }&${ UNUSED }`,
      [
        '/v1/secrets/fleet-default?labelSelector=rke.cattle.io/cluster-name=dev-k3s&fieldSelector=type=rke.cattle.io/machine-plan',
        include('planSecret'),
        UNUSED,
        'exclude=data.plan&exclude=data.appliedPlan&exclude=data.applied-output&exclude=data.failed-output&exclude=data.applied-periodic-output',
      ].join('&'),
    ]);
    // The plan secrets' data: the status keys only.
    expect(steveIncludePaths('planSecret').filter((p) => p.startsWith('data'))).toEqual(STATUS_KEYS.map((k) => `data.${ k }`).sort());
  });

  it('with Steve\'s SQL cache on (ui-sql-cache), ask by filter, which it reads, instead of selectors, which it ignores', async() => {
    const urls = (await requestsFor(ghostEtcd(), true)).map((u) => decodeURIComponent(u));
    const withSelectors = (await requestsFor(ghostEtcd())).map((u) => decodeURIComponent(u));
    const label = (key: string) => `filter=metadata.labels[${ key }]=dev-k3s`;

    expect(urls.filter((u) => /labelSelector|fieldSelector/.test(u))).toStrictEqual([]);
    expect(urls.find((u) => u.startsWith('/v1/cluster.x-k8s.io.machines/'))).toContain(label('cluster.x-k8s.io/cluster-name'));
    expect(urls.find((u) => u.startsWith('/v1/rke.cattle.io.rkebootstraps/'))).toContain(label('cluster.x-k8s.io/cluster-name'));
    expect(urls.find((u) => u.startsWith('/v1/rke.cattle.io.custommachines/'))).toContain(label('cluster.x-k8s.io/cluster-name'));
    expect(urls.find((u) => u.startsWith('/v1/secrets/'))).toContain(`${ label('rke.cattle.io/cluster-name') }&filter=_type=rke.cattle.io/machine-plan&include=`);
    // Nothing else changes: the same lists, the same include and exclude.
    expect(urls.map((u) => u.replace(/[?&](filter|labelSelector|fieldSelector)=[^&]*/g, ''))).toEqual(withSelectors.map((u) => u.replace(/[?&](filter|labelSelector|fieldSelector)=[^&]*/g, '')));
  });

  it('ask once, for the tab\'s life, whether the user may list each input in full', async() => {
    tab = mountTab(ghostEtcd());
    await tab.show();
    await tab.wrapper.find('[data-testid="node-health-refresh"]').trigger('click');
    await tab.settle();

    expect(tab.steve.reviews.map((r) => `${ r.group }/${ r.resource } ${ r.namespace ?? '' }`).sort()).toStrictEqual([
      '/nodes ', '/secrets fleet-default', 'cluster.x-k8s.io/clusters fleet-default', 'cluster.x-k8s.io/machinedeployments fleet-default',
      'cluster.x-k8s.io/machinehealthchecks fleet-default', 'cluster.x-k8s.io/machines fleet-default', 'cluster.x-k8s.io/machinesets fleet-default',
      'management.cattle.io/nodes c-m-4qj7x2vd',
      'rke.cattle.io/custommachines fleet-default', 'rke.cattle.io/rkebootstraps fleet-default',
    ]);
    expect(tab.steve.reviews.every((r) => r.verb === 'list')).toBe(true);
  });

  it('go through the store without a logout on 401 (a downstream cluster\'s 401 is not the session\'s)', async() => {
    tab = mountTab(ghostEtcd());
    await tab.show();
    const requests = tab.steve.actions.filter((a) => a.type === 'management/request');

    expect(requests).toHaveLength(10);
    expect(requests.every((a) => a.payload.redirectUnauthorized === false)).toBe(true);
  });

  it('are the same for a cluster of 5 nodes and one of 500: nothing is requested per node', async() => {
    const small = await requestsFor(large(5));
    const big = await requestsFor(large(500));

    expect(big).toEqual(small);
    expect(big).toHaveLength(10);
  }, 60000);

  it('are the same again on every refresh', async() => {
    tab = mountTab(ghostEtcd());
    await tab.show();
    const first = [...tab.steve.urls];

    await tab.wrapper.find('[data-testid="node-health-refresh"]').trigger('click');
    await tab.settle();
    expect(tab.steve.urls.slice(first.length).sort()).toEqual([...first].sort());
  });
});

describe('lists the cluster page already holds in the store', () => {
  /** The store as the cluster page leaves it: every machine and management Node, as Steve sent them to findAll. */
  it('are not asked for again, and the rows are the same', async() => {
    const s = ghostEtcd();
    const plain = mountTab(s);

    await plain.show();
    const expected = plain.wrapper.findAll('tr.main-row').map((tr) => tr.text());

    plain.wrapper.unmount();
    tab = mountTab(s, { storeHolds: pageStore(s) });
    await tab.show();

    expect(tab.steve.urls.map(inputOfUrl).sort()).toEqual(['bootstraps', 'capiClusters', 'infraMachines', 'machineDeployments', 'machineHealthChecks', 'machineSets', 'nodes', 'planSecrets']);
    expect(tab.wrapper.findAll('tr.main-row').map((tr) => tr.text())).toEqual(expected);
    expect(expected.some((row) => row.includes(GHOST_MACHINE))).toBe(true);
  });

  it('are asked of Steve right after one of the tab\'s own writes, which the watch may not have reported yet', async() => {
    const s = ghostEtcd();

    tab = mountTab(s, { storeHolds: pageStore(s) });
    await tab.show();
    const key = `machine:fleet-default/${ GHOST_MACHINE }`;

    await tab.wrapper.find(`[data-testid="node-health-toggle-${ key }"]`).trigger('click');
    await flushPromises();
    await tab.wrapper.find(`[data-testid="node-health-detail-row-${ key }"] [data-testid="node-health-action-remove-finalizers"]`).trigger('click');
    const modal = tab.steve.actions.find((a) => a.type === 'management/promptModal')?.payload;
    const inputsOf = (from: number) => tab!.steve.urls.slice(from).map(inputOfUrl).sort();
    let seen = tab.steve.urls.length;

    modal.resources[0].context.onDone();
    await tab.settle();
    expect(inputsOf(seen)).toEqual([
      'bootstraps', 'capiClusters', 'infraMachines', 'machineDeployments', 'machineHealthChecks', 'machineSets', 'machines', 'mgmtNodes', 'nodes', 'planSecrets',
    ]);

    seen = tab.steve.urls.length;
    await tab.wrapper.find('[data-testid="node-health-refresh"]').trigger('click');
    await tab.settle();
    expect(inputsOf(seen)).toEqual(['bootstraps', 'capiClusters', 'infraMachines', 'machineDeployments', 'machineHealthChecks', 'machineSets', 'nodes', 'planSecrets']);
  });

  it('are read again on every refresh, so a machine the watch removed from the store is gone', async() => {
    const s = ghostEtcd();
    const holds = pageStore(s);

    tab = mountTab(s, { storeHolds: holds });
    await tab.show();
    expect(tab.wrapper.find(`[data-testid="node-health-toggle-machine:fleet-default/${ GHOST_MACHINE }"]`).exists()).toBe(true);

    const machines = tab.store.state.holds[STEVE_TYPES.machine] as KubeObject[];

    machines.splice(machines.findIndex((m) => m.metadata.name === GHOST_MACHINE), 1);
    await tab.wrapper.find('[data-testid="node-health-refresh"]').trigger('click');
    await tab.settle();

    expect(tab.wrapper.find(`[data-testid="node-health-toggle-machine:fleet-default/${ GHOST_MACHINE }"]`).exists()).toBe(false);
    expect(tab.steve.urls.map(inputOfUrl)).not.toContain('machines');
  });
});
