/**
 * The join's keys, each on its own: a Node linked to its machine only by the rke.cattle.io/machine label, only by
 * the Machine's nodeRef, only by the cluster.x-k8s.io/machine annotation, and by keys that disagree. A join that
 * ignored any one key would leave a machine here without its Node.
 */
import { diagnose } from '@pkg/node-health/engine';
import { buildScenario, JOIN_KEY_MACHINES } from '../../../scenarios/catalog';
import { clusterObjects, Shape } from './helpers';

const s = buildScenario('join-keys');
const id = s.clusters[0].mgmtId;
const NODE_OF: Record<string, string> = {
  [JOIN_KEY_MACHINES.label]:      'keys-wk-label',
  [JOIN_KEY_MACHINES.nodeRef]:    'keys-wk-noderef',
  [JOIN_KEY_MACHINES.annotation]: 'keys-wk-annotation',
  [JOIN_KEY_MACHINES.disagree]:   'keys-wk-disagree',
};

describe.each(['kubectl', 'steve', 'v1beta2'] as Shape[])('join keys, %s shape', (shape) => {
  const report = diagnose(clusterObjects(s, id, shape), { now: s.now, defaultCluster: id });

  it.each(Object.entries(NODE_OF))('machine %s gets its own Node, %s', (machine, node) => {
    const r = report.records.find((x) => x.machineName === machine && x.objects.machine);

    expect(r?.objects.node?.metadata?.name).toBe(node);
    expect(r?.status).toBe('healthy');
  });

  it('leaves no Node on its own and finds nothing wrong', () => {
    expect(report.records.filter((r) => !r.objects.machine)).toStrictEqual([]);
    expect(report.records.flatMap((r) => r.findings)).toStrictEqual([]);
  });
});

describe('a Node that says nothing of its cluster, among several clusters (kubectl output)', () => {
  it('is still joined by the one Machine of any cluster whose nodeRef names it', () => {
    const objects = JSON.parse(JSON.stringify(clusterObjects(s, id))) as any[];
    const node = objects.find((o) => o.kind === 'Node' && o.apiVersion === 'v1' && o.metadata.name === 'keys-wk-noderef');

    node.metadata.annotations = {};
    const other = buildScenario('healthy', { now: s.now });
    const report = diagnose([...objects, ...clusterObjects(other, other.clusters[0].mgmtId)], { now: s.now });
    const r = report.records.find((x) => x.machineName === JOIN_KEY_MACHINES.nodeRef)!;

    expect(r.objects.node?.metadata?.name).toBe('keys-wk-noderef');
    expect(r.status).toBe('healthy');
    expect(report.records.filter((x) => !x.cluster)).toStrictEqual([]);
  });
});

describe('keys that disagree', () => {
  it('the machine label wins over a stale annotation naming another machine', () => {
    const report = diagnose(clusterObjects(s, id), { now: s.now, defaultCluster: id });
    const annotated = report.records.find((r) => r.machineName === JOIN_KEY_MACHINES.annotation)!;

    expect(annotated.objects.node?.metadata?.name).toBe('keys-wk-annotation');
  });

  it('a Machine whose nodeRef names a Node that another machine\'s label claims: not "Node gone", unknown with the reason', () => {
    const objects = JSON.parse(JSON.stringify(clusterObjects(s, id))) as any[];
    const stale = objects.find((o) => o.kind === 'Machine' && o.metadata.name === JOIN_KEY_MACHINES.nodeRef);

    // Its host re-registered as another machine's: the Node of the label machine now has the stale machine's nodeRef too.
    stale.status.nodeRef = { ...stale.status.nodeRef, name: 'keys-wk-label' };
    const r = diagnose(objects, { now: s.now, defaultCluster: id }).records.find((x) => x.machineName === JOIN_KEY_MACHINES.nodeRef)!;

    expect(r.findings.map((f) => f.rule)).not.toContain('node-missing');
    expect(r.status).toBe('unknown');
    expect(r.notes).toContainEqual({ key: 'nodeHealth.notes.nodeLinkedElsewhere', args: { node: 'keys-wk-label', machine: JOIN_KEY_MACHINES.label } });
  });
});
