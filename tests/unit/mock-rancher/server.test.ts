import { request as httpRequest } from 'http';
import { connect } from 'net';
import { gunzipSync } from 'zlib';
import WebSocket from 'ws';
import { GHOST_MACHINE } from '../../../scenarios/catalog';
import { MockRancher, startMockRancher } from '../../../mock-rancher/server';

const NS = 'fleet-default';
const MACHINES = `/v1/cluster.x-k8s.io.machines/${ NS }`;
const GHOST_VIEW = `/apis/cluster.x-k8s.io/v1beta1/namespaces/${ NS }/machines/${ GHOST_MACHINE }`;
const DOWNSTREAM = 'c-m-4qj7x2vd';

interface Answer { status: number, body: any, headers: Record<string, string | string[] | undefined> }

let mock: MockRancher;

function call(method: string, path: string, opts: { user?: string, body?: unknown, contentType?: string, cookie?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    const req = httpRequest(`${ mock.url }${ path }`, {
      method,
      headers: {
        ...(opts.user ? { 'x-mock-user': opts.user } : {}),
        ...(opts.cookie ? { cookie: opts.cookie } : {}),
        ...(body ? { 'content-type': opts.contentType || 'application/json', 'content-length': String(Buffer.byteLength(body)) } : {}),
      },
    }, (res) => {
      let text = '';

      res.on('data', (chunk) => {
        text += chunk;
      });
      res.on('end', () => resolve({
        status: res.statusCode || 0, body: text ? JSON.parse(text) : undefined, headers: res.headers
      }));
    });

    req.on('error', reject);
    req.end(body);
  });
}

async function ghost(): Promise<any> {
  return (await call('GET', `${ MACHINES }/${ GHOST_MACHINE }`)).body;
}

beforeAll(async() => {
  mock = await startMockRancher({ scenarios: ['ghost-etcd', 'healthy'], logRequests: 'none' });
});

afterAll(() => mock.close());

beforeEach(() => mock.reset());

