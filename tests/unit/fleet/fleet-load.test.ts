import { loadClusterData, clusterTarget, diagnoseLoad } from '@pkg/node-health/data';
import { loadFleetData } from '@pkg/node-health/fleet/load';
import {
  clusterHealth, diagnoseFleet, fleetRows, fleetSummary, machineHealth, NOT_IN_NODE_COPIES, TAB_ONLY_RULES
} from '@pkg/node-health/fleet/diagnosis';
import { COPIED_FROM_ANNOTATION } from '@pkg/node-health/fleet/node-copies';
import { fleet } from '../../../scenarios/fleet';
import { large } from '../../../scenarios/catalog';
import { fakeSteve } from '../../components/tab-steve';
import { steveIncludePaths } from '@pkg/node-health/engine';
import { seedFleet } from './fixtures';

const at = (iso: string) => () => Date.parse(iso);

function path(url: string): string {
  return url.split('?')[0];
}

describe('fleet load', () => {
  it('asks the same requests for 2 clusters as for 200, all from the management cluster', async() => {
    const small = fleet(2, { nodesPerCluster: 6 });
    const big = fleet(200, { nodesPerCluster: 6 });
    const a = await loadFleetData(fakeSteve(small).dispatch, { now: at(small.now) });
    const b = await loadFleetData(fakeSteve(big).dispatch, { now: at(big.now) });

    expect(b.targets).toHaveLength(200);
    expect(a.requests.map((r) => r.url)).toEqual(b.requests.map((r) => r.url));
    expect(a.requests.map((r) => path(r.url))).toEqual([
      '/v1/provisioning.cattle.io.clusters', '/v1/management.cattle.io.clusters', '/v1/cluster.x-k8s.io.machines', '/v1/secrets',
      '/v1/rke.cattle.io.rkebootstraps', '/v1/management.cattle.io.nodes', '/v1/cluster.x-k8s.io.clusters', '/v1/cluster.x-k8s.io.machinedeployments',
      '/v1/cluster.x-k8s.io.machinesets', '/v1/cluster.x-k8s.io.machinehealthchecks', '/v1/rke.cattle.io.custommachines',
    ]);
    // Nothing of a downstream cluster is asked for.
    expect(b.requests.some((r) => r.url.startsWith('/k8s/'))).toBe(false);
  });

  it('keeps only the plan secrets\' status keys, the bootstraps\' metadata and the management Nodes\' copy of their Node', async() => {
    const scenario = seedFleet();
    const steve = fakeSteve(scenario);

    await loadFleetData(steve.dispatch, { now: at(scenario.now) });
    const secrets = steve.responses.find((r) => r.url.startsWith('/v1/secrets'))!.body as any;
    const mgmtNodes = steve.responses.find((r) => r.url.startsWith('/v1/management.cattle.io.nodes'))!.body as any;

    expect(secrets.data.length).toBeGreaterThan(20);
    expect(JSON.stringify(secrets)).not.toContain(scenario.secretMarker);
    const bootstraps = steve.responses.find((r) => r.url.startsWith('/v1/rke.cattle.io.rkebootstraps'))!.body as any;

    expect(bootstraps.data.length).toBeGreaterThan(20);
    expect(bootstraps.data.every((b: any) => b.metadata && !b.spec && !b.status)).toBe(true);
    // The management clusters with what the engine reads of them (whether the agent is connected), nothing more.
    const mgmtClusters = steve.responses.find((r) => r.url.startsWith('/v1/management.cattle.io.clusters'))!;

    expect(mgmtClusters.url).toContain('include=status.connected');
    expect((mgmtClusters.body as any).data.every((c: any) => !c.spec)).toBe(true);
    const specRead = steveIncludePaths('mgmtNode').filter((p) => p.startsWith('spec.')).map((p) => p.slice('spec.'.length));

    expect(specRead).toContain('requestedHostname');
    for (const mn of mgmtNodes.data) {
      expect(Object.keys(mn.spec ?? {}).every((k) => [...specRead, 'internalNodeSpec'].includes(k))).toBe(true);
      expect(mn.status?.internalNodeStatus?.images).toBeUndefined();
      expect(Object.keys(mn.spec?.internalNodeSpec ?? {}).every((k) => ['providerID', 'taints', 'unschedulable'].includes(k))).toBe(true);
    }
  });

  it('diagnoses every cluster as its tab does, apart from the rules left to the tab', async() => {
    const scenario = seedFleet();
    const load = await loadFleetData(fakeSteve(scenario).dispatch, { now: at(scenario.now) });
    const report = diagnoseFleet(load);
    const fleetRules = new Map(report.records.filter((r) => r.objects.machine).map((r) => [r.key, r.findings.map((f) => f.rule).sort()]));
    const fleetStatus = new Map(report.records.map((r) => [r.key, r.status]));
    const explainedByTab: string[] = [];
    let compared = 0;

    for (const target of load.targets) {
      const tab = diagnoseLoad(target, await loadClusterData(fakeSteve(scenario).dispatch, target, { now: at(scenario.now) }));

      for (const r of tab.records.filter((x) => x.objects.machine)) {
        const tabRules = r.findings.map((f) => f.rule);
        const expected = tabRules.filter((id) => !TAB_ONLY_RULES.includes(id)).sort();
        const fleetGot = fleetRules.get(r.key) ?? [];
        // Where the tab names the cause with a rule left to it (the Node under another name, or gone), the rules that
        // rest on that Node stay quiet too, and the fleet says what Rancher reports (the safety net); nothing else.
        const leftToTab = tabRules.some((id) => TAB_ONLY_RULES.includes(id));

        if (leftToTab) {
          explainedByTab.push(r.key);
          expect([r.key, fleetGot.filter((id) => !expected.includes(id) && id !== 'unexplained-not-ready')]).toEqual([r.key, []]);
          if (!tabRules.every((id) => NOT_IN_NODE_COPIES.includes(id))) {
            expect([r.key, fleetStatus.get(r.key)]).not.toEqual([r.key, 'healthy']);
          }
        } else {
          expect([r.key, fleetGot]).toEqual([r.key, expected]);
        }
        // Never healthy where the tab finds something, even when only a tab-only rule does, but for what Rancher's
        // copy of a Node cannot show (a status nothing writes any more).
        if (r.status !== 'healthy' && !tabRules.every((id) => NOT_IN_NODE_COPIES.includes(id))) {
          expect([r.key, fleetStatus.get(r.key)]).not.toEqual([r.key, 'healthy']);
        }
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(50);
    expect(TAB_ONLY_RULES.sort()).toEqual(['node-missing', 'node-name-mismatch', 'node-status-stale']);
    // The seed machines whose Node is gone: Rancher reports them not ready, so the fleet does too.
    for (const key of ['machine:fleet-default/custom-6a3d0f9e2b58', 'machine:fleet-default/custom-b1f9c5d3a2e1']) {
      expect(explainedByTab).toContain(key);
      expect([key, fleetRules.get(key)]).toEqual([key, ['unexplained-not-ready']]);
    }
  });

  it('says of a machine whose Node Rancher has no copy what Rancher reports, and that the tab checks the Node', async() => {
    const scenario = seedFleet();
    const report = diagnoseFleet(await loadFleetData(fakeSteve(scenario).dispatch, { now: at(scenario.now) }));
    const gone = report.records.find((r) => r.machineName === 'custom-b1f9c5d3a2e1')!;

    // The machine's own conditions say its Node is not healthy: a warning in Rancher's words, never healthy.
    expect(gone.status).toBe('warning');
    expect(gone.findings.map((f) => f.rule)).toEqual(['unexplained-not-ready']);
    expect(String(gone.findings[0].args.signals)).toMatch(/NodeHealthy False|Ready False/);
    expect(gone.notes).toEqual(expect.arrayContaining([{ key: 'nodeHealth.notes.nodeNotCopied', args: { node: 'ef-wk-node-gone' } }]));
    expect(report.counts.unknown).toBe(report.records.filter((r) => r.status === 'unknown').length);
    expect(report.counts.healthy).toBe(report.records.filter((r) => r.status === 'healthy').length);
  });

  it('calls a machine Rancher reports ready but whose Node it has no copy of unknown, checked in the tab', async() => {
    const scenario = seedFleet();
    // The same machine, its conditions all True and Running: nothing the fleet sees says it is unwell.
    const objects = scenario.objects.map((o: any) => (o.kind === 'Machine' && o.metadata.name === 'custom-b1f9c5d3a2e1' ? {
      ...o,
      status: {
        ...o.status,
        phase:      'Running',
        conditions: (o.status.conditions ?? []).map((c: any) => ({
          ...c, status: 'True', reason: '', message: ''
        }))
      },
    } : o));
    const report = diagnoseFleet(await loadFleetData(fakeSteve({ ...scenario, objects }).dispatch, { now: at(scenario.now) }));
    const gone = report.records.find((r) => r.machineName === 'custom-b1f9c5d3a2e1')!;

    expect(gone.findings).toEqual([]);
    expect(gone.status).toBe('unknown');
    expect(gone.notes).toEqual(expect.arrayContaining([{ key: 'nodeHealth.notes.nodeNotCopied', args: { node: 'ef-wk-node-gone' } }]));
  });

  it('reads a node\'s conditions from its management Node\'s copy: a NotReady node is an error, an orphan a warning', async() => {
    const scenario = seedFleet();
    const load = await loadFleetData(fakeSteve(scenario).dispatch, { now: at(scenario.now) });
    const report = diagnoseFleet(load);
    const byNode = (name: string) => report.records.find((r) => r.nodeName === name)!;

    expect(byNode('ef-wk-notready').findings.map((f) => f.rule)).toContain('node-not-ready');
    expect(byNode('ef-wk-notready').objects.node!.metadata.annotations[COPIED_FROM_ANNOTATION]).toMatch(/^c-m-ef4k8w2n\//);
    // The imported cluster's node that stopped posting status: Rancher's copy says so.
    expect(byNode('imp-worker-02').status).toBe('error');
    expect(byNode('edge-worker-03').findings.map((f) => f.rule)).toEqual(['orphan-node']);
    expect(byNode('ef-win2016').findings.map((f) => f.rule)).toContain('windows-version-unsupported');
    expect(byNode('ef-win-small').findings.map((f) => f.rule)).toContain('windows-memory-low');
  });

  it('counts per cluster, lists only the unhealthy, and names the clusters one machine holds back', async() => {
    const scenario = seedFleet();
    const load = await loadFleetData(fakeSteve(scenario).dispatch, { now: at(scenario.now) });
    const report = diagnoseFleet(load);
    const health = clusterHealth(report);
    const summary = fleetSummary(report, health);
    const rows = fleetRows(report);

    expect(health.get('fleet-default/demo-rke2')!.counts).toEqual({
      error: 0, warning: 0, unknown: 0, healthy: 5
    });
    expect(health.get('fleet-default/dev-k3s')!.counts.error).toBeGreaterThan(0);
    expect(health.get('fleet-default/imp-k3s')!.kind).toBe('imported');
    expect(rows.every((r) => r.status !== 'healthy')).toBe(true);
    expect(rows.length).toBe(report.counts.error + report.counts.warning + report.counts.unknown);
    const rowClusters = new Set(rows.map((r) => r.clusterName));

    // Every seed cluster but the healthy ones, and those whose trouble is the whole cluster's (agent, init node, no worker,
    // planner, pre-bootstrap, a wait nothing explains), and fz-rke2, whose Nodes nothing writes any more: Rancher's copies of them keep no heartbeat to tell it.
    expect(rowClusters).toEqual(new Set(scenario.clusters.map((c) => c.name).filter((n) => ![
      'demo-rke2', 'keys-rke2', 'edge-k3s', 'pool-rke2', 'nw-rke2', 'tls-rke2', 'ep-rke2', 'ps-kdm', 'ps-files', 'ps-init', 'ps-join', 'cd-rke2', 'fz-rke2', 'pb-rke2', 'local',
    ].includes(n))));
    expect(summary.clusterFindings.map((c) => [c.clusterName, c.finding.rule])).toEqual(expect.arrayContaining([
      ['edge-k3s', 'cluster-agent-disconnected'], ['pool-rke2', 'init-node-missing'], ['ep-rke2', 'init-node-missing'], ['nw-rke2', 'role-missing'], ['q-rke2', 'etcd-quorum'],
      ['cpl-rke2', 'control-plane-unavailable'], ['pz-rke2', 'reconciliation-paused'], ['tls-rke2', 'cluster-agent-disconnected'],
      ['ps-kdm', 'planner-error'], ['ps-files', 'planner-error'], ['ps-init', 'planner-error'], ['ps-join', 'planner-error'],
      ['cd-rke2', 'cluster-agent-disconnected'], ['cd-rke2', 'capi-connection-down'], ['pb-rke2', 'pre-bootstrap-pending'],
      ['test', 'init-node-not-viable'], ['local', 'unexplained-cluster-wait'],
    ]));
    expect(summary.clustersAffected).toBe(new Set([...rowClusters, ...summary.clusterFindings.map((c) => c.clusterName)]).size);
    expect(summary.blocked.map((b) => [b.clusterName, b.machines])).toEqual(expect.arrayContaining([['dev-k3s', ['custom-2d74d4c9a104']]]));
    const ghost = summary.blocked.find((b) => b.clusterName === 'dev-k3s')!;

    expect(ghost.recordKey).toBe('machine:fleet-default/custom-2d74d4c9a104');
    expect(machineHealth(report).get('fleet-default/custom-2d74d4c9a104')!.status).toBe('error');
  });

  it('names a cluster several machines hold back too, with every machine its condition names and no one row to open', async() => {
    const s = large(300);
    const load = await loadFleetData(fakeSteve(s).dispatch, { now: at(s.now) });
    const report = diagnoseFleet(load);
    const big = fleetSummary(report, clusterHealth(report)).blocked.find((b) => b.clusterName === 'big-rke2');
    const cluster = report.clusters.find((c) => c.name === 'big-rke2')!;

    expect(cluster.blockingMachines.length).toBeGreaterThan(1);
    expect(big).toMatchObject({
      clusterKey: 'fleet-default/big-rke2', machines: cluster.blockingMachines, recordKey: null, message: cluster.blockingMessage
    });
    for (const machine of cluster.blockingMachines) {
      expect(cluster.blockingMessage).toContain(machine);
    }
  });

  it('does not call a cluster held back while its planner configures a machine in time', async() => {
    const s = large(300);
    const cluster = s.objects.find((o: any) => o.kind === 'Cluster' && o.apiVersion.startsWith('provisioning') && o.metadata.name === 'big-rke2') as any;
    const minuteAgo = new Date(Date.parse(s.now) - 60000).toISOString().replace(/\.\d{3}Z$/, 'Z');

    for (const c of cluster.status.conditions.filter((x: any) => ['Updated', 'Provisioned'].includes(x.type))) {
      Object.assign(c, { lastUpdateTime: minuteAgo, lastTransitionTime: minuteAgo });
    }
    const load = await loadFleetData(fakeSteve(s).dispatch, { now: at(s.now) });
    const report = diagnoseFleet(load);

    expect(report.clusters.find((c) => c.name === 'big-rke2')!.blockingMachines.length).toBeGreaterThan(1);
    expect(fleetSummary(report, clusterHealth(report)).blocked.map((b) => b.clusterName)).not.toContain('big-rke2');
  });

  it('shows a user only the clusters they may list', async() => {
    const scenario = seedFleet();
    const allowed = new Set(['dev-k3s', 'c-m-4qj7x2vd']);
    const visible = (o: any) => {
      const ns = o.metadata.namespace;
      const cluster = o.metadata.labels?.['cluster.x-k8s.io/cluster-name'] ?? o.metadata.labels?.['rke.cattle.io/cluster-name'];

      if (o.kind === 'Cluster') {
        return allowed.has(o.metadata.name);
      }

      return cluster ? allowed.has(cluster) : (ns?.startsWith('c-m-') ? allowed.has(ns) : true);
    };
    const load = await loadFleetData(fakeSteve(scenario, { visible }).dispatch, { now: at(scenario.now) });
    const rows = fleetRows(diagnoseFleet(load));

    expect(load.targets.map((t) => t.name)).toEqual(['dev-k3s']);
    expect(new Set(rows.map((r) => r.clusterName))).toEqual(new Set(['dev-k3s']));
  });

  it('says what a user without secrets cannot see, and judges the plans from the machines alone', async() => {
    const scenario = seedFleet();
    const load = await loadFleetData(fakeSteve(scenario, { fail: { planSecrets: { status: 403 } } }).dispatch, { now: at(scenario.now) });
    const report = diagnoseFleet(load);

    expect(load.availability.planSecrets).toBe('forbidden');
    expect(load.issues).toEqual([expect.objectContaining({
      input: 'planSecrets', kind: 'forbidden', status: 403
    })]);
    expect(report.records.some((r) => r.findings.some((f) => f.rule === 'plan-secret-missing'))).toBe(false);
    // The ghost machine still blocks its cluster: the cluster's own condition says so.
    expect(report.records.find((r) => r.machineName === 'custom-2d74d4c9a104')!.status).toBe('error');
  });

  it('fails as a whole when the cluster list cannot be read', async() => {
    const scenario = seedFleet();
    const failUrl = (url: string) => (url.startsWith('/v1/provisioning.cattle.io.clusters') ? { status: 401 } : undefined);
    const load = await loadFleetData(fakeSteve(scenario, { failUrl }).dispatch, { now: at(scenario.now) });

    expect(load.issues[0]).toEqual(expect.objectContaining({ input: 'clusters', kind: 'unauthorized' }));
    const { fleetFatalIssue } = await import('@pkg/node-health/fleet/source');

    expect(fleetFatalIssue(load)).toEqual(expect.objectContaining({ input: 'clusters', kind: 'unauthorized' }));
  });

  it('loads for a user who may read every list only in part: degraded, not failed', async() => {
    const scenario = seedFleet();
    const partial = ['machines', 'planSecrets', 'bootstraps', 'infraMachines', 'mgmtNodes'] as const;
    const steve = fakeSteve(scenario, { partial: [...partial] });
    const { accessReviews } = await import('@pkg/node-health/data/access');
    const { fleetFatalIssue } = await import('@pkg/node-health/fleet/source');
    const load = await loadFleetData(steve.dispatch, { now: at(scenario.now), reviews: accessReviews(steve.dispatch) });

    expect(partial.map((i) => load.availability[i])).toEqual(partial.map(() => 'partial'));
    expect(load.issues.filter((i) => i.kind === 'partial').map((i) => i.input).sort()).toEqual(expect.arrayContaining(['bootstraps', 'machines', 'mgmtNodes', 'planSecrets']));
    expect(fleetFatalIssue(load)).toBeNull();
    const report = diagnoseFleet(load);

    // Nothing is called missing for not being on a list that may be partial.
    expect(report.records.some((r) => r.findings.some((f) => ['plan-secret-missing', 'machine-missing'].includes(f.rule)))).toBe(false);
    expect(report.records.find((r) => r.machineName === 'custom-2d74d4c9a104')!.status).toBe('error');
  });

  it('reads the target of every cluster as the tab would', async() => {
    const scenario = seedFleet();
    const load = await loadFleetData(fakeSteve(scenario).dispatch, { now: at(scenario.now) });

    expect(load.targets.map((t) => t.name).sort()).toEqual(scenario.clusters.map((c) => c.name).sort());
    expect(load.targets.every((t) => clusterTarget(t.cluster)?.mgmtId === t.mgmtId)).toBe(true);
  });
});
