import {
  clearActionLog, getActionLog, loadRegistrationToken, openEtcdForceRemove, openRegistrationCommand, openRemoveFinalizers,
  currentUserName, recordRegistrationCopy, releaseEtcdMember, reloadObject, removeMachineFinalizers
  , registrationAccess
} from '@pkg/node-health/actions';
import type { ActionContext, RegistrationAccess, StoreLike } from '@pkg/node-health/actions';
import {
  MACHINE, NS, steveBootstrap, steveMachine, stuckRecord
} from './fixtures';

const TOKEN = 'x7b9kq2m4n8p6r5t3v1w0y9z8a7b6c5d4e3f2g1h0j9k8l7m6n5p4q';
const SERVER = 'https://rancher.example.com';

function rejection(status: number, body: Record<string, unknown> = { message: 'nope' }): Record<string, unknown> {
  return Object.defineProperty({ ...body }, '_status', { value: status });
}

function fakeStore(answer: (type: string, payload: any) => unknown, getters: Record<string, any> = {}) {
  const calls: { type: string; payload: any }[] = [];
  const store: StoreLike = {
    getters,
    dispatch: jest.fn(async(type: string, payload?: any) => {
      calls.push({ type, payload });

      return answer(type, payload);
    }),
  };

  return { store, calls };
}

function context(): ActionContext & { onDone: jest.Mock } {
  return {
    clusterId: 'c-m-test', user: 'admin', onDone: jest.fn()
  };
}

function normanToken(overrides: Record<string, unknown> = {}) {
  return {
    type:                       'clusterRegistrationToken',
    id:                         'c-m-test:default-token',
    name:                       'default-token',
    clusterId:                  'c-m-test',
    token:                      TOKEN,
    nodeCommand:                `curl -fL ${ SERVER }/system-agent-install.sh | sudo  sh -s - --server ${ SERVER } --label 'cattle.io/os=linux' --token ${ TOKEN } --ca-checksum ${ 'a'.repeat(64) }`,
    insecureNodeCommand:        `curl --insecure -fL ${ SERVER }/system-agent-install.sh | sudo  sh -s - --server ${ SERVER } --label 'cattle.io/os=linux' --token ${ TOKEN }`,
    windowsNodeCommand:         `curl.exe -fL ${ SERVER }/wins-agent-install.ps1 -o install.ps1; Set-ExecutionPolicy Bypass -Scope Process -Force; ./install.ps1 -Server ${ SERVER } -Label 'cattle.io/os=windows' -Token ${ TOKEN } -Worker -CaChecksum ${ 'a'.repeat(64) }`,
    insecureWindowsNodeCommand: '',
    ...overrides,
  };
}

beforeEach(() => clearActionLog('c-m-test'));

describe('removeMachineFinalizers', () => {
  it('sends the guarded JSON Patch to the machine\'s view link through management/request', async() => {
    const { store, calls } = fakeStore(() => ({ metadata: { name: MACHINE } }));
    const ctx = context();
    const outcome = await removeMachineFinalizers(store, steveMachine(), ctx);

    expect(calls[0]).toEqual({
      type:    'management/request',
      payload: {
        url:                  `${ SERVER }/apis/cluster.x-k8s.io/v1beta1/namespaces/${ NS }/machines/${ MACHINE }`,
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
      },
    });
    expect(outcome.result).toBe('succeeded');
    expect(ctx.onDone).toHaveBeenCalledTimes(1);
    expect(getActionLog('c-m-test')).toEqual([expect.objectContaining({
      user: 'admin', action: 'remove-finalizers', target: `Machine ${ NS }/${ MACHINE }`, result: 'succeeded', detail: 'removed the finalizers machine.cluster.x-k8s.io; event recorded'
    })]);
  });

  it('leaves an audit Event on the machine it changed: who, what, why, through the Kubernetes API', async() => {
    const { store, calls } = fakeStore(() => ({ metadata: { name: MACHINE } }));

    await removeMachineFinalizers(store, steveMachine(), { ...context(), why: 'agent-never-checked-in' });

    expect(calls).toHaveLength(2);
    expect(calls[1].payload).toMatchObject({
      url:    `/k8s/clusters/local/api/v1/namespaces/${ NS }/events`,
      method: 'POST',
      data:   {
        apiVersion:     'v1',
        kind:           'Event',
        metadata:       { namespace: NS },
        involvedObject: {
          apiVersion: 'cluster.x-k8s.io/v1beta1', kind: 'Machine', name: MACHINE, namespace: NS, uid: '5f0e8a52-1111-4c4c-9d9d-000000000001'
        },
        reason:  'NodeHealthRemovedFinalizers',
        type:    'Warning',
        message: 'admin removed the finalizers machine.cluster.x-k8s.io from Node Health (diagnosis: agent-never-checked-in)',
        count:   1,
      },
    });
  });

  it('keeps the write when the user may not create Events, and the log says there is none', async() => {
    const { store } = fakeStore((type, payload) => (payload.method === 'POST' ? Promise.reject(rejection(403)) : { metadata: { name: MACHINE } }));
    const outcome = await removeMachineFinalizers(store, steveMachine(), context());

    expect(outcome.result).toBe('succeeded');
    expect(getActionLog('c-m-test')[0]).toMatchObject({ result: 'succeeded', detail: 'removed the finalizers machine.cluster.x-k8s.io; no event (may not create events)' });
  });

  it('sends no Event for a write that failed', async() => {
    const { store, calls } = fakeStore(() => Promise.reject(rejection(409)));

    await removeMachineFinalizers(store, steveMachine(), context());

    expect(calls.map((c) => c.payload.method)).toEqual(['PATCH']);
  });

  it('counts a 404 as done and logs it as already gone', async() => {
    const { store } = fakeStore(() => Promise.reject(rejection(404)));
    const ctx = context();
    const outcome = await removeMachineFinalizers(store, steveMachine(), ctx);

    expect(outcome).toMatchObject({ result: 'already-gone', failure: { kind: 'gone', countsAsDone: true } });
    expect(ctx.onDone).toHaveBeenCalledTimes(1);
    expect(getActionLog('c-m-test')[0]).toMatchObject({ result: 'already-gone', detail: 'gone (HTTP 404)' });
  });

  it('logs a conflict and leaves the tab alone', async() => {
    const { store } = fakeStore(() => Promise.reject(rejection(422, { message: 'the server rejected our request due to an error in our request' })));
    const ctx = context();
    const outcome = await removeMachineFinalizers(store, steveMachine(), ctx);

    expect(outcome.result).toBe('conflict');
    expect(ctx.onDone).not.toHaveBeenCalled();
    expect(getActionLog('c-m-test')[0]).toMatchObject({ result: 'conflict', detail: 'conflict (HTTP 422)' });
  });
});

