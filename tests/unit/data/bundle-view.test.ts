import { bundleAnnotations, bundleOfPage, bundleViewOf } from '@pkg/node-health/data/bundle-view';
import { clusterTarget } from '@pkg/node-health/data';

const MADE_AT = '2026-03-10T12:00:00Z';
const marks = bundleAnnotations({
  cluster: 'dev-k3s', madeAt: MADE_AT, extensionVersion: '0.1.0', rancherVersion: null, file: 'b.json'
});
const prov = {
  apiVersion: 'provisioning.cattle.io/v1',
  kind:       'Cluster',
  metadata:   {
    name: 'dev-k3s', namespace: 'fleet-default', annotations: marks
  },
  spec:   { rkeConfig: {} },
  status: { clusterName: 'c-m-1' }
};
const mgmt = { metadata: { name: 'c-m-1', annotations: marks } };
const store: Record<string, Record<string, unknown>> = {
  'provisioning.cattle.io.cluster': { 'fleet-default/dev-k3s': prov },
  'management.cattle.io.cluster':   { 'c-m-1': mgmt, 'c-m-live': { metadata: { name: 'c-m-live', annotations: {} } } },
};
const byId = (type: string, id: string) => store[type]?.[id];

describe('the bundle view', () => {
  it('reads what the embedded API says of a bundle, and nothing of a live cluster', () => {
    expect(bundleViewOf(prov)).toStrictEqual({
      cluster: 'dev-k3s', madeAt: MADE_AT, madeAtMs: Date.parse(MADE_AT), extensionVersion: '0.1.0', rancherVersion: null, file: 'b.json'
    });
    expect(clusterTarget(prov)?.bundle?.madeAtMs).toBe(Date.parse(MADE_AT));
    expect(clusterTarget({ ...prov, metadata: { name: 'x', namespace: 'fleet-default' } })?.bundle).toBeNull();
    // Without a moment it was made there is nothing to judge at: not taken for a bundle.
    expect(bundleViewOf({ metadata: { annotations: { ...marks, 'node-health/bundle-made-at': 'yesterday' } } })).toBeNull();
    expect(bundleViewOf(null)).toBeNull();
  });

  it('finds the bundle of a page: its cluster, a resource of its cluster, a page of its explorer; none elsewhere', () => {
    const machine = {
      metadata: {
        name: 'm1', namespace: 'fleet-default', labels: { 'cluster.x-k8s.io/cluster-name': 'dev-k3s' }
      }
    };
    const other = {
      metadata: {
        name: 'm2', namespace: 'fleet-default', labels: { 'cluster.x-k8s.io/cluster-name': 'prod' }
      }
    };

    expect(bundleOfPage(prov, { cluster: '_' }, byId)?.cluster).toBe('dev-k3s');
    expect(bundleOfPage(machine, { cluster: '_' }, byId)?.madeAt).toBe(MADE_AT);
    expect(bundleOfPage({}, { cluster: 'c-m-1' }, byId)?.cluster).toBe('dev-k3s');
    expect(bundleOfPage(other, { cluster: '_' }, byId)).toBeNull();
    expect(bundleOfPage({}, { cluster: 'c-m-live' }, byId)).toBeNull();
    expect(bundleOfPage(null, undefined, () => {
      throw new Error('no such type');
    })).toBeNull();
  });
});
