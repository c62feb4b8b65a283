/**
 * A load compared with the one before it (data/object-changes.ts) and diagnosed from what changed
 * (diagnoseLoadKeeping): unchanged objects by uid and resourceVersion are the earlier ones, and the report is the
 * one a full diagnosis of the new load gives.
 */
import { compareObjects } from '@pkg/node-health/data/object-changes';
import { diagnoseLoad, diagnoseLoadKeeping } from '@pkg/node-health/data/outcome';
import type { ClusterTarget, LoadResult } from '@pkg/node-health/data';
import { classify } from '@pkg/node-health/engine';
import type { KubeObject } from '@pkg/node-health/engine';
import { everyFailure } from '../../../scenarios/catalog';
import { clusterObjects } from '../engine/helpers';

const object = (uid: string | undefined, resourceVersion: string | undefined, name = uid) => ({
  apiVersion: 'v1',
  kind:       'Node',
  metadata:   {
    uid, resourceVersion, name
  }
});

function copy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value));
}

describe('compareObjects', () => {
  it('keeps the earlier object where uid and resourceVersion are the same, and tells what changed, came and went', () => {
    const a = object('a', '1');
    const b = object('b', '1');
    const c = object('c', '1');
    const next = [copy(a), object('b', '2'), object('d', '1')];
    const compared = compareObjects([a, b, c], next);

    expect(compared?.objects[0]).toBe(a);
    expect(compared?.objects[1]).toBe(next[1]);
    expect(compared?.objects[2]).toBe(next[2]);
    expect(compared?.changes).toEqual({
      changed: [next[1]], added: [next[2]], removed: ['c']
    });
    expect(compared?.count).toBe(3);
  });

  it('cannot tell without a uid or a resourceVersion, or with a uid twice', () => {
    expect(compareObjects([object('a', '1')], [object(undefined, '1')])).toBeNull();
    expect(compareObjects([object('a', undefined)], [object('a', '1')])).toBeNull();
    expect(compareObjects([object('a', '1')], [object('a', '1'), object('a', '2')])).toBeNull();
  });
});

describe('diagnoseLoadKeeping', () => {
  const s = everyFailure();
  const cluster = s.clusters[0];
  const all = clusterObjects(s, cluster.mgmtId, 'steve') as KubeObject[];
  // The target's cluster object is the input's first (data/input.ts); the lists hold the rest.
  const objects = all.filter((o) => classify(o) !== 'cluster');
  const target: ClusterTarget = {
    name:           cluster.name,
    namespace:      cluster.namespace,
    mgmtId:         cluster.mgmtId,
    machineManaged: true,
    custom:         true,
    cluster:        all.find((o) => classify(o) === 'cluster') as KubeObject
  };
  const load = (items: KubeObject[], loadedAt: number): LoadResult => ({
    objects: items, availability: {} as LoadResult['availability'], issues: [], requests: [], loadedAt
  });

  it('a Machine changed in a list read again: only what changed is judged, and the report is a full diagnosis\'s', () => {
    const now = Date.parse(s.now);
    const first = diagnoseLoadKeeping(target, load(copy(objects), now), [], null);
    const reread = copy(objects);
    const machine = reread.find((o) => classify(o) === 'machine') as any;

    machine.metadata.resourceVersion = `${ machine.metadata.resourceVersion }9`;
    machine.metadata.labels = { ...machine.metadata.labels, example: 'changed' };
    const next = diagnoseLoadKeeping(target, load(reread, now + 60000), [], first);

    expect(next.how.path).toBe('incremental');
    expect(next.how.judged).toBeLessThan(next.how.records);
    expect(JSON.parse(JSON.stringify(next.report))).toEqual(JSON.parse(JSON.stringify(diagnoseLoad(target, load(reread, now + 60000)))));
  });
});
