import { enableAutoUnmount, flushPromises, mount } from '@vue/test-utils';
import RemoveFinalizersDialog from '@pkg/node-health/dialog/RemoveFinalizersDialog.vue';
import { getActionLog } from '@pkg/node-health/actions';
import type { RemoveFinalizersRequest } from '@pkg/node-health/actions';
import {
  MACHINE, NOW_MS, NS, steveBootstrap, steveMachine, stuckRecord
} from '../unit/actions/fixtures';
import type { StuckOptions } from '../unit/actions/fixtures';
import {
  dialogStore, httpError, missingExtensionKeys, networkError, translate
} from './dialog-helpers';
import type { Answer } from './dialog-helpers';

enableAutoUnmount(afterEach);

const CLUSTER = 'c-m-test';
const VIEW = `https://rancher.example.com/apis/cluster.x-k8s.io/v1beta1/namespaces/${ NS }/machines/${ MACHINE }`;
const SELF = `https://rancher.example.com/v1/cluster.x-k8s.io.machines/${ NS }/${ MACHINE }`;
const BOOTSTRAP_VIEW = `https://rancher.example.com/apis/rke.cattle.io/v1/namespaces/${ NS }/rkebootstraps/${ MACHINE }`;
const BOOTSTRAP_SELF = `https://rancher.example.com/v1/rke.cattle.io.rkebootstraps/${ NS }/${ MACHINE }`;
const READ_MACHINE = {
  url: SELF, method: 'GET', redirectUnauthorized: false
};
const READ_BOOTSTRAP = {
  url: BOOTSTRAP_SELF, method: 'GET', redirectUnauthorized: false
};

type Read = unknown | (() => unknown);

/**
 * Answers like the API server: each read of the Machine (of the RKEBootstrap) gives the next of
 * `machines` (`bootstraps`), the last one again once they run out; a write gets `write`.
 */
function server(write: Answer = () => ({}), machines: Read[] = [steveMachine()], bootstraps: Read[] = [steveBootstrap()]): Answer {
  const reads = { machine: 0, bootstrap: 0 };

  return (payload) => {
    if (payload.method !== 'GET') {
      return write(payload);
    }
    const kind = String(payload.url).includes('rkebootstraps') ? 'bootstrap' : 'machine';
    const list = kind === 'bootstrap' ? bootstraps : machines;
    const read = list[Math.min(reads[kind]++, list.length - 1)];

    return typeof read === 'function' ? read() : read;
  };
}

/** The requests to the objects reviewed: the audit Events each write leaves are checked on their own. */
const objectRequests = (store: ReturnType<typeof open>['store']) => store.requests().filter((r: any) => !String(r.url).includes('/events'));
const auditEvents = (store: ReturnType<typeof open>['store']) => store.requests().filter((r: any) => String(r.url).includes('/events')).map((r: any) => r.data);
const patches = (store: ReturnType<typeof open>['store']) => objectRequests(store).filter((r: any) => r.method === 'PATCH');

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

function open(
  options: StuckOptions = {}, answer: Answer = server(), focus: RemoveFinalizersRequest['focus'] = 'finalizers', record = stuckRecord(options)
) {
  const store = dialogStore(answer);
  const onDone = jest.fn();
  const request: RemoveFinalizersRequest = {
    record,
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
      '%nodeHealth.actions.fact.deleting% {"duration":"%nodeHealth.unit.h% {\\"n\\":2}","since":"2024-05-02 10:00:00 UTC"}',
      '%nodeHealth.actions.fact.nodeGone% {"node":"node-1"}',
    ]);
    // The record's findings by title in one line after the facts, not as more facts.
    expect(wrapper.find('[data-testid="nh-finding-titles"]').text()).toMatch(/^%nodeHealth\.dialog\.removeFinalizers\.findings% \{"titles":"%nodeHealth\.rules\./);
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
    const { wrapper } = open({}, () => ({}), 'finalizers', record);

    expect(wrapper.find('[data-testid="nh-evidence"] img').exists()).toBe(false);
    expect(wrapper.find('[data-testid="nh-evidence"]').text()).toContain('<img src=x onerror="alert(1)">');
  });
});