describe('what the dashboard reads at start', () => {
  it('answers the current user, principals, settings and schemas, including Norman\'s clusterregistrationtoken', async() => {
    const me = await call('GET', '/v3/users?me=true');

    expect(me.status).toBe(200);
    expect(me.headers['x-api-cattle-auth']).toBe('true');
    expect(me.body.data).toHaveLength(1);
    expect(me.body.data[0]).toMatchObject({ username: 'admin', me: true });
    expect((await call('GET', '/v3/principals')).body.data[0]).toMatchObject({ me: true, provider: 'local' });
    const firstLogin = (await call('GET', '/v1/management.cattle.io.settings/first-login')).body;

    expect(firstLogin.value).toBe('false');
    const norman = (await call('GET', '/v3/schemas')).body.data.map((s: any) => s.id.toLowerCase());

    expect(norman).toContain('clusterregistrationtoken');
    const machine = (await call('GET', '/v1/schemas/cluster.x-k8s.io.machine')).body;

    expect(machine).toMatchObject({
      type:       'schema',
      links:      { collection: expect.stringMatching(/\/v1\/cluster\.x-k8s\.io\.machines$/) },
      attributes: {
        group: 'cluster.x-k8s.io', namespaced: true, resource: 'machines'
      }
    });
  });

  it('serves Norman registration tokens flat, by cluster id', async() => {
    const tokens = (await call('GET', `/v3/clusterregistrationtokens?clusterId=${ DOWNSTREAM }`)).body.data;

    expect(tokens).toHaveLength(1);
    expect(tokens[0]).toMatchObject({ clusterId: DOWNSTREAM, nodeCommand: expect.stringContaining('system-agent-install.sh') });
    expect((await call('GET', '/v3/clusterregistrationtokens?clusterId=c-m-nope')).body.data).toHaveLength(0);
  });

  it.each([['read-only'], ['fleet-member']])('gives %s, who may not change the cluster, no registration token, as Rancher does', async(user) => {
    const listed = await call('GET', `/v3/clusterregistrationtokens?clusterId=${ DOWNSTREAM }`, { user });
    const admin = (await call('GET', `/v3/clusterregistrationtokens?clusterId=${ DOWNSTREAM }`)).body.data[0];

    // A collection holds only what the user may read: none, and nothing to create.
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([]);
    expect(listed.body.createTypes).toEqual({});
    expect((await call('GET', `/v3/clusterregistrationtokens/${ encodeURIComponent(admin.id) }`)).status).toBe(200);
    expect((await call('GET', `/v3/clusterregistrationtokens/${ encodeURIComponent(admin.id) }`, { user })).status).toBe(403);
    expect((await call('POST', '/v3/clusterregistrationtokens', { user, body: { clusterId: DOWNSTREAM } })).status).toBe(403);
    expect(JSON.stringify(listed.body)).not.toContain(admin.token);
  });

  it('serves downstream Nodes under /k8s/clusters/<id>/v1 with links that name the cluster', async() => {
    const nodes = (await call('GET', `/k8s/clusters/${ DOWNSTREAM }/v1/nodes`)).body;

    expect(nodes.data.length).toBeGreaterThan(10);
    expect(nodes.data[0].links.self).toContain(`/k8s/clusters/${ DOWNSTREAM }/v1/nodes/`);
    expect((await call('GET', '/k8s/clusters/c-m-nope/v1/nodes')).status).toBe(404);
  });

  it('compresses an answer with gzip when the client accepts it, as Rancher does, and counts both sizes', async() => {
    mock.traffic.take();
    const raw = await new Promise<{ encoding?: string, bytes: Buffer }>((resolve, reject) => {
      httpRequest(`${ mock.url }${ MACHINES }`, { headers: { 'accept-encoding': 'gzip, deflate, br' } }, (res) => {
        const chunks: Buffer[] = [];

        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ encoding: res.headers['content-encoding'], bytes: Buffer.concat(chunks) }));
      }).on('error', reject).end();
    });
    const plain = await call('GET', MACHINES);

    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(raw.encoding).toBe('gzip');
    const text = gunzipSync(raw.bytes);

    expect(JSON.parse(text.toString('utf8'))).toStrictEqual(plain.body);
    const [zipped, unzipped] = mock.traffic.take().filter((e) => e.path === MACHINES);

    expect(zipped).toStrictEqual({
      kind: 'http', path: MACHINES, bytes: text.length, sentBytes: raw.bytes.length
    });
    expect(zipped.sentBytes).toBeLessThan(zipped.bytes / 2);
    expect(unzipped).toStrictEqual({
      kind: 'http', path: MACHINES, bytes: text.length, sentBytes: text.length
    });
  });

  it('never answers a compressed list from before a write', async() => {
    const gzipped = () => new Promise<any>((resolve, reject) => {
      httpRequest(`${ mock.url }${ MACHINES }/${ GHOST_MACHINE }`, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
        const chunks: Buffer[] = [];

        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve(JSON.parse(gunzipSync(Buffer.concat(chunks)).toString('utf8'))));
      }).on('error', reject).end();
    });
    const before = await gzipped();

    expect(await gzipped()).toStrictEqual(before);
    const patched = await call('PATCH', GHOST_VIEW, { contentType: 'application/merge-patch+json', body: { metadata: { labels: { compressed: 'after-write' } } } });

    expect(patched.status).toBe(200);
    const after = await gzipped();

    expect(after.metadata.labels.compressed).toBe('after-write');
    expect(after.metadata.resourceVersion).not.toBe(before.metadata.resourceVersion);
  });
});

