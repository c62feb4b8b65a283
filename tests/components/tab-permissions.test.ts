import { flushPromises } from '@vue/test-utils';
import { ghostEtcd, GHOST_MACHINE } from '../../scenarios/catalog';
import { mountTab } from './tab-harness';
import type { MountedTab } from './tab-harness';

let tab: MountedTab | null = null;

afterEach(() => {
  tab?.wrapper.unmount();
  tab = null;
});

const GHOST_KEY = `machine:fleet-default/${ GHOST_MACHINE }`;

async function openGhost(t: MountedTab) {
  await t.wrapper.find(`[data-testid="node-health-toggle-${ GHOST_KEY }"]`).trigger('click');
  await flushPromises();

  return t.wrapper.find(`[data-testid="node-health-detail-row-${ GHOST_KEY }"]`);
}

describe('a user who may not read secrets', () => {
  it.each([
    ['is refused (403)', { fail: { planSecrets: { status: 403, message: 'secrets is forbidden: User "u-x" cannot list resource "secrets"' } } }, 'forbidden'],
    ['gets an empty list (Steve hides what a user may not read)', { hidden: ['planSecrets' as const] }, 'hidden'],
  ])('%s: sees a banner saying what is unavailable and why, and the diagnosis from the Machine conditions', async(_name, options, reason) => {
    tab = mountTab(ghostEtcd(), options as any);
    await tab.show();
    const banner = tab.wrapper.find('[data-testid="node-health-unavailable-planSecrets"]');

    expect(banner.exists()).toBe(true);
    // The input, then straight away its colon (no stray space when no kinds are listed), then the reason;
    // white space as the browser shows it.
    expect(banner.text().replace(/\s+/g, ' ')).toContain(`%nodeHealth.tab.unavailable.input.planSecrets%%nodeHealth.colon%%nodeHealth.tab.unavailable.reason.${ reason }%`);
    expect(banner.text()).toContain('%nodeHealth.tab.unavailable.impact.planSecrets%');
    if (reason === 'forbidden') {
      expect(banner.text()).toContain('cannot list resource "secrets"');
    }
    // only this input is unavailable
    expect(tab.wrapper.findAll('[data-testid^="node-health-unavailable-"]')).toHaveLength(1);

    // Still diagnosed, from the Machine's own conditions.
    expect(tab.wrapper.find('[data-testid="node-health-count-error"]').text()).toMatch(/^1/);
    const detail = await openGhost(tab);

    expect(detail.find('[data-testid="node-health-finding-agent-never-checked-in"]').exists()).toBe(true);
    expect(detail.find('[data-testid="node-health-finding-blocking-cluster-operation"]').exists()).toBe(true);
    expect(detail.find('[data-testid="node-health-chain-planSecret"] .badge-state').text()).toBe('%nodeHealth.chain.state.unreadable%');
    // Nothing claims a plan secret is missing when it could not be seen.
    expect(tab.wrapper.html()).not.toContain('planSecretMissing');
  });
});

describe('other unreadable inputs', () => {
  it('each get their own banner; the table still shows', async() => {
    tab = mountTab(ghostEtcd(), { fail: { nodes: { status: 503, message: 'cluster agent disconnected' }, mgmtNodes: { status: 403 } } });
    await tab.show();
    const nodes = tab.wrapper.find('[data-testid="node-health-unavailable-nodes"]');

    expect(nodes.text()).toContain('%nodeHealth.tab.unavailable.reason.server%');
    expect(nodes.text()).toContain('cluster agent disconnected');
    expect(tab.wrapper.find('[data-testid="node-health-unavailable-mgmtNodes"]').text()).toContain('%nodeHealth.tab.unavailable.reason.forbidden%');
    expect(tab.wrapper.findAll('tr.main-row').length).toBeGreaterThan(10);
  });
});

describe('write actions', () => {
  it('are offered when Steve says the machine may be updated', async() => {
    tab = mountTab(ghostEtcd());
    await tab.show();
    const detail = await openGhost(tab);

    expect(detail.find('[data-testid="node-health-action-remove-finalizers"]').exists()).toBe(true);
    expect(detail.find('[data-testid="node-health-action-denied-remove-finalizers"]').exists()).toBe(false);
  });

  it.each([
    ['has no update link', { canUpdate: false }],
    ['has an update link of "blocked", as Rancher\'s management objects carry it', { blockedUpdate: true }],
  ])('are hidden, with the reason, when the machine %s', async(_name, options) => {
    tab = mountTab(ghostEtcd(), options);
    await tab.show();
    const detail = await openGhost(tab);

    expect(detail.find('[data-testid="node-health-action-remove-finalizers"]').exists()).toBe(false);
    expect(detail.find('[data-testid="node-health-action-denied-remove-finalizers"]').text()).toContain('%nodeHealth.tab.actions.noPermission.machine%');
    // The action is named as in a sentence, not with its button's ellipsis.
    expect(detail.find('[data-testid="node-health-action-denied-remove-finalizers"]').text()).toMatch(/^%nodeHealth\.tab\.actionNames\.remove-finalizers%/);
    // The registration command needs the cluster's update permission, not the machine's: still offered.
    expect(detail.find('[data-testid="node-health-action-re-register"]').exists()).toBe(true);
  });
});
