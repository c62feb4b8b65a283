/**
 * The embedded API answers lists as Steve does in each of its modes: with its SQL cache (feature ui-sql-cache, on
 * by default) and without; writes the collection envelope as rancher/apiserver does; and shows users with partial
 * access partial lists, as Steve does, with SelfSubjectAccessReview saying so.
 */
import { request as httpRequest } from 'http';
import { MockRancher, startMockRancher } from '../../../mock-rancher/server';

const NS = 'fleet-default';
const MACHINES = `/v1/cluster.x-k8s.io.machines/${ NS }`;
const DEV = 'dev-k3s';

interface Answer { status: number, body: any }

function call(mock: MockRancher, method: string, path: string, opts: { user?: string, body?: unknown } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    const req = httpRequest(`${ mock.url }${ path }`, {
      method,
      headers: { ...(opts.user ? { 'x-mock-user': opts.user } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    }, (res) => {
      let text = '';

      res.on('data', (chunk) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode || 0, body: text ? JSON.parse(text) : undefined }));
    });

    req.on('error', reject);
    req.end(body);
  });
}

const modes: [string, boolean][] = [['with the SQL cache', true], ['without the SQL cache', false]];
const servers = new Map<boolean, MockRancher>();

beforeAll(async() => {
  for (const [, sqlCache] of modes) {
    servers.set(sqlCache, await startMockRancher({
      scenarios: ['ghost-etcd', 'healthy'], logRequests: 'none', sqlCache
    }));
  }
});

afterAll(async() => {
  for (const mock of servers.values()) {
    await mock.close();
  }
});

const devLabel = encodeURIComponent(`cluster.x-k8s.io/cluster-name=${ DEV }`);
const devFilter = encodeURIComponent(`metadata.labels[cluster.x-k8s.io/cluster-name]=${ DEV }`);

describe.each(modes)('Steve %s', (_name, sqlCache) => {
  const mock = () => servers.get(sqlCache) as MockRancher;
  const clustersOf = (data: any[]) => new Set(data.map((m) => m.metadata.labels['cluster.x-k8s.io/cluster-name']));

  it('says which mode it is in through the ui-sql-cache feature, on by default as in Rancher 2.12 and later', async() => {
    const feature = (await call(mock(), 'GET', '/v1/management.cattle.io.features/ui-sql-cache')).body;

    expect(feature.status.default).toBe(true);
    expect(feature.spec.value ?? feature.status.default).toBe(sqlCache);
    expect(mock().cacheMode).toBe(sqlCache ? 'sql' : 'classic');
  });

  it(sqlCache ? 'ignores labelSelector, fieldSelector and limit' : 'honours labelSelector and limit', async() => {
    const all = (await call(mock(), 'GET', MACHINES)).body;
    const selected = (await call(mock(), 'GET', `${ MACHINES }?labelSelector=${ devLabel }&limit=3`)).body;

    expect(clustersOf(all.data)).toStrictEqual(new Set([DEV, 'demo-rke2']));
    if (sqlCache) {
      expect(selected.data).toHaveLength(all.data.length);
      expect(selected.pagination).toBeUndefined();
      expect(selected.continue).toBeUndefined();
    } else {
      expect(selected.data).toHaveLength(3);
      expect(clustersOf(selected.data)).toStrictEqual(new Set([DEV]));
      expect(selected.pagination).toStrictEqual({
        first: expect.stringContaining('limit=3'), next: expect.stringContaining('continue='), partial: true
      });
      expect(selected.continue).toEqual(expect.any(String));
    }
    expect(selected.count).toBe(sqlCache ? all.data.length : all.data.filter((m: any) => m.metadata.labels['cluster.x-k8s.io/cluster-name'] === DEV).length);
  });

  it(sqlCache ? 'matches filter on a label exactly' : 'matches filter as a substring, and does not know label brackets', async() => {
    const byLabel = (await call(mock(), 'GET', `${ MACHINES }?filter=${ devFilter }`));
    const partialName = (await call(mock(), 'GET', `${ MACHINES }?filter=metadata.name=custom-2d74`)).body;

    if (sqlCache) {
      expect(byLabel.status).toBe(200);
      expect(clustersOf(byLabel.body.data)).toStrictEqual(new Set([DEV]));
      expect(partialName.count).toBeUndefined();
      expect(partialName.data).toStrictEqual([]);
      expect((await call(mock(), 'GET', `${ MACHINES }?filter=metadata.name~custom-2d74`)).body.data).toHaveLength(1);
    } else {
      expect(partialName.data).toHaveLength(1);
    }
  });

  it('keeps secrets of another type out with filter=_type', async() => {
    const plans = (await call(mock(), 'GET', `/v1/secrets/${ NS }?filter=_type=rke.cattle.io/machine-plan`)).body.data;

    expect(plans.length).toBeGreaterThan(0);
    expect(new Set(plans.map((s: any) => s._type))).toStrictEqual(new Set(['rke.cattle.io/machine-plan']));
  });

  it('writes the envelope as rancher/apiserver does: no count of an empty list, relationships that may be null', async() => {
    const empty = (await call(mock(), 'GET', `${ MACHINES }?filter=metadata.name=no-such-machine`)).body;

    expect(empty).toStrictEqual({
      type: 'collection', links: { self: expect.any(String) }, createTypes: expect.any(Object), actions: {}, resourceType: 'cluster.x-k8s.io.machine', revision: expect.any(String), data: []
    });
    const one = (await call(mock(), 'GET', `${ MACHINES }?filter=metadata.name=custom-2d74d4c9a104`)).body;

    expect(one.count).toBe(1);
    expect(one.data[0].metadata.relationships).toBeNull();
  });

  it('pages with pagesize and page; only the SQL cache hands out a continue token, the offset of the next page', async() => {
    const page = (await call(mock(), 'GET', `${ MACHINES }?${ sqlCache ? `filter=${ devFilter }` : `labelSelector=${ devLabel }` }&pagesize=5&page=2`)).body;

    expect(page.data).toHaveLength(5);
    if (sqlCache) {
      expect(page.continue).toBe('10');
      expect(page.pagination).toStrictEqual({
        first: expect.any(String), next: expect.stringContaining('continue=10'), partial: true
      });
      expect(page.pages).toBeUndefined();
    } else {
      expect(page.pages).toBeGreaterThan(1);
      expect(page.pagination).toBeUndefined();
    }
  });
});

