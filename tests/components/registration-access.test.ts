/**
 * Who is given a cluster's registration token, end to end on the embedded Rancher API: the tab, its row action,
 * the header button and the dialog, as `admin` (who may update the cluster) and as `read-only` (who may not, and
 * whom Rancher gives no token). The cluster is read from the API as that user, as the dashboard reads it.
 */
import { flushPromises, mount } from '@vue/test-utils';
import RegistrationCommandDialog from '@pkg/node-health/dialog/RegistrationCommandDialog.vue';
import { ghostEtcd, GHOST_MACHINE } from '../../scenarios/catalog';
import { registrationTokenValue } from '../../scenarios/builders';
import type { MockRancher } from '../../mock-rancher/server';
import { mountTab } from './tab-harness';
import type { MountedTab } from './tab-harness';
import { embeddedSteve, loaded, startEmbedded } from './tab-embedded';
import { translate } from './dialog-helpers';

jest.setTimeout(60000);

let tab: MountedTab | null = null;
let mock: MockRancher | null = null;

afterEach(async() => {
  tab?.wrapper.unmount();
  tab = null;
  await mock?.close();
  mock = null;
});

const KEY = `machine:fleet-default/${ GHOST_MACHINE }`;
const TOKENS = '/v3/clusterregistrationtokens';

async function dialogSettled(wrapper: ReturnType<typeof mount>): Promise<void> {
  for (let i = 0; i < 400 && (wrapper.vm as any).loading; i++) {
    await flushPromises();
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await flushPromises();
}

describe.each([
  ['admin', true],
  ['read-only', false],
])('the registration command for %s', (user, mayUpdate) => {
  it(mayUpdate ? 'is offered, asks Rancher for the token and shows the command' : 'is never sent or shown a token, and is told why', async() => {
    const s = ghostEtcd();

    mock = await startEmbedded(s, true);
    const steve = embeddedSteve(mock, user);
    const resource = await steve.dispatch('management/request', { url: '/v1/provisioning.cattle.io.clusters/fleet-default/dev-k3s' });
    const mgmtId = resource.status.clusterName;

    expect(!!resource.links.update).toBe(mayUpdate);
    tab = mountTab(s, { steve }, resource);
    tab.show();
    await loaded(tab);
    await tab.wrapper.find(`[data-testid="node-health-toggle-${ KEY }"]`).trigger('click');
    await flushPromises();
    const detail = tab.wrapper.find(`[data-testid="node-health-detail-row-${ KEY }"]`);

    // The row's action: offered, or in its place why not.
    expect(detail.find('[data-testid="node-health-action-re-register"]').exists()).toBe(mayUpdate);
    if (!mayUpdate) {
      expect(detail.find('[data-testid="node-health-action-denied-re-register"]').text()).toContain('%nodeHealth.tab.actions.noPermission.cluster%');
    }

    // The header's button opens the dialog for both; the dialog is told whether to ask for the token.
    await tab.wrapper.find('[data-testid="node-health-registration"]').trigger('click');
    const modal = steve.actions.filter((a) => a.type === 'management/promptModal').map((a) => a.payload).pop();

    expect(modal.component).toBe('RegistrationCommandDialog');
    expect(modal.resources[0].access).toEqual(mayUpdate ? { allowed: true } : { allowed: false, reason: 'noPermission' });
    const before = steve.urls.length;
    const dialog = mount(RegistrationCommandDialog, {
      props:  { resources: modal.resources },
      global: { mocks: { $store: { dispatch: steve.dispatch, getters: {} }, t: translate } },
    });

    await dialogSettled(dialog);
    const asked = steve.urls.slice(before).filter((u) => u.startsWith(TOKENS));
    const token = registrationTokenValue(mgmtId);

    if (mayUpdate) {
      expect(asked).toEqual([`${ TOKENS }?clusterId=${ mgmtId }`]);
      expect(dialog.find('[data-testid="nh-command"]').text()).toContain('system-agent-install.sh');
      // Masked on screen; the copy button holds the real one.
      expect(dialog.find('[data-testid="nh-command"]').text()).not.toContain(token);
    } else {
      expect(asked).toEqual([]);
      expect(dialog.find('[data-testid="nh-token-not-allowed"]').text()).toBe('%nodeHealth.dialog.registration.token.notAllowed.noPermission% {"cluster":"dev-k3s"}');
      expect(dialog.find('[data-testid="nh-command"]').exists()).toBe(false);
      expect(dialog.find('[data-testid="nh-copy"]').exists()).toBe(false);
      expect(dialog.html()).not.toContain(token);
      expect(tab.wrapper.html()).not.toContain(token);
      // And Rancher itself would not have handed it out: the embedded API gives read-only no token either.
      const listed = await steve.dispatch('management/request', { url: `${ TOKENS }?clusterId=${ mgmtId }` });

      expect(listed.data).toEqual([]);
    }
    // Nothing but the dialog asks for the token.
    expect(steve.urls.slice(0, before).some((u) => u.startsWith(TOKENS))).toBe(false);
    dialog.unmount();
  });
});
