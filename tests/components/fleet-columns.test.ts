import { mgmtClustersUrl } from '@pkg/node-health/data/mgmt-cluster';
import { RouterLinkStub } from '@vue/test-utils';
import { sortBy } from '@shell/utils/sort';
import NodeHealthClusterCell from '@pkg/node-health/formatters/NodeHealthClusterCell.vue';
import NodeHealthMachineCell from '@pkg/node-health/formatters/NodeHealthMachineCell.vue';
import { nodesRequest } from '@pkg/node-health/data';
import { CLUSTER_COLUMN_SORT, SORT_PROPERTY } from '@pkg/node-health/fleet/columns';
import { RECORD_QUERY } from '@pkg/node-health/fleet/links';
import { fleetSourceFor } from '@pkg/node-health/fleet/source';
import { toSteve } from '../../scenarios/steve';
import type { Scenario } from '../../scenarios/types';
import { seedFleet } from '../unit/fleet/fixtures';
import { fleetContext, mountFleetView, settle } from './fleet-harness';

/** A cluster list row: the provisioning cluster as a model object of its own class, as the store gives it. */
class ClusterModel {
  [key: string]: any;

  constructor(obj: Record<string, any>) {
    Object.assign(this, obj);
  }

  get nameSort(): string {
    return this.metadata.name;
  }
}

function clusterRow(scenario: Scenario, name: string): ClusterModel {
  const obj = scenario.objects.find((o) => o.kind === 'Cluster' && o.apiVersion.startsWith('provisioning.cattle.io/') && o.metadata.name === name)!;

  return new ClusterModel(toSteve(obj, { now: scenario.now }));
}

function machineRow(scenario: Scenario, name: string): Record<string, any> {
  const obj = scenario.objects.find((o) => o.kind === 'Machine' && o.metadata.name === name)!;

  return toSteve(obj, { now: scenario.now });
}

