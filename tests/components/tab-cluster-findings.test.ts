import { CLUSTER_RULES } from '@pkg/node-health/engine/rules/cluster';
import type { ClusterRule } from '@pkg/node-health/engine/rules/cluster';
import { agentDisconnected, healthy } from '../../scenarios/catalog';
import { mountTab } from './tab-harness';
import type { MountedTab } from './tab-harness';
import { inputOfUrl } from './tab-steve';

let tab: MountedTab | null = null;

afterEach(() => {
  tab?.wrapper.unmount();
  tab = null;
});

const findings = (t: MountedTab) => t.wrapper.find('[data-testid="node-health-cluster-findings"]');
const disconnected = (t: MountedTab) => t.wrapper.find('[data-testid="node-health-cluster-finding-cluster-agent-disconnected"]');

describe('findings about the whole cluster', () => {
  it('stand above the table, like the blocking banner: the agent disconnected, since when, and that Node data may be stale', async() => {
    tab = mountTab(agentDisconnected());
    await tab.show();
    const banner = disconnected(tab);

    expect(banner.exists()).toBe(true);
    expect(banner.classes()).toContain('error');
    expect(banner.text()).toContain('%nodeHealth.rules.clusterAgentDisconnected.title%');
    expect(banner.text()).toContain('%nodeHealth.rules.clusterAgentDisconnected.cause%');
    expect(banner.text()).toContain('%nodeHealth.tab.detail.since%');
    expect(banner.find('[data-testid="node-health-cluster-fix-cluster-agent-disconnected-1"] code').text()).toBe('kubectl -n cattle-system get pods -l app=cattle-cluster-agent -o wide');
    // Rancher's own words, as text.
    expect(banner.text()).toContain('Cluster agent is not connected');
    // Its evidence is the row detail's table: a field path breaks only between its parts.
    const paths = banner.findAll('.evidence-table code.evidence-path');

    expect(paths.length).toBeGreaterThan(0);
    expect(paths.every((p) => p.findAll('wbr').length === p.text().split(/(?=[.[])/).length - 1)).toBe(true);
    // As in a row: the evidence under its own fold, the steps under "What to do", each fold named for what it holds.
    const evidence = banner.find('[data-testid="node-health-cluster-evidence"]');
    const fix = banner.find('[data-testid="node-health-cluster-fix"]');

    expect(evidence.find('summary').text()).toBe('%nodeHealth.tab.detail.evidence%');
    expect(evidence.find('.evidence-table').exists()).toBe(true);
    expect(fix.find('summary').text()).toBe('%nodeHealth.tab.detail.fix%');
    expect(fix.find('.evidence-table').exists()).toBe(false);
    expect(fix.find('[data-testid="node-health-cluster-fix-cluster-agent-disconnected-1"]').exists()).toBe(true);
    // Above the table.
    const html = tab.wrapper.html();

    expect(html.indexOf('node-health-cluster-findings')).toBeLessThan(html.indexOf('node-health-table'));
    expect(tab.wrapper.findAll('tr.main-row').length).toBe(3);
  });

  it('read the management cluster from the store: no request more than before', async() => {
    tab = mountTab(agentDisconnected());
    await tab.show();

    expect(tab.steve.urls.map(inputOfUrl)).not.toContain('mgmtCluster');
    expect(tab.steve.urls).toHaveLength(10);
  });

  it('ask Steve for the management cluster, once, when the store does not hold it', async() => {
    tab = mountTab(agentDisconnected(), { storeHasMgmtClusters: false });
    await tab.show();
    const asked = tab.steve.urls.filter((u) => inputOfUrl(u) === 'mgmtCluster');

    expect(asked).toHaveLength(1);
    expect(decodeURIComponent(asked[0])).toMatch(/^\/v1\/management\.cattle\.io\.clusters\/c-m-ed2g5k8s\?include=/);
    expect(decodeURIComponent(asked[0])).toContain('include=status.conditions&include=status.connected');
    expect(asked[0]).not.toMatch(/include=spec/);
    expect(disconnected(tab).text()).toContain('management Cluster c-m-ed2g5k8s');
  });

  it('a user who may not read the management cluster gets the rows and no finding from it, not an error', async() => {
    tab = mountTab(healthy(), { storeHasMgmtClusters: false, fail: { mgmtCluster: { status: 403 } } });
    await tab.show();

    expect(tab.wrapper.find('[data-testid="node-health-error"]').exists()).toBe(false);
    expect(tab.wrapper.findAll('tr.main-row').length).toBe(5);
    expect(findings(tab).exists()).toBe(false);
    tab.wrapper.unmount();
    // Without it, the provisioning cluster's own Connected condition still tells.
    tab = mountTab(agentDisconnected(), { storeHasMgmtClusters: false, fail: { mgmtCluster: { status: 403 } } });
    await tab.show();
    expect(disconnected(tab).text()).toContain('Cluster fleet-default/edge-k3s');
    expect(disconnected(tab).text()).not.toContain('management Cluster');
  });

  it('are not there on a healthy cluster', async() => {
    tab = mountTab(healthy());
    await tab.show();

    expect(findings(tab).exists()).toBe(false);
  });

  it('say which check of the cluster could not run, and why, rather than nothing', async() => {
    const rules = CLUSTER_RULES as ClusterRule[];
    const broken: ClusterRule = {
      id:       'role-missing',
      severity: 'error',
      check() {
        throw new Error('roles of undefined');
      }
    };

    rules.unshift(broken);
    try {
      tab = mountTab(healthy());
      await tab.show();
      const note = tab.wrapper.find('[data-testid="node-health-cluster-note"]');

      expect(note.exists()).toBe(true);
      expect(note.text()).toContain('%nodeHealth.notes.ruleFailed%');
      // The harness's t() shows keys only; the engine's test checks the rule and the message it carries.
      expect(note.classes()).toContain('warning');
    } finally {
      rules.splice(rules.indexOf(broken), 1);
    }
  });
});