describe('Steve list semantics over HTTP', () => {
  it('without the SQL cache, filters by label selector in a namespace and follows pagination.next to the end', async() => {
    await mock.close();
    mock = await startMockRancher({
      scenarios: ['ghost-etcd', 'healthy'], logRequests: 'none', sqlCache: false
    });
    const selector = encodeURIComponent('cluster.x-k8s.io/cluster-name=dev-k3s,rke.cattle.io/etcd-role=true');
    let url: string | undefined = `${ MACHINES }?labelSelector=${ selector }&limit=2`;
    const seen: string[] = [];

    while (url) {
      const page: Answer = await call('GET', url);

      expect(page.status).toBe(200);
      seen.push(...page.body.data.map((m: any) => m.id));
      url = page.body.pagination?.next ? new URL(page.body.pagination.next).pathname + new URL(page.body.pagination.next).search : undefined;
    }
    expect(seen).toHaveLength(4);
    expect(new Set(seen).size).toBe(4);
    expect(seen).toContain(`${ NS }/${ GHOST_MACHINE }`);
    await mock.close();
    mock = await startMockRancher({ scenarios: ['ghost-etcd', 'healthy'], logRequests: 'none' });
  });

  it('keeps only included paths of plan secrets and drops excluded ones', async() => {
    const q = 'filter=_type=rke.cattle.io/machine-plan&include=metadata&include=data.failure-count&exclude=data.plan&exclude=metadata.managedFields';
    const secrets = (await call('GET', `/v1/secrets/${ NS }?${ q }`)).body.data;

    expect(secrets.length).toBeGreaterThan(0);
    for (const s of secrets) {
      expect(Object.keys(s.data || {}).filter((k) => k !== 'failure-count')).toStrictEqual([]);
      expect(s.metadata.name).toMatch(/-machine-plan$/);
    }
    expect(JSON.stringify(secrets)).not.toContain('SECRET-VALUE');
  });

  it('lists an object as it is after a write, not as an earlier list served it', async() => {
    const listed = async() => (await call('GET', `${ MACHINES }?exclude=metadata.managedFields`)).body.data.find((m: any) => m.id === `${ NS }/${ GHOST_MACHINE }`);
    const before = await listed();

    expect(before.metadata.labels.team).toBeUndefined();
    const res = await call('PATCH', GHOST_VIEW, { contentType: 'application/merge-patch+json', body: { metadata: { labels: { team: 'blue' } } } });

    expect(res.status).toBe(200);
    const after = await listed();

    expect(after.metadata.labels.team).toBe('blue');
    expect(Number(after.metadata.resourceVersion)).toBeGreaterThan(Number(before.metadata.resourceVersion));
    // The ghost machine is being deleted: without its finalizers it is gone.
    const gone = await call('POST', '/mock/objects', {
      user: 'admin',
      body: {
        cluster: 'local', type: 'cluster.x-k8s.io.machine', namespace: NS, name: GHOST_MACHINE, mergePatch: { metadata: { finalizers: null } }
      }
    });

    expect(gone.status).toBe(200);
    expect(await listed()).toBeUndefined();
  });

  it('shapes a listed object by each request\'s own include, exclude and user', async() => {
    const ghostIn = (body: any) => body.data.find((m: any) => m.id === `${ NS }/${ GHOST_MACHINE }`);
    const full = ghostIn((await call('GET', MACHINES)).body);
    const trimmed = ghostIn((await call('GET', `${ MACHINES }?exclude=status&exclude=metadata.fields`)).body);
    const asReader = ghostIn((await call('GET', MACHINES, { user: 'read-only' })).body);
    const again = ghostIn((await call('GET', MACHINES)).body);

    expect(full.status).toBeDefined();
    expect(full.metadata.fields).toBeDefined();
    expect(trimmed.status).toBeUndefined();
    expect(trimmed.metadata.fields).toBeUndefined();
    expect(trimmed.metadata.name).toBe(GHOST_MACHINE);
    expect(full.links.update).toBeDefined();
    expect(asReader.links.update).toBeUndefined();
    expect(again).toStrictEqual(full);
  });
});