describe('RemoveFinalizersDialog: the checks before it writes', () => {
  const outcomes = (w: Wrapper) => Object.fromEntries(w.findAll('[data-testid^="nh-preflight-check-"]').map((li) => [
    String(li.attributes('data-testid')).replace('nh-preflight-check-', ''), li.attributes('data-outcome'),
  ]));

  it('lists each check with its outcome and its words, and lets a machine with no Node left be confirmed', () => {
    const { wrapper } = open();

    expect(outcomes(wrapper)).toEqual({
      hostGone: 'passed', infrastructureGone: 'passed', etcdQuorum: 'passed', notPaused: 'passed', noRemediation: 'passed', agentConnected: 'passed', mayUpdate: 'passed',
    });
    expect(wrapper.find('[data-testid="nh-preflight-check-hostGone"]').text()).toContain('%nodeHealth.preflight.hostGone.noNode%');
    expect(wrapper.find('[data-testid="nh-confirm-input"]').exists()).toBe(true);
  });

  it('refuses where the machine\'s own Node is Ready and reporting, says which check failed, and asks for no confirmation', async() => {
    const { wrapper, store } = open({ liveNode: true });

    expect(outcomes(wrapper).hostGone).toBe('failed');
    expect(wrapper.find('[data-testid="nh-preflight-check-hostGone"]').text()).toContain('%nodeHealth.preflight.hostGone.alive% {"node":"node-1","seconds":0}');
    // The check's words are said once, in the list; the reason points to it.
    expect(wrapper.find('[data-testid="nh-finalizers-reason"]').text()).toBe('%nodeHealth.preflight.refusedBy.failed% {"check":"%nodeHealth.preflight.hostGone.title%"}');
    expect(wrapper.find('[data-testid="nh-confirm-input"]').exists()).toBe(false);
    await flushPromises();
    expect(patches(store)).toEqual([]);
  });

  it('shows the etcd release\'s own checks: what it does to quorum', () => {
    const { wrapper } = open({ etcd: true });

    expect(wrapper.find('[data-testid="nh-preflight-etcd-force-remove"]').exists()).toBe(true);
    expect(outcomes(wrapper).etcdQuorum).toBe('passed');
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
    expect(objectRequests(store)).toEqual([]);

    await wrapper.find('[data-testid="nh-confirm-input"]').setValue(MACHINE);
    expect(removeButton(wrapper).attributes('disabled')).toBeUndefined();
  });
});

