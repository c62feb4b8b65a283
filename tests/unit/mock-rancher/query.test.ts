import {
  matchesFilters, matchesLabels, parseFilters, parseLabelSelector, parseListQuery, QueryError, runListQuery
} from '../../../mock-rancher/query';
import { applyJsonPatch, applyMergePatch, PatchError } from '../../../mock-rancher/json-patch';
import type { KubeObject } from '../../../scenarios/types';

function obj(name: string, labels: Record<string, string> = {}, extra: Record<string, unknown> = {}, namespace = 'fleet-default'): KubeObject {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta1',
    kind:       'Machine',
    metadata:   {
      name, namespace, uid: `uid-${ name }`, resourceVersion: '1', creationTimestamp: '2026-01-01T00:00:00Z', labels
    },
    ...extra,
  };
}

describe('label selectors', () => {
  const labels = { 'cluster.x-k8s.io/cluster-name': 'dev-k3s', 'rke.cattle.io/etcd-role': 'true' };
  const match = (selector: string, l: Record<string, string> = labels) => matchesLabels(l, parseLabelSelector(selector));

  it('matches equality, == and inequality', () => {
    expect(match('cluster.x-k8s.io/cluster-name=dev-k3s')).toBe(true);
    expect(match('cluster.x-k8s.io/cluster-name==dev-k3s')).toBe(true);
    expect(match('cluster.x-k8s.io/cluster-name=other')).toBe(false);
    expect(match('cluster.x-k8s.io/cluster-name!=other')).toBe(true);
    expect(match('cluster.x-k8s.io/cluster-name!=dev-k3s')).toBe(false);
  });

  it('treats != and notin as true for objects without the label, as Kubernetes does', () => {
    expect(match('rke.cattle.io/worker-role!=true')).toBe(true);
    expect(match('rke.cattle.io/worker-role notin (true)')).toBe(true);
    expect(match('rke.cattle.io/worker-role in (true)')).toBe(false);
  });

  it('matches in, notin, exists and does-not-exist, ANDed by commas outside parentheses', () => {
    expect(match('cluster.x-k8s.io/cluster-name in (prod,dev-k3s)')).toBe(true);
    expect(match('cluster.x-k8s.io/cluster-name in (prod,staging)')).toBe(false);
    expect(match('cluster.x-k8s.io/cluster-name notin (prod,dev-k3s)')).toBe(false);
    expect(match('rke.cattle.io/etcd-role')).toBe(true);
    expect(match('!rke.cattle.io/etcd-role')).toBe(false);
    expect(match('!rke.cattle.io/worker-role')).toBe(true);
    expect(match('cluster.x-k8s.io/cluster-name in (prod,dev-k3s),rke.cattle.io/etcd-role=true')).toBe(true);
    expect(match('cluster.x-k8s.io/cluster-name in (prod,dev-k3s),rke.cattle.io/etcd-role=false')).toBe(false);
  });

  it('rejects malformed selectors', () => {
    expect(() => parseLabelSelector('a in b')).toThrow(QueryError);
    expect(() => parseLabelSelector('bad key!=x y')).toThrow(QueryError);
    expect(() => parseLabelSelector('a=(x)')).toThrow(QueryError);
  });
});

describe('Steve filter', () => {
  const secret: KubeObject = {
    apiVersion: 'v1',
    kind:       'Secret',
    type:       'rke.cattle.io/machine-plan',
    metadata:   {
      name: 'custom-1-machine-plan', namespace: 'fleet-default', uid: 'u', resourceVersion: '1', creationTimestamp: '2026-01-01T00:00:00Z', labels: { 'rke.cattle.io/machine-name': 'custom-1' }
    }
  };

  it('matches the secret type under both `_type` and `type`, by substring, ORed within one parameter and ANDed across', () => {
    expect(matchesFilters(secret, parseFilters(['_type=rke.cattle.io/machine-plan']))).toBe(true);
    expect(matchesFilters(secret, parseFilters(['type=machine-plan']))).toBe(true);
    expect(matchesFilters(secret, parseFilters(['_type=kubernetes.io/tls']))).toBe(false);
    expect(matchesFilters(secret, parseFilters(['_type=kubernetes.io/tls,metadata.name=custom-1']))).toBe(true);
    expect(matchesFilters(secret, parseFilters(['_type=kubernetes.io/tls', 'metadata.name=custom-1']))).toBe(false);
    expect(matchesFilters(secret, parseFilters(['metadata.labels[rke.cattle.io/machine-name]=custom-1']))).toBe(true);
    expect(matchesFilters(secret, parseFilters(['metadata.name!=custom-1']))).toBe(false);
  });
});