/** Steve's messages on one subscription, pings left out, until `count` arrived or a moment passed. */
function subscribe(message: Record<string, unknown>, count: number): Promise<any[]> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${ mock.url.replace(/^http/, 'ws') }/v1/subscribe`);
    const got: any[] = [];
    const done = () => {
      clearTimeout(timer);
      socket.close();
      resolve(got);
    };
    const timer = setTimeout(done, 500);

    socket.on('open', () => socket.send(JSON.stringify(message)));
    socket.on('message', (data) => {
      const msg = JSON.parse(data.toString());

      if (msg.name !== 'ping') {
        got.push(msg);
      }
      if (got.length >= count) {
        done();
      }
    });
    socket.on('error', reject);
  });
}

describe('Steve\'s watch over the websocket', () => {
  const machines = {
    resourceType: 'cluster.x-k8s.io.machine', namespace: NS, mode: 'resource.changes'
  };

  it('starts a watch from a list\'s revision: what was written since comes at once, nothing when nothing was', async() => {
    const before = (await call('GET', MACHINES)).body.revision;
    const info = mock.store.scope('local')?.types.fromSteveName('cluster.x-k8s.io.machine');

    expect(before).toMatch(/^\d+$/);
    mock.store.touch('local', info!, NS, GHOST_MACHINE);
    const after = (await call('GET', MACHINES)).body.revision;
    const missed = await subscribe({ ...machines, resourceVersion: before }, 2);

    expect(missed.map((m) => m.name)).toEqual(['resource.start', 'resource.changes']);
    expect(Number(missed[1].data.revision)).toBeGreaterThan(Number(before));
    expect((await subscribe({ ...machines, resourceVersion: after }, 2)).map((m) => m.name)).toEqual(['resource.start']);
  });

  it('refuses a revision older than the writes it keeps, as Steve does: started, an error, stopped', async() => {
    const refused = await subscribe({ ...machines, resourceVersion: '1' }, 3);

    expect(refused.map((m) => m.name)).toEqual(['resource.start', 'resource.error', 'resource.stop']);
    expect(refused[1].data.error).toBe('resourceversion too old');
  });
});

describe('writes behave like the Kubernetes API server', () => {
  it('answers 422 with a Status when a JSON patch test fails, and changes nothing', async() => {
    const before = await ghost();
    const res = await call('PATCH', GHOST_VIEW, {
      contentType: 'application/json-patch+json',
      body:        [{
        op: 'test', path: '/metadata/resourceVersion', value: '1'
      }, { op: 'remove', path: '/metadata/finalizers' }],
    });

    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      kind: 'Status', status: 'Failure', code: 422
    });
    expect((await ghost()).metadata).toMatchObject({ resourceVersion: before.metadata.resourceVersion, finalizers: before.metadata.finalizers });
  });

  it('deletes a machine being deleted once its last finalizer is removed', async() => {
    const before = await ghost();

    expect(before.metadata.deletionTimestamp).toBeTruthy();
    const res = await call('PATCH', GHOST_VIEW, {
      contentType: 'application/json-patch+json',
      body:        [
        {
          op: 'test', path: '/metadata/resourceVersion', value: before.metadata.resourceVersion
        },
        {
          op: 'test', path: '/metadata/finalizers', value: before.metadata.finalizers
        },
        { op: 'remove', path: '/metadata/finalizers' },
      ],
    });

    expect(res.status).toBe(200);
    expect((await call('GET', `${ MACHINES }/${ GHOST_MACHINE }`)).status).toBe(404);
  });

  it('refuses a PUT with a stale resourceVersion (409) and bumps the version on every write', async() => {
    const current = await ghost();
    const annotated = { ...current, metadata: { ...current.metadata, annotations: { ...current.metadata.annotations, 'example.com/note': 'kept' } } };
    const ok = await call('PUT', `${ MACHINES }/${ GHOST_MACHINE }`, { body: annotated });

    expect(ok.status).toBe(200);
    expect(Number(ok.body.metadata.resourceVersion)).toBeGreaterThan(Number(current.metadata.resourceVersion));
    expect((await ghost()).metadata.annotations['example.com/note']).toBe('kept');
    const stale = await call('PUT', `${ MACHINES }/${ GHOST_MACHINE }`, { body: annotated });

    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'Conflict' });
  });

  it('DELETE of an object with finalizers only sets its deletionTimestamp', async() => {
    const list = (await call('GET', `${ MACHINES }?labelSelector=${ encodeURIComponent('cluster.x-k8s.io/cluster-name=demo-rke2') }`)).body.data;
    const target = list.find((m: any) => !m.metadata.deletionTimestamp && m.metadata.finalizers?.length);
    const res = await call('DELETE', `${ MACHINES }/${ target.metadata.name }`);

    expect(res.status).toBe(200);
    const after = (await call('GET', `${ MACHINES }/${ target.metadata.name }`)).body;

    expect(after.metadata.deletionTimestamp).toBeTruthy();
    expect(after.metadata.finalizers).toStrictEqual(target.metadata.finalizers);
    expect(after.status.phase).toBe('Deleting');
  });

  it('checks a DELETE\'s preconditions through the Kubernetes path: another uid or resourceVersion is a conflict', async() => {
    const list = (await call('GET', `${ MACHINES }?labelSelector=${ encodeURIComponent('cluster.x-k8s.io/cluster-name=demo-rke2') }`)).body.data;
    const target = list.find((m: any) => !m.metadata.deletionTimestamp && m.metadata.finalizers?.length);
    const path = `/k8s/clusters/local/apis/cluster.x-k8s.io/v1beta1/namespaces/${ NS }/machines/${ target.metadata.name }`;
    const options = (uid: string, resourceVersion: string) => ({
      body: {
        apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { uid, resourceVersion }
      }
    });

    const first = await call('DELETE', path, options('another-uid', target.metadata.resourceVersion));

    expect([first.status, first.body?.message]).toEqual([409, expect.any(String)]);
    expect((await call('DELETE', path, options(target.metadata.uid, '1'))).status).toBe(409);
    expect((await call('GET', `${ MACHINES }/${ target.metadata.name }`)).body.metadata.deletionTimestamp).toBeFalsy();
    expect((await call('DELETE', path, options(target.metadata.uid, target.metadata.resourceVersion))).status).toBe(200);
    expect((await call('GET', `${ MACHINES }/${ target.metadata.name }`)).body.metadata.deletionTimestamp).toBeTruthy();
  });

  it('takes an Event created through the Kubernetes path and lists it through Steve', async() => {
    const event = {
      apiVersion:     'v1',
      kind:           'Event',
      metadata:       { name: `${ GHOST_MACHINE }.nh1`, namespace: NS },
      involvedObject: {
        kind: 'Machine', name: GHOST_MACHINE, namespace: NS
      },
      reason:  'NodeHealthDeletedMachine',
      message: 'admin deleted the machine from Node Health',
      type:    'Normal'
    };

    expect((await call('POST', `/k8s/clusters/local/api/v1/namespaces/${ NS }/events`, { body: event })).status).toBe(201);
    const listed = (await call('GET', `/v1/events/${ NS }`)).body.data;

    expect(listed.map((e: any) => e.reason)).toContain('NodeHealthDeletedMachine');
  });
});

describe('users', () => {
  it('gives the read-only user no write links and 403 on writes', async() => {
    const asReader = (await call('GET', `${ MACHINES }/${ GHOST_MACHINE }`, { user: 'read-only' })).body;

    expect(asReader.links.update).toBeUndefined();
    expect(asReader.links.remove).toBeUndefined();
    expect(asReader.links.self).toBeDefined();
    expect((await ghost()).links.update).toBeDefined();
    const res = await call('PATCH', GHOST_VIEW, {
      user: 'read-only', contentType: 'application/merge-patch+json', body: { metadata: { finalizers: null } }
    });

    expect(res.status).toBe(403);
    expect((await ghost()).metadata.finalizers?.length).toBeGreaterThan(0);
  });

  it('hides the secret schema from the no-secrets user: Steve answers 404 for secret lists and gets', async() => {
    expect((await call('GET', `/v1/secrets/${ NS }`, { user: 'no-secrets' })).status).toBe(404);
    expect((await call('GET', `/v1/secrets/${ NS }/${ GHOST_MACHINE }-machine-plan`, { user: 'no-secrets' })).status).toBe(404);
    expect((await call('GET', `${ MACHINES }/${ GHOST_MACHINE }`, { user: 'no-secrets' })).status).toBe(200);
    const schemas = (await call('GET', '/v1/schemas', { user: 'no-secrets' })).body.data.map((s: any) => s.id);

    expect(schemas).not.toContain('secret');
    expect(schemas).toContain('cluster.x-k8s.io.machine');
  });

  it('logs in from the login form with a cookie and answers 401 after logging out', async() => {
    const login = await call('POST', '/v1-public/login', { body: { username: 'read-only', password: 'anything' } });

    expect(login.status).toBe(200);
    expect(String(login.headers['set-cookie'])).toContain('R_MOCK_USER=read-only');
    expect((await call('GET', '/v3/users?me=true', { cookie: 'R_MOCK_USER=read-only' })).body.data[0].username).toBe('read-only');
    expect((await call('GET', '/v3/users?me=true', { cookie: 'R_MOCK_USER=logged-out' })).status).toBe(401);
    expect((await call('POST', '/v1-public/login', { body: { username: 'mallory' } })).status).toBe(401);
  });

  it('answers settings, and nothing else, before logging in (the login page reads them)', async() => {
    const settings = await call('GET', '/v1/management.cattle.io.settings', { cookie: 'R_MOCK_USER=logged-out' });

    expect(settings.status).toBe(200);
    expect(settings.headers['x-api-cattle-auth']).toBe('false');
    expect((await call('GET', '/v3/settings/first-login', { cookie: 'R_MOCK_USER=logged-out' })).body.value).toBe('false');
    expect((await call('GET', MACHINES, { cookie: 'R_MOCK_USER=logged-out' })).status).toBe(401);
    expect((await call('PUT', '/v1/management.cattle.io.settings/ui-pl', { cookie: 'R_MOCK_USER=logged-out', body: {} })).status).toBe(401);
  });
});

describe('fault injection and the concurrency hook', () => {
  it('fails the next matching request with the injected status, once', async() => {
    await call('POST', '/mock/faults', { body: { match: { method: 'GET', type: 'cluster.x-k8s.io.machine' }, status: 503 } });
    expect((await call('GET', MACHINES)).status).toBe(503);
    expect((await call('GET', MACHINES)).status).toBe(200);
  });

  it('moves an object on before a write when asked, so a guarded patch fails', async() => {
    const before = await ghost();

    await call('POST', '/mock/faults', { body: { match: { method: 'PATCH', name: GHOST_MACHINE }, concurrent: { bump: true } } });
    const res = await call('PATCH', GHOST_VIEW, {
      contentType: 'application/json-patch+json',
      body:        [{
        op: 'test', path: '/metadata/resourceVersion', value: before.metadata.resourceVersion
      }, { op: 'remove', path: '/metadata/finalizers' }],
    });

    expect(res.status).toBe(422);
    expect((await ghost()).metadata.finalizers).toStrictEqual(before.metadata.finalizers);
  });

  it('lets a test change an object as someone else would, and only for the admin', async() => {
    const hook = {
      cluster: 'local', type: 'cluster.x-k8s.io.machine', namespace: NS, name: GHOST_MACHINE, mergePatch: { metadata: { annotations: { touched: 'yes' } } }
    };

    expect((await call('POST', '/mock/objects', { user: 'read-only', body: hook })).status).toBe(403);
    const changed = await call('POST', '/mock/objects', { body: hook });

    expect(changed.status).toBe(200);
    expect((await ghost()).metadata.annotations.touched).toBe('yes');
  });
});

/** One request with exactly these headers (no defaults), body as given. */
function rawCall(method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number, text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${ mock.url }${ path }`, { method, headers }, (res) => {
      let text = '';

      res.on('data', (chunk) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode || 0, text }));
    });

    req.on('error', reject);
    req.end(body);
  });
}

