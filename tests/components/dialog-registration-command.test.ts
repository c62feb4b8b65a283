import { enableAutoUnmount, flushPromises, mount } from '@vue/test-utils';
import RegistrationCommandDialog from '@pkg/node-health/dialog/RegistrationCommandDialog.vue';
import { getActionLog } from '@pkg/node-health/actions';
import type { RegistrationAccess, RegistrationCommandRequest } from '@pkg/node-health/actions';
import type { NodeRecord } from '@pkg/node-health/engine';
import { TOKEN_MASK } from '@pkg/node-health/registration';
import { MACHINE, NS, stuckRecord } from '../unit/actions/fixtures';
import {
  dialogStore, httpError, missingExtensionKeys, networkError, translate
} from './dialog-helpers';
import type { Answer } from './dialog-helpers';

jest.mock('@shell/utils/clipboard', () => ({ copyTextToClipboard: jest.fn(() => Promise.resolve()) }));
// eslint-disable-next-line @typescript-eslint/no-var-requires
const { copyTextToClipboard } = require('@shell/utils/clipboard') as { copyTextToClipboard: jest.Mock };

enableAutoUnmount(afterEach);

const CLUSTER = 'c-m-test';
const SERVER = 'https://rancher.example.com';
const TOKEN = 'x7b9kq2m4n8p6r5t3v1w0y9z8a7b6c5d4e3f2g1h0j9k8l7m6n5p4q';
const CHECKSUM = 'a'.repeat(64);

function normanTokens(overrides: Record<string, unknown> = {}) {
  return {
    type: 'collection',
    data: [{
      type:                       'clusterRegistrationToken',
      id:                         `${ CLUSTER }:default-token`,
      name:                       'default-token',
      clusterId:                  CLUSTER,
      token:                      TOKEN,
      nodeCommand:                `curl -fL ${ SERVER }/system-agent-install.sh | sudo  sh -s - --server ${ SERVER } --label 'cattle.io/os=linux' --token ${ TOKEN } --ca-checksum ${ CHECKSUM }`,
      insecureNodeCommand:        `curl --insecure -fL ${ SERVER }/system-agent-install.sh | sudo  sh -s - --server ${ SERVER } --label 'cattle.io/os=linux' --token ${ TOKEN }`,
      windowsNodeCommand:         `curl.exe -fL ${ SERVER }/wins-agent-install.ps1 -o install.ps1; Set-ExecutionPolicy Bypass -Scope Process -Force; ./install.ps1 -Server ${ SERVER } -Label 'cattle.io/os=windows' -Token ${ TOKEN } -Worker -CaChecksum ${ CHECKSUM }`,
      insecureWindowsNodeCommand: `curl.exe --insecure -fL ${ SERVER }/wins-agent-install.ps1 -o install.ps1; Set-ExecutionPolicy Bypass -Scope Process -Force; ./install.ps1 -Server ${ SERVER } -Label 'cattle.io/os=windows' -Token ${ TOKEN } -Worker`,
      ...overrides,
    }],
  };
}

/** The record of a node to re-register: its Machine's role labels and its plan secret's annotations. */
function reRegisterRecord(os: 'linux' | 'windows' = 'linux'): NodeRecord {
  const record = stuckRecord({ etcd: true });
  const machine = record.objects.machine ?? {};

  machine.metadata.labels['cattle.io/os'] = os;
  record.objects.planSecret = {
    type:     'secret',
    _type:    'rke.cattle.io/machine-plan',
    metadata: {
      name:        `${ MACHINE }-machine-plan`,
      namespace:   NS,
      annotations: {
        'rke.cattle.io/address':          '203.0.113.10',
        'rke.cattle.io/internal-address': '10.0.0.10',
        'rke.cattle.io/labels':           JSON.stringify({ 'cattle.io/os': os, 'topology.kubernetes.io/zone': 'zone-a' }),
      },
    },
  };
  record.host = { ...record.host, hostname: os === 'windows' ? 'WIN-WORKER-01' : 'node-1' };

  return record;
}

