import { enableAutoUnmount, flushPromises, mount } from '@vue/test-utils';
import RemoveFinalizersDialog from '../../pkg/node-health/dialog/RemoveFinalizersDialog.vue';
import { getActionLog } from '../../pkg/node-health/actions';
import type { RemoveFinalizersRequest } from '../../pkg/node-health/actions';
import {
  MACHINE, NOW_MS, NS, steveMachine, stuckRecord
} from '../unit/actions-fixtures';
import type { StuckOptions } from '../unit/actions-fixtures';
import {
  dialogStore, httpError, missingExtensionKeys, networkError, translate
} from './dialog-helpers';
import type { Answer } from './dialog-helpers';

enableAutoUnmount(afterEach);

const CLUSTER = 'c-m-test';
const VIEW = `https://rancher.example.com/apis/cluster.x-k8s.io/v1beta1/namespaces/${ NS }/machines/${ MACHINE }`;
const SELF = `https://rancher.example.com/v1/cluster.x-k8s.io.machines/${ NS }/${ MACHINE }`;
const BOOTSTRAP_VIEW = `https://rancher.example.com/apis/rke.cattle.io/v1/namespaces/${ NS }/rkebootstraps/${ MACHINE }`;

const FINALIZER_PATCH = {
  url:                  VIEW,
  method:               'PATCH',
  headers:              { 'content-type': 'application/json-patch+json' },
  data:                 [
    {
      op: 'test', path: '/metadata/uid', value: '5f0e8a52-1111-4c4c-9d9d-000000000001'
    },
    {
      op: 'test', path: '/metadata/deletionTimestamp', value: '2024-05-02T10:00:00Z'
    },
    {
      op: 'test', path: '/metadata/resourceVersion', value: '4711'
    },
    {
      op: 'test', path: '/metadata/finalizers', value: ['machine.cluster.x-k8s.io']
    },
    { op: 'remove', path: '/metadata/finalizers' },
  ],
  redirectUnauthorized: false,
};

function open(options: StuckOptions = {}, answer: Answer = () => ({}), focus: RemoveFinalizersRequest['focus'] = 'finalizers') {
  const store = dialogStore(answer);
  const onDone = jest.fn();
  const request: RemoveFinalizersRequest = {
    record:  stuckRecord(options),
    context: {
      clusterId: CLUSTER, user: 'jane', onDone, now: () => NOW_MS
    },
    focus,
  };
  const wrapper = mount(RemoveFinalizersDialog, {
    props:  { resources: [request] },
    global: { mocks: { $store: store, t: translate } },
  });

  return {
    wrapper, store, onDone
  };
}

type Wrapper = ReturnType<typeof open>['wrapper'];

const removeButton = (w: Wrapper) => w.find('[data-testid="nh-remove-async-button"]');
const etcdButton = (w: Wrapper) => w.find('[data-testid="nh-etcd-async-button"]');

async function confirmAndRemove(w: Wrapper, name = MACHINE) {
  await w.find('[data-testid="nh-confirm-input"]').setValue(name);
  await removeButton(w).trigger('click');
  await flushPromises();
}

beforeEach(() => sessionStorage.clear());

afterAll(() => {
  expect(missingExtensionKeys()).toEqual([]);
});

