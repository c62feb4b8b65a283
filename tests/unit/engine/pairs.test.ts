/**
 * Several clusters in one input: diagnosing any two scenarios together gives, per cluster, exactly what
 * diagnosing each alone gives (records, statuses, findings with their evidence and fix steps, notes).
 */
import { diagnose } from '@pkg/node-health/engine';
import type { DiagnosisReport } from '@pkg/node-health/engine';
import { buildScenario, SCENARIO_NAMES } from '../../../scenarios/catalog';
import type { Scenario } from '../../../scenarios/types';
import { clusterObjects, Shape } from './helpers';

const NOW = '2026-06-15T14:00:00Z';
const scenarios = new Map<string, Scenario>(SCENARIO_NAMES.map((name) => [name, buildScenario(name, { now: NOW })]));

function objectsOf(s: Scenario, shape: Shape): unknown[] {
  return s.clusters.flatMap((c) => clusterObjects(s, c.mgmtId, shape));
}

/** Per cluster name, every record as the report gives it, keyed and sorted so that order does not matter. */
function perCluster(report: DiagnosisReport): Map<string, string[]> {
  const out = new Map<string, string[]>();

  for (const r of report.records) {
    const name = r.cluster?.name ?? '(none)';
    const summary = JSON.stringify({
      key: r.key, status: r.status, since: r.statusSince, findings: r.findings, notes: r.notes, roles: r.roles, os: r.os, inputs: r.inputs
    });

    out.set(name, [...(out.get(name) ?? []), summary]);
  }
  for (const list of out.values()) {
    list.sort();
  }

  return out;
}

const pairs = SCENARIO_NAMES.flatMap((a, i) => SCENARIO_NAMES.slice(i + 1).map((b) => [a, b] as const));

describe.each(['steve', 'kubectl'] as Shape[])('two scenarios in one input, %s shape', (shape) => {
  const alone = new Map([...scenarios].map(([name, s]) => [name, perCluster(diagnose(objectsOf(s, shape), { now: NOW }))]));

  it.each(pairs)('%s with %s: each cluster as when diagnosed alone', (a, b) => {
    const together = perCluster(diagnose([...objectsOf(scenarios.get(a)!, shape), ...objectsOf(scenarios.get(b)!, shape)], { now: NOW }));

    for (const name of [a, b]) {
      for (const [cluster, records] of alone.get(name)!) {
        expect({ cluster, records: together.get(cluster) }).toStrictEqual({ cluster, records });
      }
    }
    expect(together.get('(none)')).toBeUndefined();
  });
});