function open(answer: Answer = () => normanTokens(), record: NodeRecord | null = null, access: RegistrationAccess = { allowed: true }) {
  const store = dialogStore(answer);
  const request: RegistrationCommandRequest = {
    cluster: {
      mgmtId: CLUSTER, name: 'prod', namespace: NS
    },
    record,
    context: { clusterId: CLUSTER, user: 'jane' },
    access,
  };
  const wrapper = mount(RegistrationCommandDialog, {
    props:  { resources: [request] },
    global: { mocks: { $store: store, t: translate } },
  });

  return { wrapper, store };
}

type Wrapper = ReturnType<typeof open>['wrapper'];

const commandOnScreen = (w: Wrapper) => w.find('[data-testid="nh-command"]').text();

async function chooseWindows(w: Wrapper) {
  await w.findAll('[data-testid="nh-os"] .radio-container')[1].trigger('click');
}

function setClipboardApi(available: boolean) {
  Object.defineProperty(navigator, 'clipboard', { value: available ? { writeText: jest.fn() } : undefined, configurable: true });
}

beforeEach(() => {
  sessionStorage.clear();
  copyTextToClipboard.mockClear();
  setClipboardApi(true);
});

afterAll(() => {
  expect(missingExtensionKeys()).toEqual([]);
});

describe('RegistrationCommandDialog: who is given the token', () => {
  it('for a user who may update the cluster, asks for the token and shows the command', async() => {
    const { wrapper, store } = open(undefined, reRegisterRecord());

    await flushPromises();
    expect(store.requests()).toHaveLength(1);
    expect(wrapper.find('[data-testid="nh-token-not-allowed"]').exists()).toBe(false);
    expect(wrapper.find('[data-testid="nh-steps"]').exists()).toBe(true);
    expect(commandOnScreen(wrapper)).toContain(TOKEN_MASK);
  });

  it.each([['noPermission'], ['notLoaded']] as const)('for a user who may not (%s), asks for nothing, shows no token or command, and says why', async(reason) => {
    const answer = jest.fn(() => normanTokens());
    const { wrapper, store } = open(answer, reRegisterRecord(), { allowed: false, reason });

    await flushPromises();
    // Not asked for: the token never reaches the browser.
    expect(answer).not.toHaveBeenCalled();
    expect(store.requests()).toEqual([]);
    expect(wrapper.find('[data-testid="nh-token-loading"]').exists()).toBe(false);
    expect(wrapper.find('[data-testid="nh-token-not-allowed"]').text()).toBe(`%nodeHealth.dialog.registration.token.notAllowed.${ reason }% {"cluster":"prod"}`);
    expect(wrapper.find('[data-testid="nh-command"]').exists()).toBe(false);
    expect(wrapper.find('[data-testid="nh-copy"]').exists()).toBe(false);
    expect(wrapper.find('[data-testid="nh-steps"]').exists()).toBe(false);
    expect(wrapper.find('[data-testid="nh-token-retry"]').exists()).toBe(false);
    expect(wrapper.html()).not.toContain(TOKEN);
  });

  it('asks for nothing when the request does not say the user may be given the token', async() => {
    const store = dialogStore(() => normanTokens());
    const wrapper = mount(RegistrationCommandDialog, {
      props:  {
        resources: [{
          cluster: { mgmtId: CLUSTER, name: 'prod' }, record: null, context: { clusterId: CLUSTER, user: 'jane' }
        }]
      },
      global: { mocks: { $store: store, t: translate } },
    });

    await flushPromises();
    expect(store.requests()).toEqual([]);
    expect(wrapper.find('[data-testid="nh-token-not-allowed"]').text()).toContain('notAllowed.notLoaded');
  });
});

