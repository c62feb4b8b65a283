import {
  clusterInput, clusterTarget, diagnoseInput, diagnoseLoad, diagnoseOptions
} from '@pkg/node-health/data';
import type { LoadResult } from '@pkg/node-health/data';
import { ghostEtcd } from '../../../scenarios/catalog';
import { clusterResource } from '../../components/tab-steve';

describe('the diagnosis input', () => {
  const s = ghostEtcd();

  it('holds the cluster once, beside the load\'s objects, its identity in the target', () => {
    const target = clusterTarget(clusterResource(s))!;
    const load: LoadResult = {
      objects: s.objects.filter((o) => o.kind === 'Machine'), availability: { machines: 'ok' } as LoadResult['availability'], issues: [], requests: [], loadedAt: Date.parse(s.now)
    };
    const input = clusterInput(target, load);

    expect(input.objects.filter((o) => o === target.cluster)).toHaveLength(1);
    expect(input.objects).toHaveLength(load.objects.length + 1);
    expect(diagnoseOptions(input)).toMatchObject({
      defaultCluster: target.mgmtId, now: load.loadedAt, availability: load.availability
    });
    expect(diagnoseOptions(input).nodesLeftToTab).toBeUndefined();
    expect(diagnoseOptions({ ...input, nodesLeftToTab: true }).nodesLeftToTab).toBe(true);
    // Several clusters: no one cluster takes the Nodes the objects do not place.
    expect(diagnoseOptions({ ...input, targets: [target, target] }).defaultCluster).toBeUndefined();
    expect(diagnoseInput(input)).toEqual(diagnoseLoad(target, load));
  });

  it('copies the store\'s cluster once per version of it', () => {
    const model = JSON.parse(JSON.stringify(clusterResource(s)));
    const first = clusterTarget(model);

    expect(clusterTarget(model)).toBe(first);
    model.metadata.resourceVersion = `${ model.metadata.resourceVersion }1`;
    model.status.clusterName = 'c-m-other';
    const changed = clusterTarget(model);

    expect(changed).not.toBe(first);
    expect(changed?.mgmtId).toBe('c-m-other');
  });
});
