import { mount } from '@vue/test-utils';
import FleetSummary from '@pkg/node-health/components/FleetSummary.vue';
import type { BlockedCluster, FleetSummary as Summary } from '@pkg/node-health/fleet/diagnosis';
import { translate } from './dialog-helpers';

function held(name: string, machines: string[], recordKey: string | null): BlockedCluster {
  return {
    clusterKey: `fleet-default/${ name }`, clusterName: name, clusterNamespace: 'fleet-default', machines, recordKey, message: `configuring worker node(s) ${ machines.join(',') }`, since: null
  };
}

function mountSummary(blocked: BlockedCluster[]) {
  const summary: Summary = {
    clustersAffected: blocked.length,
    counts:           {
      error: 2, warning: 0, unknown: 0
    },
    blocked,
    clusterFindings: [],
    clusterNotes:    []
  };

  return mount(FleetSummary, { props: { summary, nowMs: 0 }, global: { mocks: { t: translate } } });
}

describe('the fleet page\'s clusters held back by their machines', () => {
  it('names every machine a cluster waits for, and opens the cluster\'s tab when there are several', async() => {
    const several = held('big-rke2', ['custom-23d6009e32d6', 'custom-7cc7f13034f3'], null);
    const one = held('dev-k3s', ['custom-2d74d4c9a104'], 'machine:fleet-default/custom-2d74d4c9a104');
    const wrapper = mountSummary([several, one]);
    const big = wrapper.find('[data-testid="node-health-fleet-blocked-fleet-default/big-rke2"]');

    expect(wrapper.find('[data-testid="node-health-fleet-blocked"] strong').text()).toContain('nodeHealth.fleet.summary.blockedTitle');
    expect(big.find('a').text()).toContain('"cluster":"big-rke2","machine":"custom-23d6009e32d6, custom-7cc7f13034f3"');
    expect(big.text()).toContain('configuring worker node(s) custom-23d6009e32d6,custom-7cc7f13034f3');
    await big.find('a').trigger('click');
    await wrapper.find('[data-testid="node-health-fleet-blocked-fleet-default/dev-k3s"] a').trigger('click');
    expect(wrapper.emitted('show-blocked')).toEqual([[several], [one]]);
  });

  it('does not link one machine that has no row to open', () => {
    const wrapper = mountSummary([held('dev-k3s', ['custom-2d74d4c9a104'], null)]);
    const line = wrapper.find('[data-testid="node-health-fleet-blocked-fleet-default/dev-k3s"]');

    expect(line.find('a').exists()).toBe(false);
    expect(line.text()).toContain('"machine":"custom-2d74d4c9a104"');
  });
});