describe('releaseEtcdMember', () => {
  it('annotates the RKEBootstrap through its view link', async() => {
    const { store, calls } = fakeStore(() => ({}));
    const ctx = context();

    await releaseEtcdMember(store, steveBootstrap(), ctx);
    expect(calls[0].payload).toEqual({
      url:                  `${ SERVER }/apis/rke.cattle.io/v1/namespaces/${ NS }/rkebootstraps/${ MACHINE }`,
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
    });
    expect(getActionLog('c-m-test')[0]).toMatchObject({
      action: 'etcd-force-remove', target: `RKEBootstrap ${ NS }/${ MACHINE }`, result: 'succeeded'
    });
  });
});

describe('reloadObject', () => {
  it('reads the self link', async() => {
    const fresh = steveMachine({ resourceVersion: '9000' });
    const { store, calls } = fakeStore(() => fresh);

    expect(await reloadObject(store, steveMachine())).toEqual({ state: 'found', object: fresh });
    expect(calls[0].payload).toEqual({
      url: `${ SERVER }/v1/cluster.x-k8s.io.machines/${ NS }/${ MACHINE }`, method: 'GET', redirectUnauthorized: false
    });
  });

  it('tells gone from failed', async() => {
    expect(await reloadObject(fakeStore(() => Promise.reject(rejection(404))).store, steveMachine())).toEqual({ state: 'gone' });
    expect(await reloadObject(fakeStore(() => Promise.reject(rejection(403))).store, steveMachine())).toMatchObject({ state: 'failed', failure: { kind: 'forbidden' } });
  });
});

const MAY: RegistrationAccess = { allowed: true };

describe('loadRegistrationToken', () => {
  it('asks Norman for the cluster\'s tokens and reads them with the shared reader', async() => {
    const { store, calls } = fakeStore(() => ({ type: 'collection', data: [normanToken()] }));
    const load = await loadRegistrationToken(store, 'c-m-test', MAY);

    expect(calls[0]).toEqual({
      type:    'management/request',
      payload: {
        url: '/v3/clusterregistrationtokens?clusterId=c-m-test', method: 'GET', redirectUnauthorized: false
      }
    });
    expect(load).toMatchObject({
      state: 'ready',
      token: {
        serverUrl: SERVER, token: TOKEN, caChecksum: 'a'.repeat(64), insecureAvailable: true, windowsAvailable: true
      }
    });
  });

  it('an empty list is "none", a 403 is "forbidden": never the same thing', async() => {
    expect(await loadRegistrationToken(fakeStore(() => ({ type: 'collection', data: [] })).store, 'c-m-test', MAY)).toEqual({ state: 'none' });
    expect(await loadRegistrationToken(fakeStore(() => Promise.reject(rejection(403))).store, 'c-m-test', MAY)).toMatchObject({ state: 'forbidden', failure: { status: 403 } });
  });

  it.each([['noPermission'], ['notLoaded']] as const)('sends no request for a user who may not be given the token (%s)', async(reason) => {
    const { store, calls } = fakeStore(() => ({ type: 'collection', data: [normanToken()] }));

    expect(await loadRegistrationToken(store, 'c-m-test', { allowed: false, reason })).toEqual({ state: 'notAllowed', reason });
    expect(calls).toEqual([]);
  });

  it('reports a token without a usable command, a server failure, and a cluster without id', async() => {
    expect(await loadRegistrationToken(fakeStore(() => ({ type: 'collection', data: [normanToken({ nodeCommand: '', insecureNodeCommand: '' })] })).store, 'c-m-test', MAY))
      .toMatchObject({ state: 'unusable', error: { code: 'nodeCommandMissing' } });
    expect(await loadRegistrationToken(fakeStore(() => Promise.reject(rejection(503))).store, 'c-m-test', MAY)).toMatchObject({ state: 'failed', failure: { kind: 'server' } });
    const { store, calls } = fakeStore(() => ({}));

    expect(await loadRegistrationToken(store, null, MAY)).toEqual({ state: 'noCluster' });
    expect(calls).toEqual([]);
  });
});

