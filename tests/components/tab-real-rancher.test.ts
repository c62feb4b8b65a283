/**
 * The tab on the embedded Rancher API, in both of Steve's modes: it asks in the form the mode honours, reads
 * partial lists as partial for a user granted only some plan secrets, takes a hidden schema (404) for what it is,
 * and reads a cluster whose Machines are served as Cluster API v1beta2.
 */
import { flushPromises } from '@vue/test-utils';
import {
  capiV1beta2, everyFailure, ghostEtcd, GHOST_MACHINE, V1BETA2_AGENT_MACHINE, V1BETA2_DELETING_MACHINE, V1BETA2_NO_NODE_MACHINE, V1BETA2_NODE_GONE_MACHINE
} from '../../scenarios/catalog';
import type { MockRancher } from '../../mock-rancher/server';
import { mountTab } from './tab-harness';
import type { MountedTab } from './tab-harness';
import { embeddedSteve, loaded, startEmbedded } from './tab-embedded';

jest.setTimeout(60000);

let tab: MountedTab | null = null;
let mock: MockRancher | null = null;

afterEach(async() => {
  tab?.wrapper.unmount();
  tab = null;
  await mock?.close();
  mock = null;
});

const MODES: [string, boolean][] = [['with the SQL cache', true], ['without it', false]];

function rowOf(t: MountedTab, key: string) {
  return t.wrapper.find(`[data-testid="node-health-toggle-${ key }"]`).element.closest('tr') as HTMLElement;
}

describe.each(MODES)('the tab against the embedded API, Steve %s', (_name, sqlCache) => {
  it('asks in the form the mode honours, and gets only this cluster\'s objects back', async() => {
    const s = ghostEtcd();

    mock = await startEmbedded(s, sqlCache, ['healthy']);
    const steve = embeddedSteve(mock);

    tab = mountTab(s, { steve });
    tab.show();
    await loaded(tab);
    const machinesUrl = decodeURIComponent(steve.urls.find((u) => u.includes('cluster.x-k8s.io.machines')) ?? '');

    expect(machinesUrl).toContain(sqlCache ? 'filter=metadata.labels[cluster.x-k8s.io/cluster-name]=dev-k3s' : 'labelSelector=cluster.x-k8s.io/cluster-name=dev-k3s');
    expect(machinesUrl).not.toContain(sqlCache ? 'labelSelector' : 'filter=');
    // The healthy cluster's machines share the namespace: the form asked for is the one that leaves them out.
    const listed = steve.responses.filter((r) => /machines|rkebootstraps|secrets/.test(r.url)).flatMap((r: any) => r.body.data);

    expect(listed.length).toBeGreaterThan(16);
    expect(listed.filter((o: any) => (o.metadata.labels['cluster.x-k8s.io/cluster-name'] ?? o.metadata.labels['rke.cattle.io/cluster-name']) !== 'dev-k3s')).toStrictEqual([]);
    expect(tab.wrapper.findAll('[data-testid^="node-health-unavailable-"]')).toHaveLength(0);
    expect(tab.wrapper.find('[data-testid="node-health-count-error"]').text()).toMatch(/^1/);
    expect(rowOf(tab, `machine:fleet-default/${ GHOST_MACHINE }`).textContent).toContain('%nodeHealth.rules.agentNeverCheckedIn.title%');
  });

  it('a user granted only some plan secrets: told the list is partial, and no plan secret is called missing', async() => {
    const s = everyFailure();

    mock = await startEmbedded(s, sqlCache);
    tab = mountTab(s, { steve: embeddedSteve(mock, 'fleet-member') });
    tab.show();
    await loaded(tab);
    const banner = tab.wrapper.find('[data-testid="node-health-unavailable-planSecrets"]');

    expect(banner.text()).toContain('%nodeHealth.tab.unavailable.reason.partial%');
    expect(tab.wrapper.findAll('[data-testid^="node-health-unavailable-"]')).toHaveLength(1);
    expect(tab.wrapper.html()).not.toContain('planSecretMissing');
    // A worker whose plan secret is not among those granted, and whose own Machine says nothing is wrong.
    expect(rowOf(tab, 'machine:fleet-default/custom-0a11ce5e7c04').textContent).toContain('%nodeHealth.status.unknown%');
    // What does not rest on the secrets is still found.
    expect(rowOf(tab, 'machine:fleet-default/custom-c2a0d6e4b3f2').textContent).toContain('%nodeHealth.rules.nodeNotReady.title%');
  });

  it('a user who may not read secrets at all: the schema is hidden (404), said as such, and nothing is called missing', async() => {
    const s = ghostEtcd();

    mock = await startEmbedded(s, sqlCache);
    tab = mountTab(s, { steve: embeddedSteve(mock, 'no-secrets') });
    tab.show();
    await loaded(tab);

    expect(tab.wrapper.find('[data-testid="node-health-unavailable-planSecrets"]').text()).toContain('%nodeHealth.tab.unavailable.reason.hidden%');
    expect(tab.wrapper.html()).not.toContain('planSecretMissing');
    expect(rowOf(tab, `machine:fleet-default/${ GHOST_MACHINE }`).textContent).toContain('%nodeHealth.status.error%');
  });
});

