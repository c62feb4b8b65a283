import { readFileSync } from 'fs';
import { join } from 'path';
import { load } from 'js-yaml';
import { RouterLinkStub, VueWrapper } from '@vue/test-utils';
import Select from '@shell/components/form/Select';
import FleetHealthPage from '@pkg/node-health/pages/FleetHealthPage.vue';
import NodeHealthTab from '@pkg/node-health/tabs/NodeHealthTab.vue';
import NodeHealthClusterCell from '@pkg/node-health/formatters/NodeHealthClusterCell.vue';
import { etcdQuorum } from '@pkg/node-health/engine/rules/cluster-health';
import { clusterTabLocation, RECORD_QUERY } from '@pkg/node-health/fleet/links';
import { fleetSourceFor } from '@pkg/node-health/fleet/source';
import { createTranslator } from '@pkg/node-health/report/translate';
import { fleet } from '../../scenarios/fleet';
import { large } from '../../scenarios/catalog';
import { seedFleet } from '../unit/fleet/fixtures';
import { fleetContext, mountFleetView, settle } from './fleet-harness';
import { mountTab } from './tab-harness';

function rowKeys(wrapper: VueWrapper<any>): string[] {
  return wrapper.findAll('[data-testid^="node-health-fleet-link-"]').map((a) => a.attributes('data-testid')!.replace('node-health-fleet-link-', ''));
}

async function choose(wrapper: VueWrapper<any>, name: string, value: string): Promise<void> {
  const select = wrapper.findAllComponents(Select).find((c) => c.vm.$attrs['data-testid'] === `node-health-fleet-filter-${ name }`)!;

  expect(select.props('options').map((o: { value: string }) => o.value)).toContain(value);
  select.vm.$emit('update:value', value);
  await settle();
}

