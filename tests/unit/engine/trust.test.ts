/**
 * What an admin must be able to trust: no record is called healthy while Rancher or Cluster API reports it not
 * ready, and no finding's cause says a value is absent that its own evidence shows, over every scenario (the
 * 1,500 rounds of damaged input are in fuzz.test.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { diagnose, DEFAULT_CONFIG } from '@pkg/node-health/engine';
import { createTranslator } from '@pkg/node-health/report/translate';
import { buildScenario, SCENARIO_NAMES } from '../../../scenarios/catalog';
import { clusterObjects, diagnoseScenario, findingsByName, Shape } from './helpers';
import { contradictions, reportContradictions, silentNotReady } from './trust';

const t = createTranslator(load(readFileSync(join(__dirname, '../../../pkg/node-health/l10n/en-us.yaml'), 'utf8')), 'en-us');
const b64 = (s: string) => Buffer.from(s).toString('base64');
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v));

describe.each(['kubectl', 'steve', 'v1beta2'] as Shape[])('every scenario in %s shape', (shape) => {
  it.each([...SCENARIO_NAMES, 'large-300'])('%s: no record Rancher calls not ready is healthy or without a finding', (name) => {
    expect(silentNotReady(diagnoseScenario(buildScenario(name), shape), DEFAULT_CONFIG)).toStrictEqual([]);
  });

  it.each([...SCENARIO_NAMES, 'large-300'])('%s: no cause denies what its evidence shows', (name) => {
    expect(reportContradictions(diagnoseScenario(buildScenario(name), shape), t)).toStrictEqual([]);
  });
});

describe('the safety net', () => {
  const s = buildScenario('healthy');
  const objects = clone(clusterObjects(s, s.clusters[0].mgmtId)) as any[];
  const machine = objects.find((o) => o.kind === 'Machine' && o.metadata.labels['rke.cattle.io/worker-role'] === 'true');
  const name = machine.metadata.name;

  // A reason no rule knows, with the provider's own words, as Rancher would show it.
  Object.assign(machine.status.conditions.find((c: any) => c.type === 'InfrastructureReady'), {
    status: 'False', reason: 'ProviderQuotaExceeded', message: 'quota exceeded for instance family', lastTransitionTime: '2026-05-01T09:00:00Z'
  });

  it('fires when Rancher reports not ready and nothing else explains it, quoting its message and since when', () => {
    const record = diagnose(objects, { now: s.now }).records.find((r) => r.machineName === name)!;
    const net = record.findings.find((f) => f.rule === 'unexplained-not-ready')!;

    expect(record.status).toBe('warning');
    expect(String(net.args.signals)).toContain('InfrastructureReady False (ProviderQuotaExceeded): quota exceeded for instance family');
    expect(net.since).toBe('2026-05-01T09:00:00Z');
    expect(net.args.duration).toBe(60 * 60 * 1000);
  });

  it('waits for the start-up threshold, and fires exactly at it', () => {
    const at = (ms: number) => findingsByName(diagnose(objects, { now: s.now, config: { nodeStartupTimeoutMs: ms } })).get(name);

    expect(at(3600e3)).toStrictEqual(['unexplained-not-ready']);
    expect(at(3600e3 + 1)).toStrictEqual([]);
  });

  it('stays out of the way when another rule explains the record', () => {
    const every = buildScenario('every-failure');
    const report = diagnoseScenario(every);

    for (const r of report.records) {
      if (r.findings.some((f) => f.rule === 'unexplained-not-ready')) {
        expect(r.findings.map((f) => f.rule)).toStrictEqual(['unexplained-not-ready']);
      }
    }
    expect(findingsByName(report).get('custom-7a5b1e9c6f87')).toStrictEqual(['waiting-for-node-ref']);
  });
});

describe('a bootstrap machine whose agent applied and failed (the reported contradiction)', () => {
  const every = buildScenario('every-failure');
  const objects = clone(clusterObjects(every, every.clusters[0].mgmtId)) as any[];
  const name = 'custom-1e0c8f3a5b21';
  const secret = objects.find((o) => o.kind === 'Secret' && o.metadata.labels?.['rke.cattle.io/machine-name'] === name);
  const machine = objects.find((o) => o.kind === 'Machine' && o.metadata.name === name);

  // The planner still says "waiting for agent to check in": there is no appliedPlan. The agent did try.
  secret.data['last-apply-time'] = b64('Mon Jun 15 13:41:07 UTC 2026');
  secret.data['failure-count'] = b64('11');
  secret.data['failed-checksum'] = b64('0c9a5e1d7f3b2a8e6c4d0b9f1a7e3c5d2b8f6a4e0c1d9b7f3a5e2c8d6b4f0a1e');
  machine.status.conditions.push({
    type: 'PlanApplied', status: 'False', severity: 'Error', reason: 'Error', message: 'error applying plan -- check rancher-system-agent.service logs on node for more information', lastTransitionTime: '2026-06-15T13:41:07Z'
  });

  it('is a failed plan, not an agent that never checked in', () => {
    const rules = findingsByName(diagnose(objects, { now: every.now })).get(name);

    expect(rules).toContain('plan-apply-failed');
    expect(rules).not.toContain('agent-never-checked-in');
  });

  it('is a failed plan from the secret alone, with or without max-failures, and without the condition', () => {
    const withoutCondition = clone(objects);
    const m = withoutCondition.find((o: any) => o.kind === 'Machine' && o.metadata.name === name);

    m.status.conditions = m.status.conditions.filter((c: any) => c.type !== 'PlanApplied');
    expect(findingsByName(diagnose(withoutCondition, { now: every.now })).get(name)).toContain('plan-apply-failed');
    const s2 = withoutCondition.find((o: any) => o.kind === 'Secret' && o.metadata.labels?.['rke.cattle.io/machine-name'] === name);

    s2.data['max-failures'] = b64('20');
    expect(findingsByName(diagnose(withoutCondition, { now: every.now })).get(name)).toContain('plan-apply-failed');
  });

  it('a secret with only an apply time still rules out "never checked in"', () => {
    const applied = clone(objects);
    const m = applied.find((o: any) => o.kind === 'Machine' && o.metadata.name === name);
    const s2 = applied.find((o: any) => o.kind === 'Secret' && o.metadata.labels?.['rke.cattle.io/machine-name'] === name);

    m.status.conditions = m.status.conditions.filter((c: any) => c.type !== 'PlanApplied');
    delete s2.data['failure-count'];
    delete s2.data['failed-checksum'];
    const rules = findingsByName(diagnose(applied, { now: every.now })).get(name);

    expect(rules).not.toContain('agent-never-checked-in');
    expect(rules).not.toContain('plan-apply-failed');
  });

  it('the checker itself catches a cause that says "no apply time" next to an apply time', () => {
    const f = {
      rule:     'agent-never-checked-in',
      severity: 'error' as const,
      titleKey: 'nodeHealth.rules.agentNeverCheckedIn.title',
      causeKey: 'nodeHealth.rules.agentNeverCheckedIn.cause',
      args:     { duration: '3h', secret: 's' },
      evidence: [{
        object: 'Secret x', path: 'data.last-apply-time', value: 'Mon Jun 15 13:41:07 UTC 2026'
      }],
      fix:      [],
      since:    null,
      actions:  [],
    };

    expect(contradictions(f, t).length).toBeGreaterThan(0);
    expect(contradictions({
      ...f,
      evidence: [{
        object: 'Secret x', path: 'data.last-apply-time', value: null
      }]
    }, t)).toStrictEqual([]);
  });
});