/** The status line the server answers a websocket upgrade with. */
function upgradeStatus(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(mock.port, '127.0.0.1', () => {
      socket.write(`GET ${ path } HTTP/1.1\r\nHost: 127.0.0.1:${ mock.port }\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n');
    });
    let text = '';

    socket.on('data', (chunk) => {
      text += chunk;
    });
    socket.setTimeout(3000, () => socket.destroy());
    socket.on('close', () => resolve(text.split('\r\n')[0]));
    socket.on('error', reject);
  });
}

describe('hostile requests', () => {
  const deleteGhost = JSON.stringify({
    cluster: 'local', type: 'cluster.x-k8s.io.machine', namespace: NS, name: GHOST_MACHINE, delete: true
  });

  it('answers a malformed percent escape with 400, as an upgrade and as a request, and keeps serving', async() => {
    expect(await upgradeStatus('/v1/subscribe%E0%A4%A')).toBe('HTTP/1.1 400 Bad Request');
    expect(await upgradeStatus('/k8s/clusters/%zz/v1/subscribe')).toBe('HTTP/1.1 400 Bad Request');
    expect((await call('GET', `${ MACHINES }/%E0%A4%A`)).status).toBe(400);
    expect((await call('GET', MACHINES, { cookie: 'other=%zz' })).status).toBe(200);
    expect((await call('GET', MACHINES, { cookie: 'R_MOCK_USER=%E0%A4%A' })).status).toBe(401);
    expect((await call('GET', `${ MACHINES }/${ GHOST_MACHINE }`)).status).toBe(200);
  });

  it('refuses a cross-site simple request (text/plain POST) to the control API', async() => {
    const res = await rawCall('POST', '/mock/objects', { origin: 'https://evil.example', 'content-type': 'text/plain' }, deleteGhost);

    expect(res.status).toBe(403);
    expect(res.text).toContain('cross-origin request refused');
    expect((await call('GET', `${ MACHINES }/${ GHOST_MACHINE }`)).status).toBe(200);
  });

  it('refuses a POST without a JSON type or a header a simple request cannot send, even with no Origin', async() => {
    expect((await rawCall('POST', '/mock/objects', { 'content-type': 'text/plain' }, deleteGhost)).status).toBe(415);
    expect((await rawCall('POST', '/mock/reset', {})).status).toBe(415);
    expect((await rawCall('POST', '/mock/objects', { 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' }, deleteGhost)).status).toBe(403);
    expect((await call('GET', `${ MACHINES }/${ GHOST_MACHINE }`)).status).toBe(200);
  });

  it('refuses cross-origin writes to the API and reads of the control API', async() => {
    const patch = JSON.stringify([{ op: 'remove', path: '/metadata/finalizers' }]);
    const res = await rawCall('PATCH', GHOST_VIEW, { origin: `http://localhost:${ mock.port }`, 'content-type': 'application/json-patch+json' }, patch);

    expect(res.status).toBe(403);
    expect((await rawCall('GET', '/mock', { origin: 'https://evil.example' })).status).toBe(403);
    expect((await ghost()).metadata.finalizers.length).toBeGreaterThan(0);
  });

  it('accepts the same origin, directly and through the dev server proxy (which passes the browser host on)', async() => {
    const touch = JSON.stringify({
      cluster: 'local', type: 'cluster.x-k8s.io.machine', namespace: NS, name: GHOST_MACHINE
    });

    expect((await rawCall('POST', '/mock/objects', { origin: `http://127.0.0.1:${ mock.port }`, 'content-type': 'application/json' }, touch)).status).toBe(200);
    expect((await rawCall('POST', '/mock/objects', {
      origin: 'https://localhost:8005', 'x-api-host': 'localhost:8005', 'x-forwarded-proto': 'https', 'sec-fetch-site': 'same-origin', 'content-type': 'application/json'
    }, touch)).status).toBe(200);
    expect((await rawCall('POST', '/mock/objects', { 'x-mock-user': 'admin' }, touch)).status).toBe(200);
  });
});