describe('the fleet page', () => {
  const scenario = seedFleet();

  afterEach(() => jest.restoreAllMocks());

  it('lists every node that is not healthy, across clusters, worst first', async() => {
    const ctx = fleetContext(scenario);
    const { wrapper } = await mountFleetView(FleetHealthPage, ctx);
    const report = fleetSourceFor(ctx.store).state.report!;
    const unhealthy = report.records.filter((r) => r.status !== 'healthy' && r.cluster?.namespace);
    const keys = rowKeys(wrapper);

    expect(unhealthy.length).toBeGreaterThan(20);
    // The first page of 50, worst first.
    expect(keys).toHaveLength(Math.min(50, unhealthy.length));
    expect(wrapper.findAll('tbody tr.main-row').map((tr) => tr.text()).slice(0, 1)[0]).toContain('%nodeHealth.status.error%');
    expect(keys).toContain('machine:fleet-default/custom-2d74d4c9a104');
    expect(wrapper.text()).not.toContain('demo-cp-01');
    wrapper.unmount();
  });

  it('draws its rows and filters with real translations, a rule whose title needs a finding\'s arguments named by its name', async() => {
    // As the shell's t: a message without the arguments it names throws (intl-messageformat).
    const en = createTranslator(load(readFileSync(join(__dirname, '../../pkg/node-health/l10n/en-us.yaml'), 'utf8')), 'en-us');
    const ctx = fleetContext(scenario);
    const { wrapper } = await mountFleetView(FleetHealthPage, ctx, {}, undefined, true, (key, args) => en(key, args as any));
    const report = fleetSourceFor(ctx.store).state.report!;
    const rules = wrapper.findAllComponents(Select).find((c) => c.vm.$attrs['data-testid'] === 'node-health-fleet-filter-rule')!;

    expect(report.records.some((r) => r.status !== 'healthy' && r.cluster?.namespace && r.findings.some((f) => f.rule === 'related-record'))).toBe(true);
    expect(rowKeys(wrapper).length).toBeGreaterThan(20);
    expect(rules.props('options')).toContainEqual({ label: 'Part of another record\'s problem', value: 'related-record' });
    expect(wrapper.find('[data-testid="node-health-fleet-tab-only"]').text()).toContain('Node is gone');
    wrapper.unmount();
  });

  it('opens the tab of a cluster several machines hold back, where its banner names them all', async() => {
    const ctx = fleetContext(large(300));
    const { wrapper, router } = await mountFleetView(FleetHealthPage, ctx);
    const big = wrapper.find('[data-testid="node-health-fleet-blocked-fleet-default/big-rke2"]');

    await big.find('a').trigger('click');
    expect(router.push).toHaveBeenCalledWith(clusterTabLocation('fleet-default', 'big-rke2'));
    wrapper.unmount();
  });

  it('sums up: clusters affected, nodes per status, the clusters one machine holds back', async() => {
    const ctx = fleetContext(scenario);
    const { wrapper, router } = await mountFleetView(FleetHealthPage, ctx);
    const { counts } = fleetSourceFor(ctx.store).state.report!;

    const { report, summary } = fleetSourceFor(ctx.store).state;
    const affected = new Set([
      ...report!.records.filter((r) => r.status !== 'healthy' && r.cluster?.namespace).map((r) => r.cluster!.name),
      ...report!.clusters.filter((c) => c.namespace && c.findings.some((f) => f.severity !== 'info')).map((c) => c.name),
    ]);

    expect(summary!.clustersAffected).toBe(affected.size);
    expect(affected.has('edge-k3s')).toBe(true);
    expect(wrapper.find('[data-testid="node-health-fleet-clusters-affected"]').text()).toMatch(new RegExp(`^${ affected.size } `));
    expect(wrapper.find('[data-testid="node-health-fleet-summary"] [data-testid="node-health-count-error"]').text()).toContain(String(counts.error));
    expect(wrapper.find('[data-testid="node-health-fleet-summary"] [data-testid="node-health-count-warning"]').text()).toContain(String(counts.warning));
    const ghost = wrapper.find('[data-testid="node-health-fleet-blocked-fleet-default/dev-k3s"]');

    expect(ghost.text()).toContain('"cluster":"dev-k3s","machine":"custom-2d74d4c9a104"');
    expect(ghost.text()).toContain('configuring etcd node(s) custom-2d74d4c9a104');
    await ghost.find('a').trigger('click');
    expect(router.push).toHaveBeenCalledWith(expect.objectContaining({ query: { [RECORD_QUERY]: 'machine:fleet-default/custom-2d74d4c9a104' } }));
    // A count filters the table to its status, and again shows all.
    await wrapper.find('[data-testid="node-health-fleet-summary"] [data-testid="node-health-count-warning"]').trigger('click');
    await settle();
    expect(wrapper.findAll('tbody tr.main-row').length).toBe(Math.min(50, counts.warning));
    expect(wrapper.findAll('tbody tr.main-row').every((tr) => tr.text().includes('%nodeHealth.status.warning%'))).toBe(true);
    await wrapper.find('[data-testid="node-health-fleet-summary"] [data-testid="node-health-count-warning"]').trigger('click');
    await settle();
    expect(wrapper.findAll('tbody tr.main-row').length).toBe(Math.min(50, counts.error + counts.warning + counts.unknown));
    // What concerns whole clusters, each leading to its cluster's tab.
    const agent = wrapper.find('[data-testid="node-health-fleet-cluster-finding-fleet-default/edge-k3s-cluster-agent-disconnected"]');

    expect(agent.text()).toContain('%nodeHealth.rules.clusterAgentDisconnected.title%');
    // Its severity said before it with the colon of the language.
    expect(agent.find('[data-severity]').text()).toBe('%nodeHealth.status.error%%nodeHealth.colon%');
    expect(agent.findComponent(RouterLinkStub).props('to')).toEqual(clusterTabLocation('fleet-default', 'edge-k3s'));
    expect(wrapper.find('[data-testid="node-health-fleet-cluster-finding-fleet-default/pool-rke2-init-node-missing"]').exists()).toBe(true);
    // The rules the fleet leaves to the tab are named.
    expect(wrapper.find('[data-testid="node-health-fleet-tab-only"]').text()).toContain('%nodeHealth.rules.nodeMissing.title%');
    wrapper.unmount();
  });

  it('says which check of a whole cluster could not run, on the page and in the cluster list, rather than call the cluster healthy', async() => {
    // A defect in one check of the whole cluster: the cluster is not known to be fine.
    jest.spyOn(etcdQuorum, 'check').mockImplementation(() => {
      throw new Error('unexpected member list');
    });
    const ctx = fleetContext(scenario);
    const { wrapper } = await mountFleetView(FleetHealthPage, ctx);
    const note = wrapper.find('[data-testid="node-health-fleet-cluster-note-fleet-default/demo-rke2"]');

    expect(note.find('.text-muted').text()).toBe('%nodeHealth.status.unknown%%nodeHealth.colon%');
    expect(note.text()).toContain('%nodeHealth.fleet.summary.clusterNote%{"cluster":"demo-rke2"');
    expect(note.text()).toContain('%nodeHealth.notes.ruleFailed%');
    expect(note.text()).toContain('unexpected member list');
    expect(note.findComponent(RouterLinkStub).props('to')).toEqual(clusterTabLocation('fleet-default', 'demo-rke2'));
    const { summary } = fleetSourceFor(ctx.store).state;

    expect(summary!.clusterNotes.map((n) => n.clusterName)).toContain('demo-rke2');
    const cell = await mountFleetView(NodeHealthClusterCell, ctx, { row: { metadata: { name: 'demo-rke2', namespace: 'fleet-default' } } });

    expect(cell.wrapper.find('[data-testid="node-health-cluster-level-note"]').text()).toBe('%nodeHealth.fleet.column.clusterNotJudged%{"count":1}');
    cell.wrapper.unmount();
    wrapper.unmount();
  });

  it('filters by cluster, rule, status and search', async() => {
    const { wrapper } = await mountFleetView(FleetHealthPage, fleetContext(scenario));

    await choose(wrapper, 'cluster', 'fleet-default/vs-win');
    const vsWin = rowKeys(wrapper);

    expect(vsWin.length).toBeGreaterThan(0);
    // Its machines, and the Node win-worker-01 (by its management id), which is one of those machines' host.
    expect(vsWin.every((k) => k.includes('vs-win') || k.startsWith('node:c-m-w8k2p5tz/'))).toBe(true);
    expect(vsWin).toContain('node:c-m-w8k2p5tz/win-worker-01');
    await choose(wrapper, 'cluster', 'all');
    await choose(wrapper, 'rule', 'orphan-node');
    // ef-stale-record: Rancher's copy of a Node whose machine is gone; the tab tells whether the Node is still there.
    expect(rowKeys(wrapper).sort()).toEqual(['node:c-m-ef4k8w2n/ef-orphan', 'node:c-m-ef4k8w2n/ef-stale-record', 'node:c-m-r5n8d3kx/edge-worker-03', 'node:c-m-4qj7x2vd/dev-k8s-node01'].sort());
    await choose(wrapper, 'rule', 'all');
    await choose(wrapper, 'severity', 'unknown');
    expect(wrapper.findAll('tbody tr.main-row').every((tr) => tr.text().includes('%nodeHealth.status.unknown%'))).toBe(true);
    await choose(wrapper, 'severity', 'all');
    await wrapper.find('[data-testid="node-health-fleet-search"]').setValue('ef-wk-notready');
    await settle();
    expect(rowKeys(wrapper)).toEqual(['machine:fleet-default/custom-c2a0d6e4b3f2']);
    wrapper.unmount();
  });

  it('links each row to its record in its cluster\'s tab, and the tab opens that record', async() => {
    const { wrapper } = await mountFleetView(FleetHealthPage, fleetContext(scenario));
    const link = wrapper.findAllComponents(RouterLinkStub).find((l) => l.attributes('data-testid') === 'node-health-fleet-link-machine:fleet-default/custom-c2a0d6e4b3f2')!;
    const to = link.props('to') as any;

    expect(to).toEqual({
      name:   'c-cluster-product-resource-namespace-id',
      params: {
        cluster: '_', product: 'manager', resource: 'provisioning.cattle.io.cluster', namespace: 'fleet-default', id: 'ef-rke2'
      },
      query: { [RECORD_QUERY]: 'machine:fleet-default/custom-c2a0d6e4b3f2' },
      hash:  '#node-health',
    });
    wrapper.unmount();
    jest.restoreAllMocks();

    // The cluster's page, opened by that link.
    const { everyFailure } = await import('../../scenarios/catalog');
    const ef = everyFailure();
    const tab = mountTab(ef, {}, undefined, { hash: to.hash, query: to.query } as any);

    await tab.show();
    expect(tab.wrapper.findComponent(NodeHealthTab).vm.openKey).toBe('machine:fleet-default/custom-c2a0d6e4b3f2');
    expect(tab.wrapper.find('[data-testid="node-health-detail-row-machine:fleet-default/custom-c2a0d6e4b3f2"]').exists()).toBe(true);
    tab.wrapper.unmount();
  });

  it('tells a user without secrets what is missing, and still shows what the machines tell', async() => {
    const { wrapper } = await mountFleetView(FleetHealthPage, fleetContext(scenario, { fail: { planSecrets: { status: 403 } } }));

    expect(wrapper.find('[data-testid="node-health-unavailable-planSecrets"]').text()).toContain('%nodeHealth.tab.unavailable.reason.forbidden%');
    expect(rowKeys(wrapper)).toContain('machine:fleet-default/custom-2d74d4c9a104');
    wrapper.unmount();
  });

  it('gives a user who may read only some plan secrets the degraded verdicts, with a notice, as the tab does', async() => {
    const ctx = fleetContext(scenario, { partial: ['planSecrets'] });
    const { wrapper } = await mountFleetView(FleetHealthPage, ctx);
    const { load, report } = fleetSourceFor(ctx.store).state;

    expect(load!.availability.planSecrets).toBe('partial');
    expect(wrapper.find('[data-testid="node-health-unavailable-planSecrets"]').text()).toContain('%nodeHealth.tab.unavailable.reason.partial%');
    // No finding rests on a plan secret missing from a list that may be partial.
    expect(report!.records.some((r) => r.findings.some((f) => f.rule === 'plan-secret-missing'))).toBe(false);
    expect(rowKeys(wrapper)).toContain('machine:fleet-default/custom-2d74d4c9a104');
    // Asked once per resource for all namespaces, then per fleet workspace: never per cluster.
    const secretReviews = ctx.steve.reviews.filter((r) => r.resource === 'secrets');

    expect(secretReviews.map((r) => r.namespace ?? '').sort()).toEqual(['', ...new Set(scenario.clusters.map((c) => c.namespace))].sort());
    wrapper.unmount();
  });

  it('shows a user only the clusters they may list', async() => {
    const visible = (o: any) => {
      const cluster = o.kind === 'Cluster' ? o.metadata.name : (o.metadata.labels?.['cluster.x-k8s.io/cluster-name'] ?? o.metadata.labels?.['rke.cattle.io/cluster-name']);

      return cluster ? cluster === 'ef-rke2' : (o.metadata.namespace?.startsWith('c-m-') ? o.metadata.namespace === 'c-m-ef4k8w2n' : true);
    };
    const { wrapper } = await mountFleetView(FleetHealthPage, fleetContext(scenario, { visible }));
    const options = wrapper.findAllComponents(Select).find((c) => c.vm.$attrs['data-testid'] === 'node-health-fleet-filter-cluster')!.props('options');

    expect(options.map((o: any) => o.value)).toEqual(['all', 'fleet-default/ef-rke2']);
    expect(wrapper.findAll('tbody tr.main-row').every((tr) => tr.text().includes('ef-rke2'))).toBe(true);
    expect(wrapper.find('[data-testid="node-health-fleet-clusters-affected"]').text()).toMatch(/^1/);
    wrapper.unmount();
  });

  it.each([[false], [true]])('asks the same requests and reviews for 2 clusters as for 200 (SQL cache %s)', async(sqlCache) => {
    const asked = async(clusters: number) => {
      const ctx = fleetContext(fleet(clusters, { nodesPerCluster: 2 }), { sqlCache });
      const { wrapper } = await mountFleetView(FleetHealthPage, ctx);
      const { load } = fleetSourceFor(ctx.store).state;

      expect(load!.targets).toHaveLength(clusters);
      wrapper.unmount();
      jest.restoreAllMocks();

      return { urls: ctx.steve.urls, reviews: ctx.steve.reviews.map((r) => JSON.stringify(r)).sort() };
    };
    const small = await asked(2);
    const big = await asked(200);

    expect(big.urls).toEqual(small.urls);
    expect(big.reviews).toEqual(small.reviews);
    // Plan secrets asked for in the form the mode honours, as the tab asks for them.
    expect(small.urls.find((u) => u.startsWith('/v1/secrets?'))).toContain(sqlCache ? 'filter=_type%3Drke.cattle.io%2Fmachine-plan' : 'fieldSelector=type%3Drke.cattle.io%2Fmachine-plan');
    expect(small.urls.some((u) => u.startsWith('/k8s/'))).toBe(false);
  }, 120000);

  it('says so when the clusters cannot be listed', async() => {
    const failUrl = (url: string) => (url.startsWith('/v1/provisioning.cattle.io.clusters') ? { status: 403, message: 'clusters.provisioning.cattle.io is forbidden' } : undefined);
    const { wrapper } = await mountFleetView(FleetHealthPage, fleetContext(scenario, { failUrl }));

    expect(wrapper.find('[data-testid="node-health-fleet-error"]').text()).toContain('%nodeHealth.fleet.error.forbidden%');
    expect(wrapper.find('[data-testid="node-health-fleet-error"]').text()).toContain('clusters.provisioning.cattle.io is forbidden');
    wrapper.unmount();
  });

  it('a failed refresh keeps the last rows and says why, with the server\'s status and message as the tab says them', async() => {
    const ctx = fleetContext(scenario);
    const { wrapper } = await mountFleetView(FleetHealthPage, ctx);
    const rows = wrapper.findAll('tbody tr.main-row').length;

    expect(rows).toBeGreaterThan(0);
    ctx.steve.options.failUrl = (url: string) => (url.startsWith('/v1/provisioning.cattle.io.clusters') ? { status: 503, message: 'the server is shutting down' } : undefined);
    await wrapper.find('[data-testid="node-health-fleet-refresh"]').trigger('click');
    await settle();
    const banner = wrapper.find('[data-testid="node-health-fleet-refresh-error"]');

    expect(banner.text()).toContain('%nodeHealth.tab.refreshFailed%');
    expect(banner.text()).toContain('%nodeHealth.fleet.error.server%');
    expect(banner.text()).toContain('the server is shutting down');
    expect(wrapper.findAll('tbody tr.main-row').length).toBe(rows);
    wrapper.unmount();
  });

  it('polls only while on screen and the page is shown', async() => {
    const ctx = fleetContext(scenario);
    const { wrapper } = await mountFleetView(FleetHealthPage, ctx);
    const source = fleetSourceFor(ctx.store);

    expect(source.polling).toBe(true);
    wrapper.unmount();
    expect(source.polling).toBe(false);
  });
});
