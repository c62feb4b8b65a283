import { linkChain, diagnose } from '@pkg/node-health/engine';
import type { ChainLink, NodeRecord } from '@pkg/node-health/engine';
import { buildScenario, GHOST_MACHINE } from '../../../scenarios/catalog';
import { clusterObjects, diagnoseScenario } from './helpers';

const states = (chain: ChainLink[]) => Object.fromEntries(chain.map((l) => [l.kind, l.state]));

describe('the chain of a record, built when asked for', () => {
  it('has no machine or plan secret to look for in an imported cluster', () => {
    const report = diagnoseScenario(buildScenario('imported'));
    const record = report.records[0] as NodeRecord;

    expect(record.machineManaged).toBe(false);
    expect(states(linkChain(record))).toMatchObject({
      machine: 'not-applicable', planSecret: 'not-applicable', node: 'present'
    });
  });

  it('says an input that was not given was not loaded, and one that was forbidden was unreadable', () => {
    const s = buildScenario('ghost-etcd');
    const mgmtId = s.clusters[0].mgmtId;
    const withoutNodes = clusterObjects(s, mgmtId).filter((o: any) => !(o.kind === 'Node' && o.apiVersion === 'v1'));
    const notGiven = diagnose(withoutNodes, { now: s.now, defaultCluster: mgmtId });
    const forbidden = diagnose(withoutNodes, {
      now: s.now, defaultCluster: mgmtId, availability: { nodes: 'forbidden' }
    });
    const ghostOf = (records: NodeRecord[]) => records.find((r) => r.machineName === GHOST_MACHINE) as NodeRecord;

    expect(states(linkChain(ghostOf(notGiven.records))).node).toBe('not-loaded');
    expect(states(linkChain(ghostOf(forbidden.records))).node).toBe('unreadable');
  });

  it('says Rancher\'s node waits with the Node it is made from, and is missing once that Node exists', () => {
    const s = buildScenario('ghost-etcd');
    const mgmtId = s.clusters[0].mgmtId;
    const full = diagnose(clusterObjects(s, mgmtId), { now: s.now, defaultCluster: mgmtId });
    const withNode = full.records.find((r) => r.objects.machine && r.objects.node && r.objects.mgmtNode) as NodeRecord;
    const dropped = withNode.objects.mgmtNode;
    const report = diagnose(clusterObjects(s, mgmtId).filter((o) => o !== dropped), { now: s.now, defaultCluster: mgmtId });
    const ghost = report.records.find((r) => r.machineName === GHOST_MACHINE) as NodeRecord;
    const same = report.records.find((r) => r.key === withNode.key) as NodeRecord;

    expect(ghost.objects.node).toBeUndefined();
    expect(states(linkChain(ghost)).mgmtNode).toBe('waiting');
    expect(same.objects.mgmtNode).toBeUndefined();
    expect(states(linkChain(same)).mgmtNode).toBe('missing');
  });

  it('gives the same links each time, as new objects the caller may keep', () => {
    const report = diagnoseScenario(buildScenario('ghost-etcd'));
    const record = report.records.find((r) => r.machineName === GHOST_MACHINE) as NodeRecord;
    const first = linkChain(record);
    const second = linkChain(record);

    expect(second).toEqual(first);
    expect(second[0]).not.toBe(first[0]);
    expect(first.map((l) => l.kind)).toEqual(['machine', 'planSecret', 'bootstrap', 'infraMachine', 'mgmtNode', 'node']);
  });
});
