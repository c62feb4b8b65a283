/**
 * The registry of fields the engine reads, tested against the rules: a copy of every object of every
 * scenario that keeps only the registered fields must give the identical report. A rule that reads a field
 * nobody registered makes its scenario differ here.
 */
import {
  classify, diagnose, eventsIndex, jobsIndex, keepReadFields, linkChain, readHostReport, steveIncludePaths, timelineOf, RULE_IDS
} from '@pkg/node-health/engine';
import type { DiagnosisReport, KubeObject } from '@pkg/node-health/engine';
import { buildScenario, SCENARIO_NAMES } from '../../../scenarios/catalog';
import { everyFailureHostReports } from '../../../scenarios/host-reports';
import { clusterObjects } from './helpers';
import type { Shape } from './helpers';

/** Everything a report says, with the chain and the story each record shows, and none of the objects behind it. */
function said(report: DiagnosisReport): unknown {
  const events = eventsIndex(report.events ?? []);
  const jobs = jobsIndex(report.jobs ?? []);

  return {
    ...report,
    events:  undefined,
    jobs:    undefined,
    records: report.records.map(({ objects, ...rest }) => ({
      ...rest, chain: linkChain({ ...rest, objects } as any), timeline: timelineOf({ ...rest, objects } as any, { events: events({ ...rest, objects } as any), jobLogs: jobs({ ...rest, objects } as any) })
    })),
  };
}

function whitelisted(objects: unknown[]): unknown[] {
  return objects.map((o) => {
    const kind = classify(o);

    return kind ? keepReadFields(o as KubeObject, kind) : o;
  });
}

const cases: [string, Shape][] = [...SCENARIO_NAMES, 'large-300']
  .flatMap((name) => (['kubectl', 'steve', 'v1beta2'] as Shape[]).map((shape): [string, Shape] => [name, shape]));

describe.each(cases)('the registry of fields read (%s, %s)', (name, shape) => {
  const s = buildScenario(name);
  const objects = s.clusters.flatMap((c) => clusterObjects(s, c.mgmtId, shape));
  const options = { now: s.now, defaultCluster: s.clusters.length === 1 ? s.clusters[0].mgmtId : undefined };

  it('a copy with only the registered fields gives the identical report', () => {
    const before = diagnose(objects, options);
    const after = diagnose(whitelisted(objects), options);

    expect(said(after)).toEqual(said(before));
  });
});

describe('the registry', () => {
  it('leaves out what no rule reads, and the scenarios exercise every rule', () => {
    const fired = new Set<string>();

    for (const name of SCENARIO_NAMES) {
      const scenario = buildScenario(name);
      const report = diagnose(scenario.clusters.flatMap((c) => clusterObjects(scenario, c.mgmtId)), { now: scenario.now });

      report.records.forEach((r) => r.findings.forEach((f) => fired.add(f.rule)));
      report.clusters.forEach((c) => (c.findings ?? []).forEach((f) => fired.add(f.rule)));
    }
    const s = buildScenario('every-failure');
    const objects = s.clusters.flatMap((c) => clusterObjects(s, c.mgmtId));
    // The host rules read host reports, joined by the machine-id label and the plan secrets' names.

    diagnose(whitelisted(objects), { now: s.now, hostReports: everyFailureHostReports(s).map(readHostReport) }).records.forEach((r) => r.findings.forEach((f) => fired.add(f.rule)));
    const secret = objects.find((o: any) => classify(o) === 'planSecret') as KubeObject;
    const kept = keepReadFields({
      ...secret,
      metadata: {
        ...secret.metadata, annotations: { 'example.com/x': 'y' }, managedFields: [{}]
      }
    }, 'planSecret');

    // The safety net fires only where no scenario's rule explains a record: the fuzz rounds exercise it.
    const unexercised = ['windows-version-unsupported', 'windows-memory-low', 'node-name-mismatch', 'unexplained-not-ready'];

    expect(RULE_IDS.filter((id) => !fired.has(id) && !unexercised.includes(id))).toEqual([]);
    expect(Object.keys(kept.data).sort()).toEqual(Object.keys(secret.data).filter((k) => !['plan', 'appliedPlan', 'applied-output', 'failed-output', 'applied-periodic-output'].includes(k)).sort());
    expect(kept.metadata.annotations).toEqual({});
    expect(kept.metadata.managedFields).toBeUndefined();
  });

  it('gives Steve dot paths that stop at map keys and lists, none under another', () => {
    const node = steveIncludePaths('node');

    expect(node).toContain('metadata.labels');
    expect(node).toContain('status.conditions');
    expect(node).not.toContain('metadata.labels.kubernetes.io/hostname');
    expect(node.filter((p) => node.some((q) => q !== p && p.startsWith(`${ q }.`)))).toEqual([]);
    expect(steveIncludePaths('planSecret')).toContain('data.applied-checksum');
    expect(steveIncludePaths('planSecret')).not.toContain('data.plan');
  });
});
