import { diagnose, DiagnosisReport, DiagnoseOptions, NodeRecord } from '@pkg/node-health/engine';
import type { Scenario } from '../../../scenarios/types';
import { toSteve } from '../../../scenarios/steve';
import { machinesToV1beta2 } from '../../../scenarios/builders';

export type Shape = 'kubectl' | 'steve' | 'v1beta2';

/** The objects of one scenario cluster, in the shape the tab (Steve) or the command line (kubectl) sees. */
export function clusterObjects(s: Scenario, mgmtId: string, shape: Shape = 'kubectl'): unknown[] {
  const local = shape === 'v1beta2' ? machinesToV1beta2(s.objects) : s.objects;
  const downstream = s.downstream[mgmtId] ?? [];

  if (shape === 'steve') {
    return [
      ...local.map((o) => toSteve(o, { now: s.now })),
      ...downstream.map((o) => toSteve(o, { now: s.now, clusterId: mgmtId })),
    ];
  }

  return [...local, ...downstream];
}

export function diagnoseScenario(s: Scenario, shape: Shape = 'kubectl', options: Partial<DiagnoseOptions> = {}): DiagnosisReport {
  const objects = s.clusters.flatMap((c) => clusterObjects(s, c.mgmtId, shape));

  return diagnose(objects, {
    now: s.now, defaultCluster: s.clusters.length === 1 ? s.clusters[0].mgmtId : undefined, ...options
  });
}

/** The name a scenario's `expected` map uses for a record: the machine, else the Node. */
export function recordName(r: NodeRecord): string {
  return (r.objects.machine ? r.machineName : (r.nodeName ?? r.machineName)) ?? r.key;
}

export function findingsByName(report: DiagnosisReport): Map<string, string[]> {
  return new Map(report.records.map((r) => [recordName(r), r.findings.map((f) => f.rule)]));
}
