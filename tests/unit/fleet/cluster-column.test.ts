import { loadFleetData } from '@pkg/node-health/fleet/load';
import { clusterHealth, diagnoseFleet, fleetSummary } from '@pkg/node-health/fleet/diagnosis';
import { clusterCellView, clusterSortKey } from '@pkg/node-health/fleet/columns';
import { STATUS_COLORS } from '@pkg/node-health/data/rows';
import type { DiagnosisReport } from '@pkg/node-health/engine';
import type { Scenario } from '../../../scenarios/types';
import { fakeSteve } from '../../components/tab-steve';
import { seedFleet } from './fixtures';

async function diagnosed(scenario: Scenario): Promise<DiagnosisReport> {
  const load = await loadFleetData(fakeSteve(scenario).dispatch, { now: () => Date.parse(scenario.now) });

  return diagnoseFleet(load);
}

/** Rancher's copy of a Node reports it not Ready, as it does when the kubelet stops posting status. */
function notReady(scenario: Scenario, node: string): void {
  const copy = scenario.objects.find((o) => o.kind === 'Node' && o.apiVersion === 'management.cattle.io/v3' && (o as any).status?.nodeName === node) as any;

  copy.status.internalNodeStatus.conditions = copy.status.internalNodeStatus.conditions.map((c: any) => (c.type === 'Ready' ? {
    ...c, status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.', lastTransitionTime: '2026-06-15T12:00:00Z'
  } : c));
}

describe('the cluster list column counts what concerns the whole cluster', () => {
  it('shows edge-k3s\'s disconnected agent although its nodes look healthy, and sorts it with the clusters in error', async() => {
    const health = clusterHealth(await diagnosed(seedFleet()));
    const edge = health.get('fleet-default/edge-k3s')!;

    // What Rancher shows of its nodes is two hours old: they look healthy.
    expect(edge.counts).toEqual({
      error: 0, warning: 0, unknown: 0, healthy: 3
    });
    expect(edge.clusterFindings.map((f) => [f.rule, f.severity])).toEqual([['cluster-agent-disconnected', 'error']]);
    expect(clusterCellView(edge, 'ready')).toEqual({
      kind:    'counts',
      cluster: [{
        id: 'cluster-agent-disconnected', status: 'error', titleKey: 'nodeHealth.rules.clusterAgentDisconnected.title', args: edge.clusterFindings[0].args, color: STATUS_COLORS.error
      }],
      badges: [],
    });
    expect(clusterSortKey(edge)).toEqual({
      rank: 0, error: 1, warning: 0, unknown: 0
    });
    // Before the first diagnosis there is nothing to say yet, not "healthy".
    expect(clusterCellView(edge, 'loading')).toEqual({ kind: 'none' });
  });

  it('shows every cluster-level warning and error, and leaves an empty cell only to a cluster with nothing wrong', async() => {
    const health = clusterHealth(await diagnosed(seedFleet()));
    const cell = (name: string) => clusterCellView(health.get(`fleet-default/${ name }`), 'ready');
    const clusterRules = (name: string) => {
      const view = cell(name);

      return view.kind === 'counts' ? view.cluster.map((b) => (b.id === 'note' ? 'note' : `${ b.id }:${ b.status }`)) : [];
    };

    expect(clusterRules('pool-rke2')).toEqual(['init-node-missing:error']);
    expect(clusterRules('nw-rke2')).toEqual(['role-missing:error']);
    expect(clusterRules('q-rke2')).toEqual(['etcd-quorum:warning']);
    // pz-rke2: a node in warning and the paused reconciliation, both.
    expect(clusterRules('pz-rke2')).toEqual(['reconciliation-paused:warning']);
    expect(cell('pz-rke2')).toEqual(expect.objectContaining({
      badges: [{
        status: 'warning', count: 1, color: STATUS_COLORS.warning
      }]
    }));
    expect(clusterRules('dev-k3s')).toEqual([]);
    expect(cell('demo-rke2')).toEqual({ kind: 'none' });
    expect(cell('keys-rke2')).toEqual({ kind: 'none' });
  });

  it('shows a lost etcd quorum as an error of the cluster', async() => {
    const scenario = seedFleet();

    notReady(scenario, 'q-cp-02');
    const q = clusterHealth(await diagnosed(scenario)).get('fleet-default/q-rke2')!;
    const view = clusterCellView(q, 'ready');

    expect(q.clusterFindings).toEqual([expect.objectContaining({
      rule:     'etcd-quorum',
      severity: 'error',
      args:     expect.objectContaining({
        lost: 'yes', healthy: 1, members: 3
      })
    })]);
    expect(view.kind === 'counts' && view.cluster[0]).toEqual(expect.objectContaining({
      id: 'etcd-quorum', status: 'error', color: STATUS_COLORS.error
    }));
    expect(clusterSortKey(q).rank).toBe(0);
  });

  it('says a check of the cluster could not run rather than leave the cell empty, on the fleet page too', async() => {
    const report = await diagnosed(seedFleet());
    const demo = report.clusters.find((c) => c.name === 'demo-rke2')!;
    const before = fleetSummary(report, clusterHealth(report));

    demo.notes = [{ key: 'nodeHealth.notes.ruleFailed', args: { rule: 'etcd-quorum', message: 'conditions is not a list' } }];
    const health = clusterHealth(report);
    const summary = fleetSummary(report, health);
    const h = health.get('fleet-default/demo-rke2')!;

    expect(h.counts.healthy).toBe(5);
    expect(clusterCellView(h, 'ready')).toEqual({
      kind:    'counts',
      cluster: [{
        id: 'note', status: 'unknown', titleKey: 'nodeHealth.fleet.column.clusterNotJudged', args: { count: 1 }, color: STATUS_COLORS.unknown
      }],
      badges: []
    });
    expect(clusterSortKey(h)).toEqual({
      rank: 2, error: 0, warning: 0, unknown: 1
    });
    expect(summary.clusterNotes).toEqual([{
      clusterKey: 'fleet-default/demo-rke2', clusterName: 'demo-rke2', clusterNamespace: 'fleet-default', note: demo.notes[0]
    }]);
    expect(before.clusterNotes).toEqual([]);
    expect(summary.clustersAffected).toBe(before.clustersAffected + 1);
  });

  it('leaves out a cluster finding that is only information', async() => {
    const report = await diagnosed(seedFleet());
    const edge = report.clusters.find((c) => c.name === 'edge-k3s')!;

    edge.findings = edge.findings.map((f) => ({ ...f, severity: 'info' as const }));
    const h = clusterHealth(report).get('fleet-default/edge-k3s')!;

    expect(h.clusterFindings).toEqual([]);
    expect(h.worstRank).toBe(3);
    expect(clusterCellView(h, 'ready')).toEqual({ kind: 'none' });
  });
});
