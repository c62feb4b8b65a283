import { flushPromises, RouterLinkStub } from '@vue/test-utils';
import {
  everyFailure, ghostEtcd, windowsNodeRef, EVERY_FAILURE_EXPECTED, GHOST_MACHINE, WINDOWS_CASE_MACHINE, WINDOWS_VM_GONE_MACHINE, XSS_PAYLOAD
} from '../../scenarios/catalog';
import { mountTab } from './tab-harness';
import type { MountedTab } from './tab-harness';

let tab: MountedTab | null = null;

afterEach(() => {
  tab?.wrapper.unmount();
  tab = null;
});

function rowTexts(t: MountedTab): string[][] {
  return t.wrapper.findAll('tr.main-row').map((tr) => tr.findAll('td').map((td) => td.text()));
}

async function openRow(t: MountedTab, key: string) {
  await t.wrapper.find(`[data-testid="node-health-toggle-${ key }"]`).trigger('click');
  await flushPromises();

  return t.wrapper.find(`[data-testid="node-health-detail-row-${ key }"]`);
}

describe('rows from the first seed case (ghost etcd machine)', () => {
  beforeEach(async() => {
    tab = mountTab(ghostEtcd());
    await tab.show();
  });

  it('lists every machine and the orphan Node, worst first, with the columns of the table', () => {
    const rows = rowTexts(tab!);

    expect(rows).toHaveLength(18);
    // status, machine, node, roles, OS, phase, most important finding, for how long
    expect(rows[0].slice(1)).toEqual([
      '%nodeHealth.status.error%', GHOST_MACHINE, '—', '%nodeHealth.registration.role.etcd%', '%nodeHealth.registration.os.linux%', 'Deleting',
      '%nodeHealth.rules.agentNeverCheckedIn.title% %nodeHealth.tab.table.more%', '%nodeHealth.unit.d%',
    ]);
    expect(rows[1].slice(1, 4)).toEqual(['%nodeHealth.status.warning%', '—', 'dev-k8s-node01']);
    expect(rows[1][7]).toBe('%nodeHealth.rules.orphanNode.title%');
    expect(rows.slice(2).every((r) => r[1] === '%nodeHealth.status.healthy%' && r[7] === '—')).toBe(true);
    expect(tab!.wrapper.find('[data-testid="node-health-count-error"]').text()).toMatch(/^1/);
    expect(tab!.wrapper.find('[data-testid="node-health-count-healthy"]').text()).toMatch(/^16/);
  });

  it('opens a row on the chain with each link\'s state and a link to each object found', async() => {
    const detail = await openRow(tab!, `machine:fleet-default/${ GHOST_MACHINE }`);
    const links = detail.findAll('[data-testid^="node-health-chain-"] li, li[data-testid^="node-health-chain-"]');
    const states = Object.fromEntries(links.map((li) => [li.attributes('data-testid')?.replace('node-health-chain-', ''), li.find('.badge-state').text()]));

    expect(states).toEqual({
      machine:      '%nodeHealth.chain.state.waiting%',
      planSecret:   '%nodeHealth.chain.state.waiting%',
      bootstrap:    '%nodeHealth.chain.state.present%',
      infraMachine: '%nodeHealth.chain.state.present%',
      mgmtNode:     '%nodeHealth.chain.state.waiting%',
      // Its host is most likely the orphan Node at its address: shown, not linked.
      node:         '%nodeHealth.chain.state.unlinked%',
    });
    const targets = detail.findAllComponents(RouterLinkStub).map((l: any) => l.props('to'));

    expect(targets).toEqual([
      {
        name:   'c-cluster-product-resource-namespace-id',
        params: {
          cluster: '_', product: 'manager', resource: 'cluster.x-k8s.io.machine', namespace: 'fleet-default', id: GHOST_MACHINE
        }
      },
      {
        name:   'c-cluster-product-resource-namespace-id',
        params: {
          cluster: 'local', product: 'explorer', resource: 'rke.cattle.io.rkebootstrap', namespace: 'fleet-default', id: GHOST_MACHINE
        }
      },
      {
        name:   'c-cluster-product-resource-namespace-id',
        params: {
          cluster: 'local', product: 'explorer', resource: 'rke.cattle.io.custommachine', namespace: 'fleet-default', id: GHOST_MACHINE
        }
      },
    ]);
    // The plan secret is named, never linked: its page in Rancher would show the plan.
    expect(detail.find('[data-testid="node-health-chain-planSecret"]').text()).toContain(`${ GHOST_MACHINE }-machine-plan`);
    expect(detail.find('[data-testid="node-health-chain-planSecret"]').findComponent(RouterLinkStub).exists()).toBe(false);
  });

  it('leads with the plan: the root cause, what it explains, then numbered steps, commands with a copy button', async() => {
    const detail = await openRow(tab!, `machine:fleet-default/${ GHOST_MACHINE }`);
    const sections = detail.findAll('section').map((x) => x.find('h4').text());

    expect(sections[0]).toBe('%nodeHealth.plan.title%');
    expect(detail.find('[data-testid="node-health-plan-root"]').text()).toBe('%nodeHealth.plan.rootCause%');
    const steps = detail.findAll('[data-testid="node-health-plan"] ol > li');

    expect(steps).toHaveLength(8);
    // The host is named (the orphan Node at its address) rather than searched for.
    expect(steps[0].text()).toContain('%nodeHealth.fix.hostIs%');
    expect(steps[0].find('pre code').text()).toContain('/var/lib/rancher/agent/rancher2_connection_info.json');
    expect(steps[0].find('button').text()).toContain('%nodeHealth.tab.detail.copy%');
    expect(steps[2].find('pre').exists()).toBe(false);
    expect(steps.filter((x) => x.find('pre').exists()).length).toBe(steps.filter((x) => x.find('button').exists()).length);
    // Re-registering comes last: the machine is deleting, the host comes back as a new one.
    expect(steps[7].text()).toContain('%nodeHealth.rules.agentNeverCheckedIn.fix.reRegisterAfterDelete%');
  });

  it('then every finding, root cause first, consequences marked, evidence folded and no step repeated', async() => {
    const detail = await openRow(tab!, `machine:fleet-default/${ GHOST_MACHINE }`);
    const findings = detail.findAll('[data-testid^="node-health-finding-"]').filter((f) => f.element.tagName === 'ARTICLE');

    expect(findings.map((f) => f.attributes('data-testid'))).toEqual([
      'node-health-finding-agent-never-checked-in', 'node-health-finding-stuck-deleting', 'node-health-finding-blocking-cluster-operation',
    ]);
    const agent = findings[0];

    expect(agent.find('h5').text()).toBe('%nodeHealth.rules.agentNeverCheckedIn.title%');
    expect(agent.find('.node-detail__cause').text()).toBe('%nodeHealth.rules.agentNeverCheckedIn.cause%');
    expect(agent.find('[data-testid="node-health-finding-consequence"]').exists()).toBe(false);
    expect(findings[2].find('[data-testid="node-health-finding-consequence"]').exists()).toBe(true);
    const evidence = agent.find('details[data-testid="node-health-evidence"]');

    expect(evidence.attributes('open')).toBeUndefined();
    expect(evidence.text()).toContain('waiting for agent to check in and apply initial plan');
    // The steps are the plan's: the findings do not say them again.
    expect(detail.findAll('.node-detail__fix')).toHaveLength(0);
  });

  it('gives the host-side facts: the plan secret name from rancher2_connection_info.json, machine id, addresses', async() => {
    const detail = await openRow(tab!, `machine:fleet-default/${ GHOST_MACHINE }`);
    const fact = (key: string) => detail.find(`[data-testid="node-health-fact-${ key }"]`).text();

    expect(fact('planSecret')).toBe(`${ GHOST_MACHINE }-machine-plan`);
    expect(fact('namespace')).toBe('fleet-default');
    expect(fact('machineId')).toMatch(/^2d74d4c9a104[0-9a-f]{52}$/);
    expect(fact('internalAddress')).toBe('10.20.1.21');
  });

  it('closes the row again', async() => {
    const key = `machine:fleet-default/${ GHOST_MACHINE }`;

    await openRow(tab!, key);
    await tab!.wrapper.find(`[data-testid="node-health-toggle-${ key }"]`).trigger('click');
    expect(tab!.wrapper.find('[data-testid="node-health-detail"]').exists()).toBe(false);
  });
});