describe('recordRegistrationCopy', () => {
  it('logs the options that matter, never the command', () => {
    const kept = recordRegistrationCopy({ clusterId: 'c-m-test', user: 'admin' }, 'c-m-test', {
      os: 'windows', roles: ['etcd', 'worker'], nodeName: 'WIN-01', labels: ['a=b'], taints: [], insecure: true
    }, 'clipboard');

    expect(kept).toMatchObject({
      action: 'copy-registration-command', target: 'Cluster c-m-test', result: 'succeeded', detail: 'os=windows roles=worker node=win-01 insecure copied to the clipboard'
    });
  });
});

describe('openers', () => {
  it('open the finalizer dialog through the shell\'s modal with the record and context as resources', async() => {
    const { store, calls } = fakeStore(() => undefined);
    const record = stuckRecord();
    const ctx = context();

    await openRemoveFinalizers(store, record, ctx);
    await openEtcdForceRemove(store, record, ctx);
    expect(calls.map((c) => c.type)).toEqual(['management/promptModal', 'management/promptModal']);
    expect(calls[0].payload).toEqual({
      component: 'RemoveFinalizersDialog',
      resources: [{
        record, context: ctx, focus: 'finalizers'
      }],
      modalWidth: '760px',
      testId:     'node-health-remove-finalizers-modal'
    });
    expect(calls[1].payload.resources[0].focus).toBe('etcd');
  });

  it('open the registration dialog for an engine cluster or a provisioning model, naming the current user', async() => {
    const getters = {
      'auth/principalId': 'local://u-abc',
      'rancher/byId':     (type: string, id: string) => (type === 'principal' && id === 'local://u-abc' ? { loginName: 'jane', name: 'Jane Doe' } : null),
    };
    const { store, calls } = fakeStore(() => undefined, getters);
    const record = stuckRecord();

    const provisioning = {
      metadata: { name: 'prod', namespace: NS }, mgmtClusterId: 'c-m-prod', links: { self: '/v1/x', update: '/v1/x' }
    };

    await openRegistrationCommand(store, record.cluster ?? {}, record, undefined, record.objects.cluster);
    await openRegistrationCommand(store, provisioning, null, undefined, provisioning);
    expect(calls[0].payload).toMatchObject({ component: 'RegistrationCommandDialog', modalWidth: '820px' });
    expect(calls[0].payload.resources[0]).toEqual({
      cluster: {
        mgmtId: 'c-m-prod', name: 'prod', namespace: NS
      },
      record,
      context: { clusterId: 'c-m-prod', user: 'jane' },
      // The record's cluster was read without links: whether the user may is not known, so no token.
      access:  { allowed: false, reason: 'notLoaded' },
    });
    expect(calls[1].payload.resources[0]).toEqual({
      cluster: {
        mgmtId: 'c-m-prod', name: 'prod', namespace: NS
      },
      record:  null,
      context: { clusterId: 'c-m-prod', user: 'jane' },
      access:  { allowed: true },
    });
  });

  it('decides who may be given the token as Rancher does: by the provisioning cluster\'s update link', () => {
    const cluster = (links?: Record<string, string>) => ({ metadata: { name: 'prod', namespace: NS }, ...(links ? { links } : {}) });

    expect(registrationAccess(cluster({ self: '/v1/c', update: '/v1/c' }))).toEqual({ allowed: true });
    expect(registrationAccess(cluster({ self: '/v1/c' }))).toEqual({ allowed: false, reason: 'noPermission' });
    expect(registrationAccess(cluster({ self: '/v1/c', update: 'blocked' }))).toEqual({ allowed: false, reason: 'noPermission' });
    expect(registrationAccess(cluster())).toEqual({ allowed: false, reason: 'notLoaded' });
    expect(registrationAccess(null)).toEqual({ allowed: false, reason: 'notLoaded' });
  });

  it('names the user by whatever the store knows', () => {
    expect(currentUserName({ getters: { 'auth/principalId': 'github_user://1' }, dispatch: jest.fn() })).toBe('github_user://1');
    expect(currentUserName({ getters: { 'auth/v3User': { username: 'admin' } }, dispatch: jest.fn() })).toBe('admin');
    expect(currentUserName({ getters: {}, dispatch: jest.fn() })).toBe('unknown');
  });
});