describe('RemoveFinalizersDialog: what it shows before any write', () => {
  it('states the evidence: how long deletion is pending, the Node gone, the fields read', () => {
    const { wrapper } = open();
    const facts = wrapper.findAll('[data-testid="nh-fact"]').map((li) => li.text());

    expect(wrapper.find('[data-testid="nh-target"]').text()).toBe(`Machine ${ NS }/${ MACHINE }`);
    expect(facts).toEqual([
      // The duration in the user's language: this test's translator echoes the unit key and its count.
      '%nodeHealth.actions.fact.deleting% {"duration":"%nodeHealth.unit.h% {\\"n\\":2}","since":"2024-05-02T10:00:00Z"}',
      '%nodeHealth.actions.fact.nodeGone% {"node":"node-1"}',
    ]);
    const rows = wrapper.findAll('[data-testid="nh-evidence-row"]').map((tr) => tr.findAll('td').map((td) => td.text()));

    expect(rows).toContainEqual([`Machine ${ NS }/${ MACHINE }`, 'metadata.deletionTimestamp', '2024-05-02T10:00:00Z']);
    expect(rows).toContainEqual([`Machine ${ NS }/${ MACHINE }`, 'metadata.finalizers', 'machine.cluster.x-k8s.io']);
  });

  it('names each finalizer with what it protects, and the risk in plain words', () => {
    const { wrapper } = open({ finalizers: ['machine.cluster.x-k8s.io', 'example.com/backup'] });
    const finalizers = wrapper.findAll('[data-testid="nh-finalizer"]').map((li) => li.text());

    expect(finalizers).toEqual([
      'machine.cluster.x-k8s.io%nodeHealth.colon%%nodeHealth.actions.finalizer.capiMachine%',
      'example.com/backup%nodeHealth.colon%%nodeHealth.actions.finalizer.unknown% {"finalizer":"example.com/backup"}',
    ]);
    expect(wrapper.find('[data-testid="nh-risk"]').text()).toContain('%nodeHealth.dialog.removeFinalizers.risk%');
    expect(wrapper.find('[data-testid="nh-risk"]').text()).not.toContain('riskEtcd');
  });

  it('renders cluster text as text, never as markup', () => {
    const record = stuckRecord();

    record.findings[0].evidence.push({
      object: `Machine ${ NS }/${ MACHINE }`, path: 'status.failureMessage', value: '<img src=x onerror="alert(1)">'
    });
    const wrapper = mount(RemoveFinalizersDialog, {
      props: {
        resources: [{
          record,
          context: {
            clusterId: CLUSTER, user: 'jane', onDone: jest.fn(), now: () => NOW_MS
          },
          focus: 'finalizers'
        }]
      },
      global: { mocks: { $store: dialogStore(() => ({})), t: translate } },
    });

    expect(wrapper.find('[data-testid="nh-evidence"] img').exists()).toBe(false);
    expect(wrapper.find('[data-testid="nh-evidence"]').text()).toContain('<img src=x onerror="alert(1)">');
  });
});

describe('RemoveFinalizersDialog: who gets the button', () => {
  it('shows the button to a user who may update the Machine', () => {
    expect(removeButton(open().wrapper).exists()).toBe(true);
  });

  it('hides it from a user without update permission and says why', () => {
    const { wrapper } = open({ canUpdateMachine: false });

    expect(removeButton(wrapper).exists()).toBe(false);
    expect(wrapper.find('[data-testid="nh-confirm-input"]').exists()).toBe(false);
    expect(wrapper.find('[data-testid="nh-finalizers-reason"]').text())
      .toBe(`%nodeHealth.actions.reason.noUpdatePermission% {"object":"Machine ${ NS }/${ MACHINE }"}`);
  });

  it('offers nothing for a machine that has not been deleting past the threshold', () => {
    const { wrapper } = open({ deletingSince: '2024-05-02T11:55:00Z' });

    expect(removeButton(wrapper).exists()).toBe(false);
    expect(wrapper.find('[data-testid="nh-finalizers-reason"]').text()).toBe('%nodeHealth.actions.reason.notStuck%');
  });
});

describe('RemoveFinalizersDialog: typed confirmation', () => {
  it('keeps the button disabled until the machine\'s exact name is typed', async() => {
    const { wrapper, store } = open();

    expect(removeButton(wrapper).attributes('disabled')).toBeDefined();
    await wrapper.find('[data-testid="nh-confirm-input"]').setValue('custom-2d74d4c9a10');
    expect(removeButton(wrapper).attributes('disabled')).toBeDefined();
    await wrapper.find('[data-testid="nh-confirm-input"]').setValue(MACHINE.toUpperCase());
    expect(removeButton(wrapper).attributes('disabled')).toBeDefined();
    await removeButton(wrapper).trigger('click');
    await flushPromises();
    expect(store.requests()).toEqual([]);

    await wrapper.find('[data-testid="nh-confirm-input"]').setValue(MACHINE);
    expect(removeButton(wrapper).attributes('disabled')).toBeUndefined();
  });
});

