/**
 * Cluster API cannot reach a cluster (cluster-api core/reconcilers: RemoteConnectionProbe False ProbeFailed on the
 * CAPI Cluster, NodeHealthy and NodeReady Unknown ConnectionDown on every Machine): one cluster finding, not one
 * "not ready" per machine; the cluster agent's lost connection explains it, since Cluster API reaches a Rancher
 * cluster through Rancher.
 */
import { diagnose, DEFAULT_CONFIG } from '@pkg/node-health/engine';
import { buildScenario } from '../../../scenarios/catalog';
import { clusterObjects, diagnoseScenario, Shape } from './helpers';

const s = buildScenario('capi-connection-down');
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v));

function objectsOf(shape: Shape = 'kubectl'): any[] {
  return clone(clusterObjects(s, s.clusters[0].mgmtId, shape)) as any[];
}

const isCapiCluster = (o: any) => o.kind === 'Cluster' && String(o.apiVersion).startsWith('cluster.x-k8s.io');
const isMgmtCluster = (o: any) => o.kind === 'Cluster' && String(o.apiVersion).startsWith('management.cattle.io');

describe('Cluster API cannot reach the cluster', () => {
  it.each(['kubectl', 'steve', 'v1beta2'] as Shape[])('%s: one cluster finding, and no machine called not ready for it', (shape) => {
    const report = diagnoseScenario(s, shape);
    const cluster = report.clusters[0];
    const found = cluster.findings.find((f) => f.rule === 'capi-connection-down')!;

    expect(found).toMatchObject({ severity: 'warning', args: { machines: 5 } });
    expect(found.evidence.map((e) => e.value)).toContain('Remote connection probe failed, probe last succeeded at 2026-03-11T15:50:00Z');
    expect(report.records.flatMap((r) => r.findings.map((f) => f.rule))).toStrictEqual([]);
    expect(report.records.every((r) => r.notes.some((n) => n.key === 'nodeHealth.notes.partOf.capiConnectionDown'))).toBe(true);
  });

  it('is explained by the cluster agent\'s lost connection, which leads the cluster\'s plan', () => {
    const resolution = diagnoseScenario(s).clusters[0].resolution!;

    expect(resolution.rootCause).toBe('cluster-agent-disconnected');
    expect(resolution.consequences).toContain('capi-connection-down');
    // Where Cluster API's kubeconfig points and its log say nothing the agent's lost connection does not.
    expect(resolution.steps.map((x) => x.rule)).not.toContain('capi-connection-down');
  });

  it('leads the plan itself when the agent is connected, with the kubeconfig Cluster API reaches the cluster through', () => {
    const objects = objectsOf();
    const mgmt = objects.find(isMgmtCluster);

    mgmt.status.conditions = mgmt.status.conditions.map((c: any) => (['Connected', 'Ready'].includes(c.type) ? {
      type: c.type, status: 'True', lastUpdateTime: c.lastUpdateTime
    } : c));
    mgmt.status.connected = true;
    const cluster = diagnose(objects, { now: s.now, defaultCluster: s.clusters[0].mgmtId }).clusters[0];
    const found = cluster.findings.find((f) => f.rule === 'capi-connection-down')!;

    expect(cluster.findings.map((f) => f.rule)).toStrictEqual(['capi-connection-down']);
    expect(cluster.resolution?.rootCause).toBe('capi-connection-down');
    expect(found.fix.find((x) => x.key.endsWith('.kubeconfig'))?.command).toBe('kubectl -n fleet-default get secret cd-rke2-kubeconfig');
    expect(cluster.resolution?.steps.map((x) => x.key.split('.').pop())).toStrictEqual(['stale', 'throughRancher', 'kubeconfig', 'capiLog']);
  });

  it('waits out the agent threshold: a connection back within it was a blip', () => {
    const at = (ms: number) => diagnose(objectsOf(), { now: ms, defaultCluster: s.clusters[0].mgmtId }).clusters[0].findings.some((f) => f.rule === 'capi-connection-down');
    // The earliest of what says so: the conditions turned 45 minutes before the scenario's clock.
    const since = Date.parse(s.now) - 45 * 60000;

    expect(at(since + DEFAULT_CONFIG.clusterAgentTimeoutMs)).toBe(true);
    expect(at(since + DEFAULT_CONFIG.clusterAgentTimeoutMs - 1000)).toBe(false);
  });

  it('says so from the probe alone, before any machine does', () => {
    const objects = objectsOf().map((o) => {
      if (o.kind === 'Machine') {
        o.status.v1beta2.conditions = o.status.v1beta2.conditions.filter((c: any) => c.reason !== 'ConnectionDown');
      }

      return o;
    });
    const found = diagnose(objects, { now: s.now, defaultCluster: s.clusters[0].mgmtId }).clusters[0].findings.find((f) => f.rule === 'capi-connection-down');

    expect(found?.args.machines).toBe(0);
  });

  it('still calls a machine whose Node Cluster API could not inspect for another reason not ready', () => {
    const objects = objectsOf();
    const capi = objects.find(isCapiCluster);
    const machine = objects.find((o) => o.kind === 'Machine');

    capi.status.v1beta2.conditions = capi.status.v1beta2.conditions.filter((c: any) => c.type !== 'RemoteConnectionProbe');
    for (const m of objects.filter((o) => o.kind === 'Machine')) {
      m.status.v1beta2.conditions = m.status.v1beta2.conditions.filter((c: any) => c.reason !== 'ConnectionDown');
    }
    machine.status.v1beta2.conditions.push({
      type: 'NodeReady', status: 'Unknown', reason: 'InternalError', message: 'Please check controller logs for errors', lastTransitionTime: '2026-03-11T15:00:00Z'
    });
    const report = diagnose(objects, { now: s.now, defaultCluster: s.clusters[0].mgmtId });

    expect(report.clusters[0].findings.map((f) => f.rule)).not.toContain('capi-connection-down');
    expect(report.records.find((r) => r.machineName === machine.metadata.name)?.findings.map((f) => f.rule)).toStrictEqual(['unexplained-not-ready']);
  });
});