describe('the SQL cache', () => {
  it('refuses a filter or sort on a field it has no column for (422), as Steve does', async() => {
    const mock = servers.get(true) as MockRancher;
    const filter = await call(mock, 'GET', `${ MACHINES }?filter=spec.bootstrap.configRef.kind=RKEBootstrap`);

    expect(filter.status).toBe(422);
    expect(filter.body.message).toContain('column is invalid [spec.bootstrap.configRef.kind]');
    expect((await call(mock, 'GET', `${ MACHINES }?sort=status.phase`)).status).toBe(422);
    expect((await call(mock, 'GET', `${ MACHINES }?filter=spec.clusterName=${ DEV }`)).status).toBe(200);
  });

  it('answers the dashboard\'s own paginated request for the side bar\'s clusters (an OR of indexed fields)', async() => {
    const mock = servers.get(true) as MockRancher;
    const q = 'page=1&pagesize=100000&filter=status.clusterName=local,status.clusterName=c-m-4qj7x2vd&exclude=metadata.managedFields';
    const answer = await call(mock, 'GET', `/v1/provisioning.cattle.io.clusters?${ q }`);

    expect(answer.status).toBe(200);
    expect(answer.body.data.map((c: any) => c.metadata.name).sort()).toStrictEqual([DEV, 'local']);
  });
});

describe.each(modes)('partial permissions, %s', (_name, sqlCache) => {
  const mock = () => servers.get(sqlCache) as MockRancher;
  const review = (user: string, resource: string, group = '', namespace = NS) => call(mock(), 'POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
    user,
    body: {
      apiVersion: 'authorization.k8s.io/v1',
      kind:       'SelfSubjectAccessReview',
      spec:       {
        resourceAttributes: {
          namespace, verb: 'list', group, resource
        }
      }
    },
  });

  it('a user granted some plan secrets by name gets 200 with only those, and an access review that says the list is partial', async() => {
    const all = (await call(mock(), 'GET', `/v1/secrets/${ NS }?filter=_type=rke.cattle.io/machine-plan`)).body.data;
    const seen = await call(mock(), 'GET', `/v1/secrets/${ NS }?filter=_type=rke.cattle.io/machine-plan`, { user: 'fleet-member' });

    expect(seen.status).toBe(200);
    expect(seen.body.data.length).toBeGreaterThan(0);
    expect(seen.body.data.length).toBeLessThan(all.length);
    for (const s of seen.body.data) {
      expect(s.metadata.labels['rke.cattle.io/etcd-role'] === 'true' || s.metadata.labels['rke.cattle.io/control-plane-role'] === 'true').toBe(true);
    }
    const hidden = all.find((s: any) => !seen.body.data.some((x: any) => x.id === s.id));

    expect((await call(mock(), 'GET', `/v1/secrets/${ hidden.id }`, { user: 'fleet-member' })).status).toBe(403);
    expect((await review('fleet-member', 'secrets')).body.status.allowed).toBe(false);
    expect((await review('fleet-member', 'machines', 'cluster.x-k8s.io')).body.status.allowed).toBe(true);
    expect((await review('admin', 'secrets')).body.status.allowed).toBe(true);
  });

  it('a user who may not read a type at all does not see its schema: 404, not 403', async() => {
    const list = await call(mock(), 'GET', `/v1/secrets/${ NS }`, { user: 'no-secrets' });

    expect(list.status).toBe(404);
    expect((await review('no-secrets', 'secrets')).body.status.allowed).toBe(false);
  });
});