describe('list queries and pagination', () => {
  const objects = Array.from({ length: 7 }, (_, i) => obj(`m-${ i }`, { role: i % 2 ? 'worker' : 'etcd' }));

  it('pages with limit and an opaque continue token until every match has been served once', () => {
    const q = parseListQuery(new URLSearchParams('labelSelector=role%3Dworker&limit=2'));
    const first = runListQuery(objects, q, '10');

    expect(first.items.map((o) => o.metadata.name)).toStrictEqual(['m-1', 'm-3']);
    expect(first.total).toBe(3);
    expect(first.continueToken).toBeTruthy();
    const second = runListQuery(objects, { ...q, continueToken: first.continueToken }, '10');

    expect(second.items.map((o) => o.metadata.name)).toStrictEqual(['m-5']);
    expect(second.continueToken).toBeUndefined();
  });

  it('pages by number with pagesize and page', () => {
    const q = parseListQuery(new URLSearchParams('pagesize=3&page=3'));
    const out = runListQuery(objects, q, '10');

    expect(out.items.map((o) => o.metadata.name)).toStrictEqual(['m-6']);
    expect(out.pages).toBe(3);
  });

  it('rejects a forged continue token', () => {
    const q = parseListQuery(new URLSearchParams('limit=2&continue=not-a-token'));

    expect(() => runListQuery(objects, q, '10')).toThrow(QueryError);
  });

  it('reads include and exclude, repeated or comma separated', () => {
    const q = parseListQuery(new URLSearchParams('include=metadata&include=data.a,data.b&exclude=data.plan'));

    expect(q.include).toEqual(['metadata', 'data.a', 'data.b']);
    expect(q.exclude).toEqual(['data.plan']);
  });
});

describe('JSON patch and merge patch', () => {
  const doc = {
    metadata: {
      resourceVersion: '5', finalizers: ['a', 'b'], annotations: { x: '1' }
    }
  };

  it('applies test, remove, add, replace, move and copy in order', () => {
    const out = applyJsonPatch(doc, [
      {
        op: 'test', path: '/metadata/resourceVersion', value: '5'
      },
      {
        op: 'test', path: '/metadata/finalizers', value: ['a', 'b']
      },
      { op: 'remove', path: '/metadata/finalizers/0' },
      {
        op: 'add', path: '/metadata/annotations/y~1z', value: '2'
      },
      {
        op: 'replace', path: '/metadata/annotations/x', value: '3'
      },
      {
        op: 'copy', from: '/metadata/annotations/x', path: '/metadata/annotations/c'
      },
      {
        op: 'move', from: '/metadata/annotations/c', path: '/metadata/annotations/m'
      },
    ]);

    expect(out.metadata).toStrictEqual({
      resourceVersion: '5',
      finalizers:      ['b'],
      annotations:     {
        x: '3', 'y/z': '2', m: '3'
      }
    });
    expect(doc.metadata.finalizers).toStrictEqual(['a', 'b']);
  });

  it('fails the whole patch when a test does not hold, changing nothing', () => {
    expect(() => applyJsonPatch(doc, [
      { op: 'remove', path: '/metadata/finalizers' },
      {
        op: 'test', path: '/metadata/resourceVersion', value: '4'
      },
    ])).toThrow(expect.objectContaining({ kind: 'failed' }));
    expect(doc.metadata.finalizers).toStrictEqual(['a', 'b']);
  });

  it('calls a patch that is not a list of operations malformed', () => {
    expect(() => applyJsonPatch(doc, { op: 'remove' })).toThrow(PatchError);
    expect(() => applyJsonPatch(doc, [{ op: 'explode', path: '/a' }])).toThrow(expect.objectContaining({ kind: 'malformed' }));
  });

  it('merge patch: null deletes, objects merge, lists replace', () => {
    expect(applyMergePatch(doc, { metadata: { finalizers: null, annotations: { y: '2' } } })).toStrictEqual({ metadata: { resourceVersion: '5', annotations: { x: '1', y: '2' } } });
    expect(applyMergePatch(doc, { metadata: { finalizers: ['c'] } }).metadata.finalizers).toStrictEqual(['c']);
  });
});

describe('pagination under a custom sort', () => {
  it('serves every object once when sorted by another field', () => {
    const objects = ['c', 'a', 'e', 'b', 'd'].map((n, i) => obj(`m-${ n }`, {}, { spec: { rank: String(10 - i) } }));
    const q = parseListQuery(new URLSearchParams('sort=spec.rank&limit=2'));
    const names: string[] = [];
    let token: string | undefined;

    do {
      const page = runListQuery(objects, { ...q, continueToken: token }, '1');

      names.push(...page.items.map((o) => o.metadata.name));
      token = page.continueToken;
    } while (token);
    expect(names).toStrictEqual(['m-d', 'm-b', 'm-e', 'm-a', 'm-c']);
  });
});
