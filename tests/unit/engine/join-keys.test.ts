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

describe('the kubelets\' Leases', () => {
  const leaseOf = (r: { objects: { lease?: { metadata?: { name?: string } } } }) => r.objects.lease?.metadata?.name;

  it.each(['kubectl', 'steve'] as Shape[])('each Node gets the Lease named as it, %s shape', (shape) => {
    const report = diagnose(clusterObjects(s, id, shape), { now: s.now, defaultCluster: id });
    const withNode = report.records.filter((r) => r.objects.node);

    expect(withNode.length).toBeGreaterThan(3);
    expect(withNode.map(leaseOf)).toStrictEqual(withNode.map((r) => r.objects.node?.metadata?.name));
    expect(withNode.every((r) => r.inputs.leases === 'ok')).toBe(true);
  });

  it('in kubectl output of two clusters, a Lease goes to the one Node of its name, and to none where two clusters have one', () => {
    const other = buildScenario('healthy', { now: s.now });
    const theirs = clusterObjects(other, other.clusters[0].mgmtId) as any[];
    const twin = JSON.parse(JSON.stringify(theirs.find((o) => o.kind === 'Node' && o.apiVersion === 'v1')));
    const twinLease = JSON.parse(JSON.stringify(theirs.find((o) => o.kind === 'Lease' && o.metadata.name === twin.metadata.name)));
    const ours = (JSON.parse(JSON.stringify(clusterObjects(s, id))) as any[]).filter((o) => o.kind !== 'Lease' || o.metadata.name !== 'keys-wk-label');
    const node = ours.find((o) => o.kind === 'Node' && o.apiVersion === 'v1' && o.metadata.name === 'keys-wk-label');

    // Our cluster's keys-wk-label (joined to its machine by the machine's uid label) is renamed as one of theirs:
    // one Lease of that name, two Nodes.
    node.metadata.name = twin.metadata.name;
    node.metadata.labels['kubernetes.io/hostname'] = twin.metadata.name;
    const report = diagnose([...ours, ...theirs.filter((o) => o !== twinLease), twinLease], { now: s.now });
    const named = report.records.filter((r) => r.objects.node?.metadata?.name === twin.metadata.name);

    expect(named).toHaveLength(2);
    expect(named.map(leaseOf)).toStrictEqual([undefined, undefined]);
    const others = report.records.filter((r) => r.objects.node && r.objects.node.metadata?.name !== twin.metadata.name);

    expect(others.length).toBeGreaterThan(3);
    expect(others.map(leaseOf)).toStrictEqual(others.map((r) => r.objects.node?.metadata?.name));
  });
});

describe('keys that disagree', () => {
  it('the machine label wins over a stale annotation naming another machine', () => {
    const report = diagnose(clusterObjects(s, id), { now: s.now, defaultCluster: id });
    const annotated = report.records.find((r) => r.machineName === JOIN_KEY_MACHINES.annotation)!;

    expect(annotated.objects.node?.metadata?.name).toBe('keys-wk-annotation');
  });

  it.each(['first', 'last'])('the Node with the machine\'s uid takes it from the Node its nodeRef names, read %s', (where) => {
    const objects = JSON.parse(JSON.stringify(clusterObjects(s, id))) as any[];
    const machine = objects.find((o) => o.kind === 'Machine' && o.metadata.name === JOIN_KEY_MACHINES.nodeRef);
    const named = objects.find((o) => o.kind === 'Node' && o.apiVersion === 'v1' && o.metadata.name === 'keys-wk-noderef');
    // A second Node of the same host, registered under another name, carries the machine's uid.
    const twin = {
      ...JSON.parse(JSON.stringify(named)),
      metadata: {
        ...named.metadata, name: 'keys-wk-twin', labels: { ...named.metadata.labels, 'rke.cattle.io/machine': machine.metadata.uid }
      },
    };
    const others = objects.filter((o) => o !== named);
    const report = diagnose(where === 'first' ? [twin, ...others, named] : [named, ...others, twin], { now: s.now, defaultCluster: id });
    const r = report.records.find((x) => x.machineName === JOIN_KEY_MACHINES.nodeRef && x.objects.machine)!;

    expect(r.objects.node?.metadata?.name).toBe('keys-wk-twin');
    expect(report.records.find((x) => !x.objects.machine && x.nodeName === 'keys-wk-noderef')).toBeDefined();
  });

  it('a Machine whose nodeRef names a Node that another machine\'s label claims: its own Node is gone, and the other machine is named', () => {
    const objects = JSON.parse(JSON.stringify(clusterObjects(s, id))) as any[];
    const stale = objects.find((o) => o.kind === 'Machine' && o.metadata.name === JOIN_KEY_MACHINES.nodeRef);
    const holder = objects.find((o) => o.kind === 'Machine' && o.metadata.name === JOIN_KEY_MACHINES.label);

    // Its host re-registered as another machine: the Node of the label machine is the one its nodeRef still names.
    stale.status.nodeRef = { ...stale.status.nodeRef, name: 'keys-wk-label' };
    const report = diagnose(objects, { now: s.now, defaultCluster: id });
    const r = report.records.find((x) => x.machineName === JOIN_KEY_MACHINES.nodeRef)!;
    const f = r.findings.find((x) => x.rule === 'node-missing')!;

    expect(f.args).toMatchObject({
      node: 'keys-wk-label', takenBy: JOIN_KEY_MACHINES.label, taken: 'yes'
    });
    expect(f.evidence).toContainEqual(expect.objectContaining({ path: 'metadata.labels[rke.cattle.io/machine]', value: holder.metadata.uid }));
    // The host is known: no "find the host" step, and the step that deletes names this machine, not the holder.
    expect(f.fix.map((x) => x.key)).toStrictEqual(['nodeHealth.rules.nodeMissing.fix.takenOver', 'nodeHealth.rules.nodeMissing.fix.leftover', 'nodeHealth.rules.nodeMissing.fix.autoCleanup']);
    expect(f.fix[1].command).toContain(JOIN_KEY_MACHINES.nodeRef);
    expect(r.status).toBe('error');
    // The holder keeps its Node and says nothing about the leftover's claim.
    expect(report.records.find((x) => x.machineName === JOIN_KEY_MACHINES.label)!.objects.node?.metadata?.name).toBe('keys-wk-label');
  });
});