describe('the cluster list\'s Node Health column', () => {
  const scenario = seedFleet();

  afterEach(() => jest.restoreAllMocks());

  it('counts a cluster\'s nodes in error, warning and unknown, linking to its Node Health tab', async() => {
    const ctx = fleetContext(scenario);
    const { wrapper } = await mountFleetView(NodeHealthClusterCell, ctx, { row: clusterRow(scenario, 'ef-rke2') });
    const report = fleetSourceFor(ctx.store).state.report!;
    const ef = report.records.filter((r) => r.cluster?.name === 'ef-rke2');
    const count = (s: string) => ef.filter((r) => r.status === s).length;

    expect(count('error')).toBeGreaterThan(0);
    expect(count('warning')).toBeGreaterThan(0);
    expect(wrapper.find('[data-testid="node-health-cluster-error"]').text()).toBe(`%nodeHealth.fleet.column.count.error%{"count":${ count('error') }}`);
    expect(wrapper.find('[data-testid="node-health-cluster-warning"]').text()).toBe(`%nodeHealth.fleet.column.count.warning%{"count":${ count('warning') }}`);
    expect(wrapper.findComponent(RouterLinkStub).props('to')).toEqual({
      name:   'c-cluster-product-resource-namespace-id',
      params: {
        cluster: '_', product: 'manager', resource: 'provisioning.cattle.io.cluster', namespace: 'fleet-default', id: 'ef-rke2'
      },
      hash: '#node-health',
    });
    wrapper.unmount();
  });

  it('shows what concerns the whole cluster: edge-k3s\'s disconnected agent, though its nodes look healthy', async() => {
    const ctx = fleetContext(scenario);
    const { wrapper } = await mountFleetView(NodeHealthClusterCell, ctx, { row: clusterRow(scenario, 'edge-k3s') });
    const agent = wrapper.find('[data-testid="node-health-cluster-level-cluster-agent-disconnected"]');

    // The duration in the reader's units, not the engine's milliseconds.
    expect(agent.text()).toBe('%nodeHealth.rules.clusterAgentDisconnected.title%{"cluster":"edge-k3s","duration":"%nodeHealth.unit.h%{\\"n\\":2}"}');
    expect(agent.classes()).toContain('bg-error');
    // Its nodes are counted as Rancher last saw them: none is unhealthy.
    expect(wrapper.findAll('[data-testid^="node-health-cluster-error"], [data-testid^="node-health-cluster-warning"]')).toHaveLength(0);
    expect(wrapper.findComponent(RouterLinkStub).props('to')).toEqual(expect.objectContaining({ params: expect.objectContaining({ namespace: 'fleet-default', id: 'edge-k3s' }), hash: '#node-health' }));
    wrapper.unmount();
  });

  it('shows a cluster-level finding before the node counts', async() => {
    const { wrapper } = await mountFleetView(NodeHealthClusterCell, fleetContext(scenario), { row: clusterRow(scenario, 'pz-rke2') });
    const badges = wrapper.findAll('[data-testid="node-health-cluster-cell"] [data-testid^="node-health-cluster-"]').map((b) => b.attributes('data-testid'));

    expect(badges).toEqual(['node-health-cluster-level-reconciliation-paused', 'node-health-cluster-warning']);
    expect(wrapper.find('[data-testid="node-health-cluster-warning"]').text()).toBe('%nodeHealth.fleet.column.count.warning%{"count":1}');
    wrapper.unmount();
  });

  it('shows nothing for a cluster whose nodes are all healthy', async() => {
    const { wrapper } = await mountFleetView(NodeHealthClusterCell, fleetContext(scenario), { row: clusterRow(scenario, 'demo-rke2') });

    expect(wrapper.text()).toBe('');
    expect(wrapper.find('[data-testid="node-health-cluster-cell"]').exists()).toBe(false);
    wrapper.unmount();
  });

  it('says an imported cluster is not provisioned by Rancher, unless Rancher reports one of its nodes unhealthy', async() => {
    const ctx = fleetContext(scenario);
    const imported = await mountFleetView(NodeHealthClusterCell, ctx, { row: clusterRow(scenario, 'imp-k3s') });
    const local = await mountFleetView(NodeHealthClusterCell, ctx, { row: new ClusterModel({ id: 'fleet-local/local', metadata: { name: 'local', namespace: 'fleet-local' } }) });

    // imp-worker-02 stopped posting status: the count shows, not a claim that there is nothing to check.
    expect(imported.wrapper.find('[data-testid="node-health-cluster-error"]').text()).toContain('"count":1');
    expect(local.wrapper.find('[data-testid="node-health-cluster-not-provisioned"]').exists()).toBe(false);
    imported.wrapper.unmount();
    local.wrapper.unmount();

    const healthyImport = seedFleet();
    const worker = healthyImport.objects.find((o) => o.kind === 'Node' && o.apiVersion === 'management.cattle.io/v3' && (o as any).status?.nodeName === 'imp-worker-02') as any;

    worker.status.internalNodeStatus.conditions = worker.status.internalNodeStatus.conditions.map((c: any) => (c.type === 'Ready' ? { ...c, status: 'True' } : c));
    // Back to Ready, the node lifecycle controller lifts its unreachable taints.
    worker.spec.internalNodeSpec.taints = (worker.spec.internalNodeSpec.taints ?? []).filter((t: any) => !t.key.startsWith('node.kubernetes.io/unreachable'));
    const again = await mountFleetView(NodeHealthClusterCell, fleetContext(healthyImport), { row: clusterRow(healthyImport, 'imp-k3s') });

    expect(again.wrapper.find('[data-testid="node-health-cluster-not-provisioned"]').text()).toBe('%nodeHealth.fleet.column.notProvisioned%');
    again.wrapper.unmount();
  });

  it('sorts the cluster list worst first through the row property it adds', async() => {
    const ctx = fleetContext(scenario);
    const rows = ['demo-rke2', 'edge-k3s', 'prod-rke2', 'ef-rke2', 'imp-k3s', 'dev-k3s', 'pz-rke2'].map((n) => clusterRow(scenario, n));
    const cell = await mountFleetView(NodeHealthClusterCell, ctx, { row: rows[0] });
    const health = fleetSourceFor(ctx.store).state.clusters;
    const sorted = sortBy(rows, CLUSTER_COLUMN_SORT, false).map((r: ClusterModel) => r.metadata.name);
    const expected = [...rows].sort((a, b) => {
      const ha = health.get(`fleet-default/${ a.metadata.name }`)!;
      const hb = health.get(`fleet-default/${ b.metadata.name }`)!;

      return ha.worstRank - hb.worstRank || hb.issues.error - ha.issues.error || hb.issues.warning - ha.issues.warning || a.metadata.name.localeCompare(b.metadata.name);
    }).map((r) => r.metadata.name);

    expect(sorted).toEqual(expected);
    expect(sorted[sorted.length - 1]).toBe('demo-rke2');
    // A disconnected agent is an error of the cluster: edge-k3s sorts with the clusters in error, before pz-rke2's warnings.
    expect(sorted.indexOf('edge-k3s')).toBeLessThan(sorted.indexOf('pz-rke2'));
    expect(rows[1][SORT_PROPERTY]).toEqual({
      rank: 0, error: 1, warning: 0, unknown: 0
    });
    expect(rows[0][SORT_PROPERTY]).toEqual({
      rank: 3, error: 0, warning: 0, unknown: 0
    });
    // Not an own property: the store's objects are left as they are.
    expect(Object.keys(rows[0])).not.toContain(SORT_PROPERTY);
    cell.wrapper.unmount();
  });

  it('loads once for every cell of the list', async() => {
    const ctx = fleetContext(scenario);
    const cells = await Promise.all(['ef-rke2', 'dev-k3s', 'demo-rke2'].map((n) => mountFleetView(NodeHealthClusterCell, ctx, { row: clusterRow(scenario, n) })));

    await settle();
    expect(ctx.steve.urls.filter((u) => u.startsWith('/v1/provisioning.cattle.io.clusters'))).toHaveLength(1);
    cells.forEach((c) => c.wrapper.unmount());
  });
});

