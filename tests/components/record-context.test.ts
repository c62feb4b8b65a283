/**
 * A record's detail reads the view it is in (composables/use-record-context.ts) rather than props handed down:
 * the diagnosis time its durations count from, whether actions are refused here and why, and where a chosen
 * action goes; mounted alone, it counts from now and offers its actions.
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import { load } from 'js-yaml';
import { mount, RouterLinkStub } from '@vue/test-utils';
import NodeDetail from '@pkg/node-health/components/NodeDetail.vue';
import type { NodeRecord } from '@pkg/node-health/engine';
import { createTranslator } from '@pkg/node-health/report/translate';
import { ghostEtcd, GHOST_MACHINE } from '../../scenarios/catalog';
import { diagnoseScenario } from '../unit/engine/helpers';
import { providedContext } from './record-context';

const en = createTranslator(load(readFileSync(join(__dirname, '../../pkg/node-health/l10n/en-us.yaml'), 'utf8')), 'en-us');
const s = ghostEtcd();
const diagnosed = diagnoseScenario(s).records.find((r) => r.machineName === GHOST_MACHINE && r.objects.machine) as NodeRecord;
// As Steve serves it to a user who may update the Machine (links.update): its finalizers may be removed.
const ghost: NodeRecord = { ...diagnosed, objects: { ...diagnosed.objects, machine: { ...diagnosed.objects.machine, links: { update: 'https://rancher/machine' } } } };
const HOUR = 3600_000;

function mountDetail(provide?: ReturnType<typeof providedContext>) {
  return mount(NodeDetail, {
    props:  { record: ghost },
    global: {
      provide,
      mocks: { t: (key: string, args?: Record<string, any>) => en(key, args) },
      stubs: { 'router-link': RouterLinkStub },
    },
  });
}

/** The finding of the ghost that offers removing its finalizers, and when it started. */
function finalizerFinding() {
  const finding = ghost.findings.find((f) => f.actions.includes('remove-finalizers'));

  if (!finding?.since) {
    throw new Error('ghost-etcd: no dated finding offers remove-finalizers');
  }

  return { finding, since: Date.parse(finding.since) };
}

describe('the record context of a record\'s detail', () => {
  it('counts "for how long" from the view\'s diagnosis time', () => {
    const { finding, since } = finalizerFinding();
    const wrapper = mountDetail(providedContext(since + 5 * HOUR));

    expect(wrapper.find(`[data-testid="node-health-finding-${ finding.rule }"]`).text()).toContain('for 5h');
  });

  it('hands a chosen action, with its finding and record, to the view', async() => {
    const { finding, since } = finalizerFinding();
    const act = jest.fn();
    const wrapper = mountDetail(providedContext(since, { act }));

    await wrapper.find(`[data-testid="node-health-finding-${ finding.rule }"] [data-testid="node-health-action-remove-finalizers"]`).trigger('click');
    expect(act).toHaveBeenCalledTimes(1);
    expect(act.mock.calls[0][0]).toMatchObject({
      id: 'remove-finalizers', finding: { rule: finding.rule }, record: { key: ghost.key }
    });
  });

  it('refuses every action with the view\'s reason where the view is read-only', () => {
    const { since } = finalizerFinding();
    const wrapper = mountDetail(providedContext(since, { readOnlyKey: () => 'nodeHealth.bundleView.readOnly' }));

    expect(wrapper.findAll('[data-testid^="node-health-action-"]').filter((b) => !b.attributes('data-testid')?.startsWith('node-health-action-denied'))).toHaveLength(0);
    const denied = wrapper.find('[data-testid="node-health-action-denied-remove-finalizers"]');

    expect(denied.text()).toContain(en('nodeHealth.bundleView.readOnly'));
  });

  it('alone, counts from now and still offers the actions', () => {
    const { finding } = finalizerFinding();
    const wrapper = mountDetail();

    expect(wrapper.find('[data-testid="node-health-action-remove-finalizers"]').exists()).toBe(true);
    expect(wrapper.find(`[data-testid="node-health-finding-${ finding.rule }"]`).text()).not.toContain('for 0s');
  });
});