describe('rows from the second seed case (Windows workers waiting for node ref)', () => {
  it('name the VM that is gone and the Node registered under a lower-case name', async() => {
    tab = mountTab(windowsNodeRef());
    await tab.show();
    const byMachine = Object.fromEntries(rowTexts(tab).map((r) => [r[2], r]));

    expect(byMachine[WINDOWS_VM_GONE_MACHINE][1]).toBe('%nodeHealth.status.error%');
    expect(byMachine[WINDOWS_VM_GONE_MACHINE][5]).toBe('%nodeHealth.registration.os.windows%');
    const gone = await openRow(tab, `machine:fleet-default/${ WINDOWS_VM_GONE_MACHINE }`);

    expect(gone.find('[data-testid="node-health-finding-infrastructure-missing"]').exists()).toBe(true);
    expect(gone.find('[data-testid="node-health-chain-infraMachine"] .badge-state').text()).not.toBe('%nodeHealth.chain.state.present%');
    expect(gone.findAllComponents(RouterLinkStub).map((l: any) => l.props('to').params.resource)).toContain('rke-machine.cattle.io.vmwarevspheremachine');

    const mismatch = await openRow(tab, `machine:fleet-default/${ WINDOWS_CASE_MACHINE }`);

    expect(mismatch.find('[data-testid="node-health-finding-node-name-mismatch"]').exists()).toBe(true);
    expect(mismatch.find('[data-testid="node-health-finding-waiting-for-node-ref"]').exists()).toBe(true);
  });
});

describe('every failure family', () => {
  it('shows each broken node with its expected finding', async() => {
    tab = mountTab(everyFailure());
    await tab.show();
    const missing: string[] = [];

    for (const [name, family] of Object.entries(EVERY_FAILURE_EXPECTED)) {
      const row = tab.wrapper.findAll('tr.main-row').find((tr) => tr.findAll('td').some((td) => td.text() === name));
      const key = row?.attributes('data-node-id');

      if (!key) {
        missing.push(`${ name }: no row`);
        continue;
      }
      const detail = await openRow(tab, key);

      if (!detail.find(`[data-testid="node-health-finding-${ family }"]`).exists()) {
        missing.push(`${ name }: no ${ family }`);
      }
    }
    expect(missing).toEqual([]);
    // It opens some twenty rows, each record read from the session: more than jest's default 5 s on a busy machine.
  }, 30000);

  it('renders HTML from the cluster as text', async() => {
    tab = mountTab(everyFailure());
    await tab.show();
    const row = tab.wrapper.findAll('tr.main-row').find((tr) => tr.text().includes('custom-17f5c1d9a8e7'));

    await openRow(tab, row!.attributes('data-node-id')!);
    expect(tab.wrapper.text()).toContain(XSS_PAYLOAD);
    expect(tab.wrapper.find('img').exists()).toBe(false);
    expect(tab.wrapper.html()).not.toContain(XSS_PAYLOAD);
  });
});
