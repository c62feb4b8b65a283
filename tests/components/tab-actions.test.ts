import { flushPromises } from '@vue/test-utils';
import { etcdHook, ghostEtcd, GHOST_MACHINE, LEAVING_ETCD_MACHINE } from '../../scenarios/catalog';
import { ACTION_CATALOGUE } from '@pkg/node-health/actions';
import { mountTab } from './tab-harness';
import { loadUrls } from './tab-steve';
import type { MountedTab } from './tab-harness';

let tab: MountedTab | null = null;

afterEach(() => {
  tab?.wrapper.unmount();
  tab = null;
});

const modals = (t: MountedTab) => t.steve.actions.filter((a) => a.type === 'management/promptModal').map((a) => a.payload);

async function openRow(t: MountedTab, machine: string) {
  const key = `machine:fleet-default/${ machine }`;

  await t.wrapper.find(`[data-testid="node-health-toggle-${ key }"]`).trigger('click');
  await flushPromises();

  return t.wrapper.find(`[data-testid="node-health-detail-row-${ key }"]`);
}

describe('actions', () => {
  it('remove-finalizers opens the cleanup dialog for the record, and its completion refreshes the tab', async() => {
    tab = mountTab(ghostEtcd());
    await tab.show();
    const detail = await openRow(tab, GHOST_MACHINE);

    await detail.find('[data-testid="node-health-action-remove-finalizers"]').trigger('click');
    const [modal] = modals(tab);

    expect(modal.component).toBe('RemoveFinalizersDialog');
    expect(modal.resources[0]).toMatchObject({
      focus:   'finalizers',
      record:  { key: `machine:fleet-default/${ GHOST_MACHINE }`, machineName: GHOST_MACHINE },
      context: { clusterId: 'c-m-4qj7x2vd', user: 'admin' },
    });
    const requests = loadUrls(tab.steve.urls).length;

    // Opening the row read its timeline's Events (apart from the tab's own lists, counted here).
    expect(tab.steve.urls.filter((u) => u.includes('/events')).length).toBeGreaterThan(0);

    modal.resources[0].context.onDone();
    await tab.settle();
    expect(loadUrls(tab.steve.urls).length).toBe(2 * requests);
  });

  it('etcd-force-remove opens the same dialog on the etcd release', async() => {
    tab = mountTab(etcdHook());
    await tab.show();
    const detail = await openRow(tab, LEAVING_ETCD_MACHINE);

    await detail.find('[data-testid="node-health-finding-etcd-removal-hook-blocked"] [data-testid="node-health-action-etcd-force-remove"]').trigger('click');
    const [modal] = modals(tab);

    expect(modal.component).toBe('RemoveFinalizersDialog');
    expect(modal.resources[0]).toMatchObject({ focus: 'etcd', record: { machineName: LEAVING_ETCD_MACHINE } });
  });

  it('re-register opens the registration command for that node; the header button for the cluster', async() => {
    tab = mountTab(ghostEtcd());
    await tab.show();
    const detail = await openRow(tab, GHOST_MACHINE);

    await detail.find('[data-testid="node-health-action-re-register"]').trigger('click');
    await tab.wrapper.find('[data-testid="node-health-registration"]').trigger('click');
    const [forNode, forCluster] = modals(tab);

    expect(forNode.component).toBe('RegistrationCommandDialog');
    expect(forNode.resources[0]).toMatchObject({
      cluster: {
        mgmtId: 'c-m-4qj7x2vd', name: 'dev-k3s', namespace: 'fleet-default'
      },
      record:  { machineName: GHOST_MACHINE },
      context: { clusterId: 'c-m-4qj7x2vd', user: 'admin' },
      // Steve gave the cluster an update link: the user may be given its token.
      access:  { allowed: true },
    });
    expect(forCluster.component).toBe('RegistrationCommandDialog');
    expect(forCluster.resources[0]).toMatchObject({
      cluster: { mgmtId: 'c-m-4qj7x2vd' }, record: null, access: { allowed: true }
    });
  });

  it('a finding\'s action opens through its entry in the action catalogue', async() => {
    const entry = ACTION_CATALOGUE['remove-finalizers'];
    const open = jest.spyOn(entry, 'open').mockResolvedValue(undefined);

    try {
      tab = mountTab(ghostEtcd());
      await tab.show();
      const detail = await openRow(tab, GHOST_MACHINE);

      await detail.find('[data-testid="node-health-action-remove-finalizers"]').trigger('click');
      expect(open).toHaveBeenCalledTimes(1);
      expect(open.mock.calls[0][1]).toMatchObject({
        record: { machineName: GHOST_MACHINE }, context: { clusterId: 'c-m-4qj7x2vd' }, cluster: { name: 'dev-k3s' }
      });
      expect(modals(tab)).toEqual([]);
    } finally {
      open.mockRestore();
    }
  });

  it('the registration command is offered only for custom clusters', async() => {
    tab = mountTab(etcdHook());
    await tab.show();
    const custom = tab.wrapper.find('[data-testid="node-health-registration"]').exists();
    const resource = tab.wrapper.props('resource');

    tab.wrapper.unmount();
    const pooled = JSON.parse(JSON.stringify(resource));

    pooled.spec.rkeConfig.machinePools = [{ name: 'pool1', quantity: 3 }];
    tab = mountTab(etcdHook(), {}, pooled);
    await tab.show();
    expect(custom).toBe(true);
    expect(tab.wrapper.find('[data-testid="node-health-registration"]').exists()).toBe(false);
  });

  it('the diagnostics export takes the session\'s diagnosis, redacted, with the cluster and what could not be read', async() => {
    tab = mountTab(ghostEtcd(), { fail: { nodes: { status: 503 } } });
    await tab.show();
    expect(tab.wrapper.findComponent({ name: 'DiagnosticsExport' }).exists()).toBe(false);
    await tab.wrapper.find('[data-testid="node-health-export-toggle"]').trigger('click');
    await flushPromises();
    const exporter = tab.wrapper.findComponent({ name: 'DiagnosticsExport' });

    expect(exporter.props('cluster')).toMatchObject({ name: 'dev-k3s', mgmtId: 'c-m-4qj7x2vd' });
    const taken = await exporter.props('take')([]);

    expect(taken.report.records).toHaveLength(18);
    expect(taken.cluster).toMatchObject({ name: 'dev-k3s', mgmtId: 'c-m-4qj7x2vd' });
    expect(taken.availability).toMatchObject({ nodes: 'error', machines: 'ok' });
    expect(taken.unreadable).toEqual([expect.objectContaining({ input: 'nodes', status: 503 })]);
  });
});
