import { ghostEtcd, healthy, imported } from '../../scenarios/catalog';
import type { Scenario } from '../../scenarios/types';
import { holdAnswers, mountTab } from './tab-harness';
import type { MountedTab } from './tab-harness';
import type { Failure } from './tab-steve';

let tab: MountedTab | null = null;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

beforeAll(() => process.on('unhandledRejection', onUnhandled));
afterAll(() => process.off('unhandledRejection', onUnhandled));
beforeEach(() => {
  unhandled.length = 0;
});
afterEach(() => {
  tab?.wrapper.unmount();
  tab = null;
});

function open(s: Scenario, options: Parameters<typeof mountTab>[1] = {}, resource?: Record<string, any>): MountedTab {
  tab = resource ? mountTab(s, options, resource) : mountTab(s, options);

  return tab;
}

/** A provisioned cluster whose machines and nodes are all gone. */
function emptyCluster(): Scenario {
  const s = healthy();

  return {
    ...s,
    objects:    s.objects.filter((o) => o.kind === 'Cluster'),
    downstream: Object.fromEntries(Object.keys(s.downstream).map((id) => [id, []])),
  };
}

describe('loading', () => {
  it('draws no table and requests nothing while the tab is hidden, so the tab\'s label counts nothing it has not read', async() => {
    const t = open(ghostEtcd());

    await t.settle();
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(t.wrapper.find('[data-testid="node-health-loading"]').exists()).toBe(false);
    expect(t.wrapper.find('table').exists()).toBe(false);
    expect(t.steve.urls).toEqual([]);
  });

  it('loads when the tab becomes visible, with the shell\'s loading row in the table until the answers are in', async() => {
    const t = open(ghostEtcd());
    const release = holdAnswers(t);

    await t.show();
    expect(t.steve.urls).toEqual([]);
    // The shell's SortableTable shows its loading row once its 200 ms delay has passed (no flash on fast loads).
    await new Promise((resolve) => setTimeout(resolve, 250));
    const loading = t.wrapper.find('[data-testid="node-health-loading"]');

    expect(loading.exists()).toBe(true);
    expect(loading.find('.data-loading .icon-spinner').exists()).toBe(true);
    expect(loading.find('thead').text()).toContain('%nodeHealth.tab.table.machine%');
    // Not the shell's Loading overlay, a grey box over the whole tab.
    expect(t.wrapper.find('.loading-indicator').exists()).toBe(false);
    release();
    await t.settle();
    expect(t.steve.urls).toHaveLength(10);
    expect(t.wrapper.find('[data-testid="node-health-loading"]').exists()).toBe(false);
    expect(t.wrapper.find('[data-testid="node-health-summary"]').exists()).toBe(true);
  });
});

describe('empty', () => {
  it('says the cluster has no machines or nodes yet, with the counts at zero', async() => {
    const t = open(emptyCluster());

    await t.show();
    expect(t.wrapper.find('[data-testid="node-health-empty"]').text()).toContain('%nodeHealth.tab.empty.provisioned%');
    expect(t.wrapper.find('[data-testid="node-health-count-healthy"]').text()).toContain('0');
    expect(t.wrapper.find('[data-testid="node-health-table-list-container"]').exists()).toBe(false);
  });

  it('says so for a cluster Rancher has not registered yet, without requesting anything', async() => {
    const s = imported();
    const resource = JSON.parse(JSON.stringify(mountTab(s).wrapper.props('resource')));

    tab?.wrapper.unmount();
    resource.status = {};
    const t = open(s, {}, resource);

    await t.show();
    expect(t.wrapper.find('[data-testid="node-health-unregistered"]').text()).toContain('%nodeHealth.tab.unregistered%');
    expect(t.steve.urls).toEqual([]);
  });
});

describe('errors', () => {
  const everything = (failure: Failure) => ({
    fail: {
      machines: failure, planSecrets: failure, bootstraps: failure, infraMachines: failure, mgmtNodes: failure, nodes: failure
    }
  });

  it.each([
    ['401', { status: 401 }, 'nodeHealth.tab.error.unauthorized'],
    ['403', { status: 403 }, 'nodeHealth.tab.error.forbidden'],
    ['404', { status: 404 }, 'nodeHealth.tab.error.not-found'],
    ['500', { status: 500 }, 'nodeHealth.tab.error.server'],
    ['503', { status: 503 }, 'nodeHealth.tab.error.server'],
    ['a lost connection', { network: true }, 'nodeHealth.tab.error.network'],
  ] as [string, Failure, string][])('%s gives a message and a retry that recovers', async(_name, failure, key) => {
    const t = open(ghostEtcd(), everything(failure));

    await t.show();
    const error = t.wrapper.find('[data-testid="node-health-error"]');

    expect(error.exists()).toBe(true);
    expect(error.text()).toContain(`%${ key }%`);
    expect(t.wrapper.find('[data-testid="node-health-summary"]').exists()).toBe(false);

    t.steve.options.fail = {};
    await t.wrapper.find('[data-testid="node-health-retry"]').trigger('click');
    await t.settle();
    expect(t.wrapper.find('[data-testid="node-health-error"]').exists()).toBe(false);
    expect(t.wrapper.find('[data-testid="node-health-count-error"]').text()).toContain('1');
    expect(unhandled).toEqual([]);
  });

  it('shows the server\'s own message as text', async() => {
    const t = open(ghostEtcd(), everything({ status: 500, message: '<b>etcdserver: request timed out</b>' }));

    await t.show();
    const error = t.wrapper.find('[data-testid="node-health-error"]');

    expect(error.text()).toContain('<b>etcdserver: request timed out</b>');
    expect(error.find('b').exists()).toBe(false);
  });

  it('keeps the last data with a warning when a later refresh fails', async() => {
    const t = open(ghostEtcd());

    await t.show();
    t.steve.options.fail = { machines: { status: 502 } };
    await t.wrapper.find('[data-testid="node-health-refresh"]').trigger('click');
    await t.settle();
    expect(t.wrapper.find('[data-testid="node-health-refresh-error"]').text()).toContain('%nodeHealth.tab.error.server%');
    expect(t.wrapper.find('[data-testid="node-health-count-error"]').text()).toContain('1');
    t.steve.options.fail = {};
    await t.wrapper.find('[data-testid="node-health-refresh"]').trigger('click');
    await t.settle();
    expect(t.wrapper.find('[data-testid="node-health-refresh-error"]').exists()).toBe(false);
    expect(unhandled).toEqual([]);
  });
});

describe('imported clusters', () => {
  it('show the Node view only, with the line saying why machine checks do not apply', async() => {
    const t = open(imported());

    await t.show();
    expect(t.wrapper.find('[data-testid="node-health-imported"]').text()).toContain('%nodeHealth.tab.imported%');
    expect(t.wrapper.find('[data-testid="node-health-count-healthy"]').text()).toMatch(/^3/);
    expect(t.wrapper.find('[data-testid="node-health-registration"]').exists()).toBe(false);
    expect(t.wrapper.findAll('tr.main-row')).toHaveLength(4);
  });
});