describe('the Machines list\'s Node Health column', () => {
  const scenario = seedFleet();

  afterEach(() => jest.restoreAllMocks());

  it('shows the machine\'s status and top finding, linking to its record in the cluster\'s tab', async() => {
    const { wrapper } = await mountFleetView(NodeHealthMachineCell, fleetContext(scenario), { row: machineRow(scenario, 'custom-2d74d4c9a104') });

    expect(wrapper.text()).toContain('%nodeHealth.status.error%');
    expect(wrapper.text()).toContain('%nodeHealth.rules.agentNeverCheckedIn.title%');
    expect(wrapper.findComponent(RouterLinkStub).props('to')).toEqual(expect.objectContaining({
      params: expect.objectContaining({ namespace: 'fleet-default', id: 'dev-k3s' }),
      query:  { [RECORD_QUERY]: 'machine:fleet-default/custom-2d74d4c9a104' },
      hash:   '#node-health',
    }));
    wrapper.unmount();
  });

  it('shows a healthy machine as healthy, with no finding', async() => {
    const healthyMachine = scenario.objects.find((o) => o.kind === 'Machine' && o.metadata.labels?.['cluster.x-k8s.io/cluster-name'] === 'demo-rke2')!;
    const { wrapper } = await mountFleetView(NodeHealthMachineCell, fleetContext(scenario), { row: machineRow(scenario, healthyMachine.metadata.name) });

    expect(wrapper.text()).toBe('%nodeHealth.status.healthy%');
    expect(wrapper.findComponent(RouterLinkStub).exists()).toBe(false);
    wrapper.unmount();
  });

  it('on a cluster\'s own page reads that cluster as its tab does, not the fleet', async() => {
    const cluster = toSteve(scenario.objects.find((o) => o.kind === 'Cluster' && o.apiVersion.startsWith('provisioning.cattle.io/') && o.metadata.name === 'ef-rke2')!, { now: scenario.now });
    const ctx = fleetContext(scenario, { storeHolds: { 'provisioning.cattle.io.cluster': [cluster] } });
    const route = {
      params: {
        resource: 'provisioning.cattle.io.cluster', namespace: 'fleet-default', id: 'ef-rke2'
      }
    };
    // Its Node was deleted: only the cluster's own Node list shows it (node-missing).
    const { wrapper } = await mountFleetView(NodeHealthMachineCell, ctx, { row: machineRow(scenario, 'custom-b1f9c5d3a2e1') }, route);

    expect(wrapper.text()).toContain('%nodeHealth.rules.nodeMissing.title%');
    expect(ctx.steve.urls).toContain(nodesRequest('c-m-ef4k8w2n').url);
    // Not the fleet's lists: at most its own management cluster, asked for by name as the tab does.
    expect(ctx.steve.urls).not.toContain(mgmtClustersUrl());
    expect(ctx.steve.urls.some((u) => u.startsWith('/v1/provisioning.cattle.io.clusters?'))).toBe(false);
    wrapper.unmount();
  });

  it('loads nothing while its table is in a tab that is not shown', async() => {
    const ctx = fleetContext(scenario);
    const { wrapper } = await mountFleetView(NodeHealthMachineCell, ctx, { row: machineRow(scenario, 'custom-2d74d4c9a104') }, undefined, false);

    expect(ctx.steve.urls).toEqual([]);
    expect(fleetSourceFor(ctx.store).polling).toBe(false);
    wrapper.unmount();
  });

  it('draws nothing for a row that is not a machine', async() => {
    const { wrapper } = await mountFleetView(NodeHealthMachineCell, fleetContext(scenario), { row: { type: 'management.cattle.io.node', metadata: { name: 'm', namespace: 'c-m-x' } } });

    expect(wrapper.text()).toBe('');
    wrapper.unmount();
  });
});
