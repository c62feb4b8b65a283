/**
 * The row detail shows the records that are the same host, with the words the admin reads and the evidence, and
 * opens the other record; on dev-k3s the ghost names its host, on vs-win the Node names its machine.
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import { load } from 'js-yaml';
import { flushPromises, mount, RouterLinkStub } from '@vue/test-utils';
import NodeDetail from '@pkg/node-health/components/NodeDetail.vue';
import { diagnose } from '@pkg/node-health/engine';
import type { DiagnosisReport, NodeRecord } from '@pkg/node-health/engine';
import { createTranslator } from '@pkg/node-health/report/translate';
import { ghostEtcd, windowsNodeRef, GHOST_MACHINE, WINDOWS_CASE_MACHINE } from '../../scenarios/catalog';
import type { Scenario } from '../../scenarios/types';
import { mountTab } from './tab-harness';
import type { MountedTab } from './tab-harness';
import { providedContext } from './record-context';

const en = createTranslator(load(readFileSync(join(__dirname, '../../pkg/node-health/l10n/en-us.yaml'), 'utf8')), 'en-us');

function diagnosed(s: Scenario): DiagnosisReport {
  return diagnose([...s.objects, ...(s.downstream[s.clusters[0].mgmtId] ?? [])], { now: s.now, defaultCluster: s.clusters[0].mgmtId });
}

function mountDetail(record: NodeRecord, s: Scenario, openRecord: (key: string) => void = () => undefined) {
  return mount(NodeDetail, {
    props:  { record },
    global: {
      provide: providedContext(Date.parse(s.now), { openRecord }),
      mocks:   { t: (key: string, args?: Record<string, any>) => en(key, args) },
      stubs:   { 'router-link': RouterLinkStub },
    },
  });
}

describe('the row detail: related records', () => {
  const s = ghostEtcd();
  const report = diagnosed(s);
  const ghost = report.records.find((r) => r.machineName === GHOST_MACHINE && r.objects.machine)!;
  const orphan = report.records.find((r) => r.nodeName === 'dev-k8s-node01' && !r.objects.machine)!;

  it('says on the ghost that its host is most likely dev-k8s-node01, with the evidence', () => {
    const wrapper = mountDetail(ghost, s);
    const item = wrapper.find(`[data-testid="node-health-related-${ orphan.key }"]`);

    expect(item.exists()).toBe(true);
    expect(item.find('.node-detail__related-text').text()).toBe('Most likely the same host as Node dev-k8s-node01: same address 10.20.1.21, same host name dev-k8s-node01.');
    const rows = item.findAll('details tr').map((tr) => tr.findAll('td').map((td) => td.text()));

    expect(rows[0]).toEqual([`Secret fleet-default/${ GHOST_MACHINE }-machine-plan`, 'metadata.annotations[rke.cattle.io/address]', '10.20.1.21']);
    expect(rows[1]).toEqual(['Node dev-k8s-node01', 'status.addresses[0].address', '10.20.1.21']);
    // The host check is for that host, not for a search.
    expect(wrapper.find('[data-testid="node-health-host-check"]').text()).toContain('This machine\'s host is most likely dev-k8s-node01: run it there.');
  });

  it('says on the orphan Node that it is that host, and never names its gone machine as the host to check', () => {
    const wrapper = mountDetail(orphan, s);

    expect(wrapper.find(`[data-testid="node-health-related-${ ghost.key }"] .node-detail__related-text`).text())
      .toBe(`Most likely the same host as machine ${ GHOST_MACHINE }: same address 10.20.1.21, same host name dev-k8s-node01.`);
    const hint = wrapper.find('[data-testid="node-health-host-check"]').text();

    expect(hint).toContain('On the host of dev-k8s-node01,');
    expect(hint).not.toContain('custom-f489526f114a');
  });

  it('asks to open the other record', async() => {
    const openRecord = jest.fn();
    const wrapper = mountDetail(ghost, s, openRecord);

    await wrapper.find(`[data-testid="node-health-related-open-${ orphan.key }"]`).trigger('click');
    expect(openRecord.mock.calls).toEqual([[orphan.key]]);
  });

  it('shows no related section on a record that has none', () => {
    const healthy = report.records.find((r) => r.status === 'healthy' && r.objects.machine && r.objects.node)!;

    expect(healthy.related).toStrictEqual([]);
    expect(mountDetail(healthy, s).find('[data-testid="node-health-related"]').exists()).toBe(false);
  });

  it('on vs-win, shows the Node win-worker-01 as part of its machine\'s problem, not as nothing wrong', () => {
    const vs = windowsNodeRef();
    const node = diagnosed(vs).records.find((r) => r.nodeName === 'win-worker-01' && !r.objects.machine)!;
    const wrapper = mountDetail(node, vs);

    expect(wrapper.find('[data-testid="node-health-no-findings"]').exists()).toBe(false);
    expect(wrapper.find('[data-testid="node-health-finding-related-record"] h5').text()).toBe(`Part of machine ${ WINDOWS_CASE_MACHINE }'s problem`);
    expect(wrapper.find('[data-testid="node-health-related"]').text()).toContain(`Same host as machine ${ WINDOWS_CASE_MACHINE }: same system UUID`);
  });
});

describe('the tab: opening a related record', () => {
  let tab: MountedTab | null = null;

  afterEach(() => {
    tab?.wrapper.unmount();
    tab = null;
  });

  it('opens the orphan Node from the ghost\'s detail', async() => {
    tab = mountTab(ghostEtcd());
    await tab.show();
    const ghostKey = `machine:fleet-default/${ GHOST_MACHINE }`;

    await tab.wrapper.find(`[data-testid="node-health-toggle-${ ghostKey }"]`).trigger('click');
    await flushPromises();
    const open = tab.wrapper.find('[data-testid^="node-health-related-open-"]');

    expect(open.exists()).toBe(true);
    const orphanKey = (open.attributes('data-testid') as string).replace('node-health-related-open-', '');

    expect(orphanKey).toMatch(/^node:.*\/dev-k8s-node01$/);
    await open.trigger('click');
    await tab.settle();
    expect(tab.wrapper.find(`[data-testid="node-health-detail-row-${ orphanKey }"]`).exists()).toBe(true);
    expect(tab.wrapper.find(`[data-testid="node-health-detail-row-${ ghostKey }"]`).exists()).toBe(false);
  });
});
