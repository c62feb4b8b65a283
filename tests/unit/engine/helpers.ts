import { diagnose, DiagnosisReport, DiagnoseOptions, NodeRecord } from '@pkg/node-health/engine';
import type { Scenario } from '../../../scenarios/types';
import { toSteve } from '../../../scenarios/steve';
import { machinesToV1beta2 } from '../../../scenarios/builders';
import type { createRng } from '../../../scenarios/random';

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

/** Values of the wrong type or out of range, for damaging objects. */
export const WRONG_VALUES: unknown[] = [null, undefined, 0, -1, 1e300, NaN, '', 'x', '2026-13-45T99:99:99Z', true, [], [null], {}, { a: 1 }, ['a', 1]];

function paths(value: unknown, prefix: string[] = [], out: string[][] = []): string[][] {
  if (value !== null && typeof value === 'object') {
    for (const key of Object.keys(value as object)) {
      const p = [...prefix, key];

      out.push(p);
      paths((value as any)[key], p, out);
    }
  }

  return out;
}

/** A copy of the object with `count` random fields removed or given a wrong value. */
export function mutate(obj: any, rng: ReturnType<typeof createRng>, count: number): any {
  const copy = JSON.parse(JSON.stringify(obj));
  const all = paths(copy);

  for (let i = 0; i < count && all.length > 0; i++) {
    const path = all[rng.int(0, all.length - 1)];
    let parent = copy;

    for (const key of path.slice(0, -1)) {
      parent = parent?.[key];
    }
    if (parent === null || typeof parent !== 'object') {
      continue;
    }
    const last = path[path.length - 1];

    if (rng.chance(0.3)) {
      delete parent[last];
    } else {
      parent[last] = WRONG_VALUES[rng.int(0, WRONG_VALUES.length - 1)];
    }
  }

  return copy;
}