describe.each(MODES)('a Cluster API v1beta2 cluster (Rancher 2.14) on the embedded API, Steve %s', (_name, sqlCache) => {
  it('shows each machine\'s finding from v1beta2 Machines, with the chain and the actions', async() => {
    const s = capiV1beta2();

    mock = await startEmbedded(s, sqlCache);
    const steve = embeddedSteve(mock);

    tab = mountTab(s, { steve });
    tab.show();
    await loaded(tab);
    const machines = steve.responses.filter((r) => r.url.includes('cluster.x-k8s.io.machines')).flatMap((r: any) => r.body.data);

    expect(new Set(machines.map((m: any) => m.apiVersion))).toStrictEqual(new Set(['cluster.x-k8s.io/v1beta2']));
    const expected: [string, string][] = [
      [V1BETA2_NODE_GONE_MACHINE, 'rules.nodeMissing'],
      [V1BETA2_NO_NODE_MACHINE, 'rules.waitingForNodeRef'],
      // Stuck deleting, titled by the stage v1beta2's Deleting condition names (DrainingNode).
      [V1BETA2_DELETING_MACHINE, 'signals.deletionStages.draining'],
      // The cluster waits for it, because its agent never checked in: the row names that cause, as its plan does.
      [V1BETA2_AGENT_MACHINE, 'rules.agentNeverCheckedIn'],
    ];

    for (const [machine, key] of expected) {
      expect(rowOf(tab, `machine:fleet-default/${ machine }`).textContent).toContain(`%nodeHealth.${ key }.title%`);
    }
    expect(tab.wrapper.find('[data-testid="node-health-count-healthy"]').text()).toMatch(/^4/);
    await tab.wrapper.find(`[data-testid="node-health-toggle-machine:fleet-default/${ V1BETA2_DELETING_MACHINE }"]`).trigger('click');
    await flushPromises();
    const detail = tab.wrapper.find(`[data-testid="node-health-detail-row-machine:fleet-default/${ V1BETA2_DELETING_MACHINE }"]`);

    // The v1beta2 contract references still lead to the bootstrap and the infrastructure machine.
    expect(detail.find('[data-testid="node-health-chain-bootstrap"] .badge-state').text()).toBe('%nodeHealth.chain.state.present%');
    expect(detail.find('[data-testid="node-health-chain-infraMachine"] .badge-state').text()).toBe('%nodeHealth.chain.state.present%');
    expect(detail.find('[data-testid="node-health-action-remove-finalizers"]').exists()).toBe(true);
    await tab.wrapper.find(`[data-testid="node-health-toggle-machine:fleet-default/${ V1BETA2_AGENT_MACHINE }"]`).trigger('click');
    await flushPromises();
    expect(tab.wrapper.find(`[data-testid="node-health-detail-row-machine:fleet-default/${ V1BETA2_AGENT_MACHINE }"] [data-testid="node-health-finding-agent-never-checked-in"]`).exists()).toBe(true);
  });
});