describe('RemoveFinalizersDialog: the write', () => {
  it('sends exactly the guarded patch, logs it, tells the tab and closes', async() => {
    const { wrapper, store, onDone } = open();

    await confirmAndRemove(wrapper);
    expect(store.requests()).toEqual([FINALIZER_PATCH]);
    expect(onDone).toHaveBeenCalledTimes(1);
    expect(getActionLog(CLUSTER)).toEqual([{
      at:      expect.any(String),
      user:    'jane',
      cluster: CLUSTER,
      action:  'remove-finalizers',
      target:  `Machine ${ NS }/${ MACHINE }`,
      result:  'succeeded',
      detail:  'removed machine.cluster.x-k8s.io',
    }]);
    expect(store.dispatch).toHaveBeenCalledWith('growl/success', expect.anything());
    expect(wrapper.emitted('close')).toHaveLength(1);
  });

  it('403: says it was refused, that nothing changed, and offers no retry', async() => {
    const { wrapper, onDone } = open({}, () => Promise.reject(httpError(403, { message: 'machines.cluster.x-k8s.io is forbidden' })));

    await confirmAndRemove(wrapper);
    expect(wrapper.find('[data-testid="nh-failure-message"]').text()).toBe('%nodeHealth.actions.error.forbidden% {"status":403}');
    expect(wrapper.find('[data-testid="nh-server-message"]').text()).toContain('machines.cluster.x-k8s.io is forbidden');
    expect(wrapper.find('[data-testid="nh-review-again"]').exists()).toBe(false);
    expect(onDone).not.toHaveBeenCalled();
    expect(wrapper.emitted('close')).toBeUndefined();
    expect(getActionLog(CLUSTER)).toEqual([expect.objectContaining({ result: 'failed', detail: 'forbidden (HTTP 403)' })]);
  });

  it('404: says the machine is already gone and counts it as done', async() => {
    const { wrapper, onDone } = open({}, () => Promise.reject(httpError(404)));

    await confirmAndRemove(wrapper);
    expect(wrapper.find('[data-testid="nh-gone"]').text()).toBe(`%nodeHealth.dialog.removeFinalizers.gone% {"machine":"Machine ${ NS }/${ MACHINE }"}`);
    expect(wrapper.find('[data-testid="nh-failure"]').exists()).toBe(false);
    expect(removeButton(wrapper).exists()).toBe(false);
    expect(onDone).toHaveBeenCalledTimes(1);
    expect(getActionLog(CLUSTER)).toEqual([expect.objectContaining({ result: 'already-gone' })]);
  });

  it.each([409, 422])('%s: says it changed meanwhile, nothing removed; "Review again" reloads and shows the new state', async(status) => {
    const changed = steveMachine({ resourceVersion: '9000', finalizers: ['machine.cluster.x-k8s.io', 'example.com/backup'] });
    const { wrapper, store, onDone } = open({}, (payload) => {
      if (payload.method === 'GET') {
        return changed;
      }

      return Promise.reject(httpError(status, { message: 'the server rejected our request due to an error in our request' }));
    });

    await confirmAndRemove(wrapper);
    expect(wrapper.find('[data-testid="nh-failure-message"]').text()).toBe(`%nodeHealth.actions.error.conflict% {"status":${ status }}`);
    expect(getActionLog(CLUSTER)).toEqual([expect.objectContaining({ result: 'conflict' })]);
    expect(onDone).not.toHaveBeenCalled();

    await wrapper.find('[data-testid="nh-review-again"]').trigger('click');
    await flushPromises();
    expect(store.requests()[1]).toEqual({
      url: SELF, method: 'GET', redirectUnauthorized: false
    });
    expect(wrapper.find('[data-testid="nh-failure"]').exists()).toBe(false);
    expect(wrapper.findAll('[data-testid="nh-review-change"]').map((li) => li.text())).toEqual([
      '%nodeHealth.actions.change.finalizers% {"before":"machine.cluster.x-k8s.io","after":"machine.cluster.x-k8s.io, example.com/backup"}',
      '%nodeHealth.actions.change.resourceVersion% {"before":"4711","after":"9000"}',
    ]);
    expect(wrapper.findAll('[data-testid="nh-finalizer"]')).toHaveLength(2);
    // The confirmation applies to what was reviewed, so it must be given again for the new state.
    expect((wrapper.find('[data-testid="nh-confirm-input"]').element as HTMLInputElement).value).toBe('');

    await confirmAndRemove(wrapper);
    expect(store.requests()[2].data).toEqual([
      {
        op: 'test', path: '/metadata/uid', value: '5f0e8a52-1111-4c4c-9d9d-000000000001'
      },
      {
        op: 'test', path: '/metadata/deletionTimestamp', value: '2024-05-02T10:00:00Z'
      },
      {
        op: 'test', path: '/metadata/resourceVersion', value: '9000'
      },
      {
        op: 'test', path: '/metadata/finalizers', value: ['machine.cluster.x-k8s.io', 'example.com/backup']
      },
      { op: 'remove', path: '/metadata/finalizers' },
    ]);
  });

  it('"Review again" that finds another machine under the name (deleted and registered again) offers nothing', async() => {
    const recreated = steveMachine({ resourceVersion: '9100', deletingSince: null });

    recreated.metadata.uid = '5f0e8a52-2222-4c4c-9d9d-000000000002';
    const { wrapper, store, onDone } = open({}, (payload) => (payload.method === 'GET' ? recreated : Promise.reject(httpError(422))));

    await confirmAndRemove(wrapper);
    await wrapper.find('[data-testid="nh-review-again"]').trigger('click');
    await flushPromises();
    expect(wrapper.find('[data-testid="nh-replaced"]').text()).toBe(`%nodeHealth.dialog.removeFinalizers.replaced% {"machine":"Machine ${ NS }/${ MACHINE }"}`);
    expect(removeButton(wrapper).exists()).toBe(false);
    expect(wrapper.find('[data-testid="nh-confirm-input"]').exists()).toBe(false);
    expect(store.requests().filter((r: any) => r.method === 'PATCH')).toHaveLength(1);
    expect(onDone).toHaveBeenCalledTimes(1);
  });

  it('"Review again" that finds the same machine no longer deleting does not offer the removal', async() => {
    const restored = steveMachine({ resourceVersion: '9200', deletingSince: null });
    const { wrapper } = open({}, (payload) => (payload.method === 'GET' ? restored : Promise.reject(httpError(422))));

    await confirmAndRemove(wrapper);
    await wrapper.find('[data-testid="nh-review-again"]').trigger('click');
    await flushPromises();
    expect(wrapper.findAll('[data-testid="nh-review-change"]').map((li) => li.text())[0])
      .toBe('%nodeHealth.actions.change.deletion% {"before":"2024-05-02T10:00:00Z","after":"-"}');
    expect(removeButton(wrapper).exists()).toBe(false);
    expect(wrapper.find('[data-testid="nh-finalizers-reason"]').text()).toBe('%nodeHealth.actions.reason.notDeleting%');
  });

  it('"Review again" that finds the machine gone says so and counts it as done', async() => {
    const { wrapper, onDone } = open({}, (payload) => Promise.reject(httpError(payload.method === 'GET' ? 404 : 422)));

    await confirmAndRemove(wrapper);
    await wrapper.find('[data-testid="nh-review-again"]').trigger('click');
    await flushPromises();
    expect(wrapper.find('[data-testid="nh-gone"]').exists()).toBe(true);
    expect(onDone).toHaveBeenCalledTimes(1);
  });

  it('5xx: says the outcome is uncertain and offers to review again', async() => {
    const { wrapper } = open({}, () => Promise.reject(httpError(503, { data: '<html>Service Unavailable</html>' })));

    await confirmAndRemove(wrapper);
    expect(wrapper.find('[data-testid="nh-failure-message"]').text()).toBe('%nodeHealth.actions.error.server% {"status":503}');
    expect(wrapper.find('[data-testid="nh-server-message"]').exists()).toBe(false);
    expect(wrapper.find('[data-testid="nh-review-again"]').exists()).toBe(true);
    expect(getActionLog(CLUSTER)).toEqual([expect.objectContaining({ result: 'failed', detail: 'server (HTTP 503)' })]);
  });

  it('network loss: says the request did not reach Rancher and offers to review again', async() => {
    const { wrapper } = open({}, () => Promise.reject(networkError()));

    await confirmAndRemove(wrapper);
    expect(wrapper.find('[data-testid="nh-failure-message"]').text()).toBe('%nodeHealth.actions.error.network% {"status":"-"}');
    expect(wrapper.find('[data-testid="nh-review-again"]').exists()).toBe(true);
    expect(getActionLog(CLUSTER)).toEqual([expect.objectContaining({ result: 'failed', detail: 'network' })]);
  });

  it('logs a cancel when the dialog is closed without a write', async() => {
    const { wrapper, store } = open();

    await wrapper.find('[data-testid="nh-close"]').trigger('click');
    expect(wrapper.emitted('close')).toHaveLength(1);
    expect(store.requests()).toEqual([]);
    expect(getActionLog(CLUSTER)).toEqual([expect.objectContaining({ action: 'remove-finalizers', result: 'cancelled' })]);
  });

  it('logs a cancel when the modal is closed from outside (Escape, click beside it)', () => {
    let backgroundClose: (() => void) | null = null;
    const request: RemoveFinalizersRequest = {
      record:  stuckRecord(),
      context: {
        clusterId: CLUSTER, user: 'jane', onDone: jest.fn(), now: () => NOW_MS
      },
      focus: 'finalizers'
    };

    mount(RemoveFinalizersDialog, {
      props: {
        resources:                 [request],
        registerBackgroundClosing: (fn: () => void) => {
          backgroundClose = fn;
        },
      },
      global: { mocks: { $store: dialogStore(() => ({})), t: translate } },
    });
    expect(backgroundClose).toEqual(expect.any(Function));
    (backgroundClose as unknown as () => void)();
    expect(getActionLog(CLUSTER)).toEqual([expect.objectContaining({ result: 'cancelled' })]);
  });
});