describe('RegistrationCommandDialog: the token', () => {
  it('reads the cluster\'s token from Norman through the store, then shows the command', async() => {
    const { wrapper, store } = open();

    expect(wrapper.find('[data-testid="nh-token-loading"]').exists()).toBe(true);
    await flushPromises();
    expect(store.requests()).toEqual([{
      url: `/v3/clusterregistrationtokens?clusterId=${ CLUSTER }`, method: 'GET', redirectUnauthorized: false
    }]);
    expect(wrapper.find('[data-testid="nh-token-loading"]').exists()).toBe(false);
    expect(commandOnScreen(wrapper)).toContain(`--server '${ SERVER }'`);
  });

  it('403 says the user may not read the token, which is not the same as there being none', async() => {
    const forbidden = open(() => Promise.reject(httpError(403)));
    const empty = open(() => ({ type: 'collection', data: [] }));

    await flushPromises();
    expect(forbidden.wrapper.find('[data-testid="nh-token-problem"]').text()).toBe(`%nodeHealth.dialog.registration.token.forbidden% {"cluster":"${ CLUSTER }","status":403}`);
    expect(empty.wrapper.find('[data-testid="nh-token-problem"]').text()).toBe(`%nodeHealth.dialog.registration.token.none% {"cluster":"${ CLUSTER }"}`);
    expect(forbidden.wrapper.find('[data-testid="nh-command"]').exists()).toBe(false);
    expect(empty.wrapper.find('[data-testid="nh-command"]').exists()).toBe(false);
  });

  it('401 says the session ended rather than blaming permissions', async() => {
    const { wrapper } = open(() => Promise.reject(httpError(401)));

    await flushPromises();
    expect(wrapper.find('[data-testid="nh-token-problem"]').text()).toBe('%nodeHealth.actions.error.unauthorized% {"status":401}');
    expect(wrapper.find('[data-testid="nh-token-retry"]').exists()).toBe(false);
  });

  it('a server failure is said as every dialog says one, with what the server said, and offers to try again', async() => {
    let calls = 0;
    const { wrapper } = open(() => (++calls === 1 ? Promise.reject(httpError(500, { message: 'etcd timeout' })) : normanTokens()));

    await flushPromises();
    expect(wrapper.find('[data-testid="nh-failure-message"]').text()).toBe('%nodeHealth.dialog.registration.token.failed.server% {"status":500}');
    expect(wrapper.find('[data-testid="nh-server-message"]').text()).toBe('%nodeHealth.dialog.registration.serverSaid% etcd timeout');
    expect(wrapper.find('[data-testid="nh-token-problem"]').exists()).toBe(false);
    await wrapper.find('[data-testid="nh-token-retry"]').trigger('click');
    await flushPromises();
    expect(wrapper.find('[data-testid="nh-failure"]').exists()).toBe(false);
    expect(wrapper.find('[data-testid="nh-token-retry"]').exists()).toBe(false);
    expect(wrapper.find('[data-testid="nh-command"]').exists()).toBe(true);
  });

  it('a lost connection or a missing object is a read that failed, not a write whose result is uncertain', async() => {
    for (const [failure, said] of [[networkError(), 'network'], [httpError(404, {}), 'other']] as const) {
      const { wrapper } = open(() => Promise.reject(failure));

      await flushPromises();
      expect(wrapper.find('[data-testid="nh-failure-message"]').text()).toContain(`%nodeHealth.dialog.registration.token.failed.${ said }%`);
      expect(wrapper.text()).not.toContain('nodeHealth.actions.error');
    }
  });
});