describe('RemoveFinalizersDialog: the write', () => {
  it('sends exactly the guarded patch, logs it, tells the tab and closes', async() => {
    const { wrapper, store, onDone } = open();

    await confirmAndRemove(wrapper);
    expect(objectRequests(store)).toEqual([READ_MACHINE, FINALIZER_PATCH]);
    expect(auditEvents(store)).toEqual([expect.objectContaining({
      kind:           'Event',
      reason:         'NodeHealthRemovedFinalizers',
      involvedObject: expect.objectContaining({
        kind: 'Machine', name: MACHINE, namespace: NS
      })
    })]);
    expect(onDone).toHaveBeenCalledTimes(1);
    expect(getActionLog(CLUSTER)).toEqual([{
      at:      expect.any(String),
      user:    'jane',
      cluster: CLUSTER,
      action:  'remove-finalizers',
      target:  `Machine ${ NS }/${ MACHINE }`,
      result:  'succeeded',
      detail:  'removed the finalizers machine.cluster.x-k8s.io; event recorded',
    }]);
    expect(store.dispatch).toHaveBeenCalledWith('growl/success', expect.anything());
    expect(wrapper.emitted('close')).toHaveLength(1);
  });

  it('gives its audit Event the diagnosis that led to the removal: the record\'s root cause', async() => {
    const record = {
      ...stuckRecord(),
      resolution: {
        rootCause: 'agent-never-checked-in', consequences: [], steps: []
      }
    };
    const { wrapper, store } = open({}, server(), 'finalizers', record);

    await confirmAndRemove(wrapper);
    expect(auditEvents(store)).toEqual([expect.objectContaining({ message: 'jane removed the finalizers machine.cluster.x-k8s.io from Node Health (diagnosis: agent-never-checked-in)' })]);
  });

  it('403: says it was refused, that nothing changed, and offers no retry', async() => {
    const { wrapper, onDone } = open({}, server(() => Promise.reject(httpError(403, { message: 'machines.cluster.x-k8s.io is forbidden' }))));

    await confirmAndRemove(wrapper);
    expect(wrapper.find('[data-testid="nh-failure-message"]').text()).toBe('%nodeHealth.actions.error.forbidden% {"status":403}');
    expect(wrapper.find('[data-testid="nh-server-message"]').text()).toContain('machines.cluster.x-k8s.io is forbidden');
    expect(wrapper.find('[data-testid="nh-review-again"]').exists()).toBe(false);
    expect(onDone).not.toHaveBeenCalled();
    expect(wrapper.emitted('close')).toBeUndefined();
    expect(getActionLog(CLUSTER)).toEqual([expect.objectContaining({ result: 'failed', detail: 'forbidden (HTTP 403)' })]);
  });

  it('404: says the machine is already gone and counts it as done', async() => {
    const { wrapper, onDone } = open({}, server(() => Promise.reject(httpError(404))));

    await confirmAndRemove(wrapper);
    expect(wrapper.find('[data-testid="nh-gone"]').text()).toBe(`%nodeHealth.dialog.removeFinalizers.gone% {"machine":"Machine ${ NS }/${ MACHINE }"}`);
    expect(wrapper.find('[data-testid="nh-failure"]').exists()).toBe(false);
    expect(removeButton(wrapper).exists()).toBe(false);
    expect(onDone).toHaveBeenCalledTimes(1);
    expect(getActionLog(CLUSTER)).toEqual([expect.objectContaining({ result: 'already-gone' })]);
  });

  it.each([409, 422])('%s: says it changed meanwhile, nothing removed; "Review again" reloads and shows the new state', async(status) => {
    const changed = steveMachine({ resourceVersion: '9000', finalizers: ['machine.cluster.x-k8s.io', 'example.com/backup'] });
    const { wrapper, store, onDone } = open({}, server(
      () => Promise.reject(httpError(status, { message: 'the server rejected our request due to an error in our request' })),
      [steveMachine(), changed]
    ));

    await confirmAndRemove(wrapper);
    expect(wrapper.find('[data-testid="nh-failure-message"]').text()).toBe(`%nodeHealth.actions.error.conflict% {"status":${ status }}`);
    expect(getActionLog(CLUSTER)).toEqual([expect.objectContaining({ result: 'conflict' })]);
    expect(onDone).not.toHaveBeenCalled();

    await wrapper.find('[data-testid="nh-review-again"]').trigger('click');
    await flushPromises();
    expect(objectRequests(store).slice(1)).toEqual([FINALIZER_PATCH, READ_MACHINE]);
    expect(wrapper.find('[data-testid="nh-failure"]').exists()).toBe(false);
    expect(wrapper.findAll('[data-testid="nh-review-change"]').map((li) => li.text())).toEqual([
      '%nodeHealth.actions.change.finalizers% {"before":"machine.cluster.x-k8s.io","after":"machine.cluster.x-k8s.io, example.com/backup"}',
      '%nodeHealth.actions.change.resourceVersion% {"before":"4711","after":"9000"}',
    ]);
    expect(wrapper.findAll('[data-testid="nh-finalizer"]')).toHaveLength(2);
    // The confirmation applies to what was reviewed, so it must be given again for the new state.
    expect((wrapper.find('[data-testid="nh-confirm-input"]').element as HTMLInputElement).value).toBe('');

    await confirmAndRemove(wrapper);
    expect(objectRequests(store)[3]).toEqual(READ_MACHINE);
    expect(objectRequests(store)[4].data).toEqual([
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
    const { wrapper, store, onDone } = open({}, server(() => Promise.reject(httpError(422)), [steveMachine(), recreated]));

    await confirmAndRemove(wrapper);
    await wrapper.find('[data-testid="nh-review-again"]').trigger('click');
    await flushPromises();
    expect(wrapper.find('[data-testid="nh-replaced"]').text()).toBe(`%nodeHealth.dialog.removeFinalizers.replaced% {"machine":"Machine ${ NS }/${ MACHINE }"}`);
    expect(removeButton(wrapper).exists()).toBe(false);
    expect(wrapper.find('[data-testid="nh-confirm-input"]').exists()).toBe(false);
    expect(objectRequests(store).filter((r: any) => r.method === 'PATCH')).toHaveLength(1);
    expect(onDone).toHaveBeenCalledTimes(1);
  });

  it('"Review again" that finds the same machine no longer deleting does not offer the removal', async() => {
    const restored = steveMachine({ resourceVersion: '9200', deletingSince: null });
    const { wrapper } = open({}, server(() => Promise.reject(httpError(422)), [steveMachine(), restored]));

    await confirmAndRemove(wrapper);
    await wrapper.find('[data-testid="nh-review-again"]').trigger('click');
    await flushPromises();
    expect(wrapper.findAll('[data-testid="nh-review-change"]').map((li) => li.text())[0])
      .toBe('%nodeHealth.actions.change.deletion% {"before":"2024-05-02T10:00:00Z","after":"-"}');
    expect(removeButton(wrapper).exists()).toBe(false);
    expect(wrapper.find('[data-testid="nh-finalizers-reason"]').text()).toBe('%nodeHealth.actions.reason.notDeleting%');
  });

  it('"Review again" that finds the machine gone says so and counts it as done', async() => {
    const { wrapper, onDone } = open({}, server(() => Promise.reject(httpError(422)), [steveMachine(), () => Promise.reject(httpError(404))]));

    await confirmAndRemove(wrapper);
    await wrapper.find('[data-testid="nh-review-again"]').trigger('click');
    await flushPromises();
    expect(wrapper.find('[data-testid="nh-gone"]').exists()).toBe(true);
    expect(onDone).toHaveBeenCalledTimes(1);
  });

  it('5xx: says the outcome is uncertain and offers to review again', async() => {
    const { wrapper } = open({}, server(() => Promise.reject(httpError(503, { data: '<html>Service Unavailable</html>' }))));

    await confirmAndRemove(wrapper);
    expect(wrapper.find('[data-testid="nh-failure-message"]').text()).toBe('%nodeHealth.actions.error.server% {"status":503}');
    expect(wrapper.find('[data-testid="nh-server-message"]').exists()).toBe(false);
    expect(wrapper.find('[data-testid="nh-review-again"]').exists()).toBe(true);
    expect(getActionLog(CLUSTER)).toEqual([expect.objectContaining({ result: 'failed', detail: 'server (HTTP 503)' })]);
  });

  it('network loss: says the request did not reach Rancher and offers to review again', async() => {
    const { wrapper } = open({}, server(() => Promise.reject(networkError())));

    await confirmAndRemove(wrapper);
    expect(wrapper.find('[data-testid="nh-failure-message"]').text()).toBe('%nodeHealth.actions.error.network% {"status":"-"}');
    expect(wrapper.find('[data-testid="nh-review-again"]').exists()).toBe(true);
    expect(getActionLog(CLUSTER)).toEqual([expect.objectContaining({ result: 'failed', detail: 'network' })]);
  });

  it('logs a cancel when the dialog is closed without a write', async() => {
    const { wrapper, store } = open();

    await wrapper.find('[data-testid="nh-close"]').trigger('click');
    expect(wrapper.emitted('close')).toHaveLength(1);
    expect(objectRequests(store)).toEqual([]);
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
    const { wrapper, store, onDone } = open({ etcd: true }, server(undefined, [steveMachine({ etcd: true })]));

    expect(etcdButton(wrapper).attributes('disabled')).toBeDefined();
    await wrapper.find('[data-testid="nh-confirm-input"]').setValue(MACHINE);
    await etcdButton(wrapper).trigger('click');
    await flushPromises();
    expect(objectRequests(store)).toEqual([READ_MACHINE, READ_BOOTSTRAP, {
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

describe('RemoveFinalizersDialog: the confirmation reads the Machine again before any write', () => {
  const OTHER_UID = '5f0e8a52-2222-4c4c-9d9d-000000000002';

  it('writes the Machine as read again: one read, then one patch guarded by the fresh resourceVersion', async() => {
    // Someone added an annotation after the review: nothing the user reviewed changed.
    const touched = steveMachine({ resourceVersion: '4800' });

    touched.metadata.annotations = { 'example.com/touched-by': 'another-admin' };
    const { wrapper, store } = open({}, server(undefined, [touched]));

    await confirmAndRemove(wrapper);
    expect(objectRequests(store)).toEqual([READ_MACHINE, {
      ...FINALIZER_PATCH,
      data: FINALIZER_PATCH.data.map((op) => (op.path === '/metadata/resourceVersion' ? { ...op, value: '4800' } : op)),
    }]);
    expect(wrapper.emitted('close')).toHaveLength(1);
  });

  it('sends nothing when another machine took the name (deleted and registered again) after the review', async() => {
    const recreated = steveMachine({ resourceVersion: '9100', deletingSince: null });

    recreated.metadata.uid = OTHER_UID;
    const { wrapper, store, onDone } = open({}, server(undefined, [recreated]));

    await confirmAndRemove(wrapper);
    expect(objectRequests(store)).toEqual([READ_MACHINE]);
    expect(wrapper.find('[data-testid="nh-replaced"]').text()).toBe(`%nodeHealth.dialog.removeFinalizers.replaced% {"machine":"Machine ${ NS }/${ MACHINE }"}`);
    expect(removeButton(wrapper).exists()).toBe(false);
    expect(onDone).toHaveBeenCalledTimes(1);
    expect(getActionLog(CLUSTER)).toEqual([expect.objectContaining({ result: 'conflict', detail: 'another object under the reviewed name; nothing sent' })]);
  });

  it('sends nothing when another machine took the name and is itself deleting with the same finalizers', async() => {
    const recreated = steveMachine();

    recreated.metadata.uid = OTHER_UID;
    const { wrapper, store } = open({}, server(undefined, [recreated]));

    await confirmAndRemove(wrapper);
    expect(patches(store)).toEqual([]);
    expect(wrapper.find('[data-testid="nh-replaced"]').exists()).toBe(true);
  });

  it('sends nothing when the Machine is no longer being deleted, and no longer offers the removal', async() => {
    const restored = steveMachine({ resourceVersion: '9200', deletingSince: null });
    const { wrapper, store } = open({}, server(undefined, [restored]));

    await confirmAndRemove(wrapper);
    expect(objectRequests(store)).toEqual([READ_MACHINE]);
    expect(wrapper.find('[data-testid="nh-review-intro"]').text())
      .toBe(`%nodeHealth.dialog.removeFinalizers.changedBeforeWrite% {"object":"Machine ${ NS }/${ MACHINE }"}`);
    expect(wrapper.findAll('[data-testid="nh-review-change"]').map((li) => li.text())[0])
      .toBe('%nodeHealth.actions.change.deletion% {"before":"2024-05-02T10:00:00Z","after":"-"}');
    expect(removeButton(wrapper).exists()).toBe(false);
    expect(wrapper.find('[data-testid="nh-finalizers-reason"]').text()).toBe('%nodeHealth.actions.reason.notDeleting%');
  });

  it('sends nothing when the finalizers changed; shows the new ones and asks for the confirmation again', async() => {
    const changed = steveMachine({ resourceVersion: '9300', finalizers: ['machine.cluster.x-k8s.io', 'example.com/backup'] });
    const { wrapper, store } = open({}, server(undefined, [changed]));

    await confirmAndRemove(wrapper);
    expect(objectRequests(store)).toEqual([READ_MACHINE]);
    expect(wrapper.findAll('[data-testid="nh-review-change"]').map((li) => li.text())).toEqual([
      '%nodeHealth.actions.change.finalizers% {"before":"machine.cluster.x-k8s.io","after":"machine.cluster.x-k8s.io, example.com/backup"}',
      '%nodeHealth.actions.change.resourceVersion% {"before":"4711","after":"9300"}',
    ]);
    expect(wrapper.findAll('[data-testid="nh-finalizer"]')).toHaveLength(2);
    expect((wrapper.find('[data-testid="nh-confirm-input"]').element as HTMLInputElement).value).toBe('');
    expect(getActionLog(CLUSTER)).toEqual([expect.objectContaining({ result: 'conflict', detail: 'changed since the review; nothing sent' })]);

    // Confirmed again on the new state: that state is what the patch now guards.
    await confirmAndRemove(wrapper);
    expect(objectRequests(store).slice(1)).toEqual([READ_MACHINE, expect.objectContaining({ method: 'PATCH' })]);
    expect(patches(store)[0].data).toContainEqual({
      op: 'test', path: '/metadata/finalizers', value: ['machine.cluster.x-k8s.io', 'example.com/backup']
    });
  });

  it('sends nothing when the finalizers are gone meanwhile, and says nothing is left', async() => {
    const { wrapper, store } = open({}, server(undefined, [steveMachine({ resourceVersion: '9400', finalizers: [] })]));

    await confirmAndRemove(wrapper);
    expect(patches(store)).toEqual([]);
    expect(wrapper.find('[data-testid="nh-nothing-left"]').exists()).toBe(true);
  });

  it('sends nothing when the user may no longer update the Machine', async() => {
    const { wrapper, store } = open({}, server(undefined, [steveMachine({ canUpdateMachine: false })]));

    await confirmAndRemove(wrapper);
    expect(patches(store)).toEqual([]);
    expect(wrapper.find('[data-testid="nh-finalizers-reason"]').text())
      .toBe(`%nodeHealth.actions.reason.noUpdatePermission% {"object":"Machine ${ NS }/${ MACHINE }"}`);
    expect(wrapper.findAll('[data-testid="nh-review-change"]')).toHaveLength(0);
  });

  it('a Machine gone when read again: says so, counts it as done, sends nothing', async() => {
    const { wrapper, store, onDone } = open({}, server(undefined, [() => Promise.reject(httpError(404))]));

    await confirmAndRemove(wrapper);
    expect(objectRequests(store)).toEqual([READ_MACHINE]);
    expect(wrapper.find('[data-testid="nh-gone"]').exists()).toBe(true);
    expect(onDone).toHaveBeenCalledTimes(1);
    expect(getActionLog(CLUSTER)).toEqual([expect.objectContaining({ result: 'already-gone', detail: 'gone (HTTP 404) reading it again; nothing sent' })]);
  });

  it.each([
    [401, 'unauthorized', false],
    [403, 'forbidden', false],
    [500, 'failed', true],
    [503, 'failed', true],
  ])('a read answered %s: says nothing was sent, sends nothing', async(status, key, offerReview) => {
    const { wrapper, store, onDone } = open({}, server(undefined, [() => Promise.reject(httpError(status))]));

    await confirmAndRemove(wrapper);
    expect(objectRequests(store)).toEqual([READ_MACHINE]);
    expect(wrapper.find('[data-testid="nh-failure-message"]').text())
      .toBe(`%nodeHealth.actions.reread.${ key }% {"object":"Machine ${ NS }/${ MACHINE }","status":${ status }}`);
    expect(wrapper.find('[data-testid="nh-review-again"]').exists()).toBe(offerReview);
    expect(onDone).not.toHaveBeenCalled();
    expect(wrapper.emitted('close')).toBeUndefined();
    expect(getActionLog(CLUSTER)).toEqual([expect.objectContaining({ result: 'failed', detail: expect.stringContaining('reading it again; nothing sent') })]);
  });

  it('a read lost on the network: says nothing was sent, and "Review again" then offers the write anew', async() => {
    const { wrapper, store } = open({}, server(undefined, [() => Promise.reject(networkError()), steveMachine()]));

    await confirmAndRemove(wrapper);
    expect(wrapper.find('[data-testid="nh-failure-message"]').text())
      .toBe(`%nodeHealth.actions.reread.network% {"object":"Machine ${ NS }/${ MACHINE }","status":"-"}`);
    expect(patches(store)).toEqual([]);
    await wrapper.find('[data-testid="nh-review-again"]').trigger('click');
    await flushPromises();
    expect(wrapper.find('[data-testid="nh-failure"]').exists()).toBe(false);
    await confirmAndRemove(wrapper);
    expect(patches(store)).toEqual([FINALIZER_PATCH]);
  });
});

describe('RemoveFinalizersDialog: the etcd release reads the Machine and the RKEBootstrap again', () => {
  const etcdMachine = steveMachine({ etcd: true });

  async function confirmRelease(wrapper: Wrapper) {
    await wrapper.find('[data-testid="nh-confirm-input"]').setValue(MACHINE);
    await etcdButton(wrapper).trigger('click');
    await flushPromises();
  }

  it('guards the release with the RKEBootstrap\'s fresh resourceVersion', async() => {
    const bootstrap = steveBootstrap();

    bootstrap.metadata.resourceVersion = '900';
    const { wrapper, store } = open({ etcd: true }, server(undefined, [etcdMachine], [bootstrap]));

    await confirmRelease(wrapper);
    expect(objectRequests(store).slice(0, 2)).toEqual([READ_MACHINE, READ_BOOTSTRAP]);
    expect(patches(store)).toHaveLength(1);
    expect(patches(store)[0].data[0]).toEqual({
      op: 'test', path: '/metadata/resourceVersion', value: '900'
    });
  });

  it('sends nothing when another machine took the name', async() => {
    const recreated = steveMachine({ etcd: true, deletingSince: null });

    recreated.metadata.uid = '5f0e8a52-2222-4c4c-9d9d-000000000002';
    const { wrapper, store } = open({ etcd: true }, server(undefined, [recreated]));

    await confirmRelease(wrapper);
    expect(objectRequests(store)).toEqual([READ_MACHINE, READ_BOOTSTRAP]);
    expect(wrapper.find('[data-testid="nh-replaced"]').exists()).toBe(true);
  });

  it('sends nothing when the Machine is no longer being deleted', async() => {
    const { wrapper, store } = open({ etcd: true }, server(undefined, [steveMachine({ etcd: true, deletingSince: null })]));

    await confirmRelease(wrapper);
    expect(patches(store)).toEqual([]);
    expect(etcdButton(wrapper).exists()).toBe(false);
    expect(wrapper.findAll('[data-testid="nh-review-change"]').map((li) => li.text())[0])
      .toBe('%nodeHealth.actions.change.deletion% {"before":"2024-05-02T10:00:00Z","after":"-"}');
  });

  it('sends nothing when someone released it meanwhile', async() => {
    const released = steveBootstrap({ bootstrapAnnotations: { 'rke.cattle.io/etcd-force-remove': 'true' } });
    const { wrapper, store } = open({ etcd: true }, server(undefined, [etcdMachine], [released]));

    await confirmRelease(wrapper);
    expect(patches(store)).toEqual([]);
    expect(etcdButton(wrapper).exists()).toBe(false);
    expect(wrapper.find('[data-testid="nh-etcd-reason"]').text()).toContain('%nodeHealth.actions.reason.etcdAlreadyReleased%');
  });

  it('a read refused with 403: says nothing was sent, sends nothing', async() => {
    const { wrapper, store } = open({ etcd: true }, server(undefined, [etcdMachine], [() => Promise.reject(httpError(403))]));

    await confirmRelease(wrapper);
    expect(patches(store)).toEqual([]);
    expect(wrapper.find('[data-testid="nh-failure-message"]').text())
      .toBe(`%nodeHealth.actions.reread.forbidden% {"object":"RKEBootstrap ${ NS }/${ MACHINE }","status":403}`);
  });
});