describe('RemoveFinalizersDialog: the etcd release comes first', () => {
  it('offers the designed release before the finalizer removal, which waits behind it', async() => {
    const { wrapper } = open({ etcd: true });
    const etcd = wrapper.find('[data-testid="nh-etcd-release"]').element;
    const finalizers = wrapper.find('[data-testid="nh-finalizers"]').element;

    // eslint-disable-next-line no-bitwise
    expect(etcd.compareDocumentPosition(finalizers) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(etcdButton(wrapper).exists()).toBe(true);
    expect(removeButton(wrapper).exists()).toBe(false);
    expect(wrapper.find('[data-testid="nh-finalizers"]').text()).toContain('%nodeHealth.dialog.removeFinalizers.lastResortHeading%');

    await wrapper.find('[data-testid="nh-show-finalizers"]').trigger('click');
    expect(removeButton(wrapper).exists()).toBe(true);
    expect(wrapper.find('[data-testid="nh-risk"]').text()).toContain('%nodeHealth.dialog.removeFinalizers.riskEtcd%');
    expect(wrapper.findAll('[data-testid="nh-fact"]').map((li) => li.text())).toContain('%nodeHealth.actions.fact.etcdMember%');
  });

  it('annotates the RKEBootstrap with a guarded patch, logs it and keeps the dialog open', async() => {
    const { wrapper, store, onDone } = open({ etcd: true });

    expect(etcdButton(wrapper).attributes('disabled')).toBeDefined();
    await wrapper.find('[data-testid="nh-confirm-input"]').setValue(MACHINE);
    await etcdButton(wrapper).trigger('click');
    await flushPromises();
    expect(store.requests()).toEqual([{
      url:                  BOOTSTRAP_VIEW,
      method:               'PATCH',
      headers:              { 'content-type': 'application/json-patch+json' },
      data:                 [
        {
          op: 'test', path: '/metadata/resourceVersion', value: '815'
        },
        {
          op: 'add', path: '/metadata/annotations/rke.cattle.io~1etcd-force-remove', value: 'true'
        },
      ],
      redirectUnauthorized: false,
    }]);
    expect(wrapper.find('[data-testid="nh-etcd-released"]').exists()).toBe(true);
    expect(etcdButton(wrapper).exists()).toBe(false);
    expect(removeButton(wrapper).exists()).toBe(false);
    expect(onDone).toHaveBeenCalledTimes(1);
    expect(wrapper.emitted('close')).toBeUndefined();
    expect(getActionLog(CLUSTER)).toEqual([expect.objectContaining({
      action: 'etcd-force-remove', target: `RKEBootstrap ${ NS }/${ MACHINE }`, result: 'succeeded'
    })]);
  });

  it('goes straight to the finalizers when the release is already set', () => {
    const { wrapper } = open({ etcd: true, bootstrapAnnotations: { 'rke.cattle.io/etcd-force-remove': 'true' } });

    expect(etcdButton(wrapper).exists()).toBe(false);
    expect(wrapper.find('[data-testid="nh-etcd-reason"]').text()).toContain('%nodeHealth.actions.reason.etcdAlreadyReleased%');
    expect(removeButton(wrapper).exists()).toBe(true);
  });
});