describe('RegistrationCommandDialog: the command', () => {
  it('masks the token on screen', async() => {
    const { wrapper } = open();

    await flushPromises();
    expect(commandOnScreen(wrapper)).toContain(`--token '${ TOKEN_MASK }'`);
    expect(wrapper.html()).not.toContain(TOKEN);
  });

  it('copies the real token through the shell\'s copy component, and logs the copy without the command', async() => {
    const { wrapper } = open();

    await flushPromises();
    await wrapper.find('[data-testid="nh-copy"]').trigger('click');
    await flushPromises();
    expect(copyTextToClipboard).toHaveBeenCalledTimes(1);
    const copied = copyTextToClipboard.mock.calls[0][0] as string;

    expect(copied).toBe(`curl -fL '${ SERVER }/system-agent-install.sh' | sudo sh -s - --server '${ SERVER }' --label 'cattle.io/os=linux' --token '${ TOKEN }' --ca-checksum '${ CHECKSUM }' --etcd --controlplane --worker`);
    const log = getActionLog(CLUSTER);

    expect(log).toEqual([expect.objectContaining({
      user: 'jane', action: 'copy-registration-command', target: `Cluster ${ CLUSTER }`, result: 'succeeded'
    })]);
    expect(JSON.stringify(log)).not.toContain(TOKEN);
    expect(JSON.stringify(log)).not.toContain('curl');
  });

  it('offers the insecure variant, and explains the CA checksum', async() => {
    const { wrapper } = open();

    await flushPromises();
    expect(wrapper.find('[data-testid="nh-ca-checksum"]').text()).toBe('%nodeHealth.registration.help.caChecksum%');
    await wrapper.find('[data-testid="nh-insecure"] .checkbox-custom').trigger('click');
    expect(commandOnScreen(wrapper)).toMatch(/^curl --insecure -fL /);
  });

  it('shows the validation message and no command while a value is invalid', async() => {
    const { wrapper } = open();

    await flushPromises();
    await wrapper.find('input[data-testid="nh-node-name"]').setValue('web server');
    const problems = wrapper.findAll('[data-testid="nh-problem"]');

    // One error banner: the field, and what is wrong with it.
    expect(problems.map((banner) => banner.classes('error'))).toEqual([true]);
    expect(problems[0].text()).toMatch(/^%nodeHealth\.registration\.problem% \{"field":"%nodeHealth\.registration\.field\.nodeName%","message":"%nodeHealth\.registration\.validation\.nodeNameSpace% /);
    expect(wrapper.find('[data-testid="nh-command"]').exists()).toBe(false);

    await wrapper.find('input[data-testid="nh-node-name"]').setValue('web-server');
    expect(wrapper.find('[data-testid="nh-problems"]').exists()).toBe(false);
    expect(commandOnScreen(wrapper)).toContain(`--node-name 'web-server'`);
  });

  it('takes labels and taints one per line', async() => {
    const { wrapper } = open();

    await flushPromises();
    await wrapper.find('textarea[data-testid="nh-labels"]').setValue('team=db\n\n tier=gold ');
    await wrapper.find('textarea[data-testid="nh-taints"]').setValue('dedicated=db:NoSchedule');
    expect(commandOnScreen(wrapper)).toContain(`--label 'team=db' --label 'tier=gold' --taints 'dedicated=db:NoSchedule'`);
  });

  it('adds the proxy variables for the download and the installer', async() => {
    const { wrapper } = open();

    await flushPromises();
    await wrapper.find('input[data-testid="nh-https-proxy"]').setValue('http://proxy.example.com:3128');
    await wrapper.find('input[data-testid="nh-no-proxy"]').setValue('10.0.0.0/8,.cluster.local');
    expect(commandOnScreen(wrapper)).toMatch(/^HTTPS_PROXY='http:\/\/proxy\.example\.com:3128' NO_PROXY='10\.0\.0\.0\/8,\.cluster\.local' curl /);
  });
});

describe('RegistrationCommandDialog: Windows', () => {
  it('is worker only', async() => {
    const { wrapper } = open();

    await flushPromises();
    await chooseWindows(wrapper);
    expect(wrapper.find('[data-testid="nh-role-etcd"]').exists()).toBe(false);
    expect(wrapper.find('[data-testid="nh-role-controlplane"]').exists()).toBe(false);
    const worker = wrapper.find('[data-testid="nh-role-worker"] .checkbox-custom');

    expect(worker.attributes()).toMatchObject({ 'aria-disabled': 'true', 'aria-checked': 'true' });
    expect(wrapper.find('[data-testid="nh-windows-workers-only"]').text()).toBe('%nodeHealth.registration.help.windowsWorkersOnly%');
    const command = commandOnScreen(wrapper);

    expect(command).toMatch(/^curl\.exe -fL /);
    expect(command).toContain(' -Worker');
    expect(command).not.toMatch(/--etcd|--controlplane|-Etcd|-ControlPlane/);
  });

  it('warns when Rancher offers no Windows command for the cluster', async() => {
    const { wrapper } = open(() => normanTokens({ windowsNodeCommand: '', insecureWindowsNodeCommand: '' }));

    await flushPromises();
    expect(wrapper.find('[data-testid="nh-windows-unavailable"]').exists()).toBe(false);
    await chooseWindows(wrapper);
    expect(wrapper.find('[data-testid="nh-windows-unavailable"]').exists()).toBe(true);
  });
});

describe('RegistrationCommandDialog: re-register this node', () => {
  it('prefills roles, node name, addresses and labels from the record, and states the order of steps', async() => {
    const { wrapper } = open(undefined, reRegisterRecord());

    await flushPromises();
    const steps = wrapper.findAll('[data-testid="nh-step"]').map((li) => li.text());

    expect(steps[0]).toBe(`%nodeHealth.dialog.registration.steps.cleanUp% {"machine":"${ NS }/${ MACHINE }"}`);
    expect(steps[2]).toBe('%nodeHealth.dialog.registration.steps.run% {"host":"node-1"}');
    expect((wrapper.find('input[data-testid="nh-node-name"]').element as HTMLInputElement).value).toBe('node-1');
    expect((wrapper.find('input[data-testid="nh-address"]').element as HTMLInputElement).value).toBe('203.0.113.10');
    expect((wrapper.find('input[data-testid="nh-internal-address"]').element as HTMLInputElement).value).toBe('10.0.0.10');
    expect(commandOnScreen(wrapper)).toBe(
      `curl -fL '${ SERVER }/system-agent-install.sh' | sudo sh -s - --server '${ SERVER }' --label 'cattle.io/os=linux' --token '${ TOKEN_MASK }' --ca-checksum '${ CHECKSUM }' ` +
      `--etcd --controlplane --worker --address '203.0.113.10' --internal-address '10.0.0.10' --node-name 'node-1' --label 'topology.kubernetes.io/zone=zone-a'`
    );
  });

  it('re-registers a Windows host under its lower-cased name', async() => {
    const record = reRegisterRecord('windows');

    // Without a recorded node name, only the host name is known.
    delete record.objects.machine?.status.nodeRef;
    record.nodeName = null;
    const { wrapper } = open(undefined, record);

    await flushPromises();
    const command = commandOnScreen(wrapper);

    expect(command).toContain(`$env:CATTLE_NODE_NAME='win-worker-01';`);
    expect(command).toContain(`-NodeName 'win-worker-01'`);
  });
});

describe('RegistrationCommandDialog: copying without a clipboard API', () => {
  it('offers to select the full command, and logs that it was handed out', async() => {
    setClipboardApi(false);
    const { wrapper } = open();

    await flushPromises();
    expect(wrapper.find('[data-testid="nh-fallback"]').text()).toContain('%nodeHealth.dialog.registration.fallback.noClipboard%');
    expect(wrapper.find('[data-testid="nh-fallback-text"]').exists()).toBe(false);
    await wrapper.find('[data-testid="nh-select-command"]').trigger('click');
    await flushPromises();
    const area = wrapper.find('[data-testid="nh-fallback-text"]').element as HTMLTextAreaElement;

    expect(area.value).toContain(`--token '${ TOKEN }'`);
    expect(area.selectionStart).toBe(0);
    expect(area.selectionEnd).toBe(area.value.length);
    expect(getActionLog(CLUSTER)).toEqual([expect.objectContaining({ action: 'copy-registration-command', detail: expect.stringContaining('selected for copying by hand') })]);
  });

  it('keeps the fallback out of the way while the clipboard API works, until asked', async() => {
    const { wrapper } = open();

    await flushPromises();
    expect(wrapper.find('[data-testid="nh-fallback"]').exists()).toBe(false);
    await wrapper.find('[data-testid="nh-copy-trouble"]').trigger('click');
    expect(wrapper.find('[data-testid="nh-fallback"]').text()).toContain('%nodeHealth.dialog.registration.fallback.asked%');
  });
});
