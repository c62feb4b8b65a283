/**
 * A diagnosis of one record's objects (the record tab's scoped load): what only the whole cluster can tell is said in
 * a note on the record, and a record that lacks a part is never called healthy for want of the others.
 */
import { JOINED_NOTE, POOL_NOTE, RELATED_NOTE, WHOLE_CLUSTER_NOTE } from '@pkg/node-health/engine';
import type { DiagnosisReport, NodeRecord } from '@pkg/node-health/engine';
import { buildScenario, LEAVING_ETCD_MACHINE } from '../../../scenarios/catalog';
import { diagnoseScenario } from './helpers';

const notesOf = (r: NodeRecord | undefined) => (r?.notes ?? []).map((n) => n.key);

function countsOf(report: DiagnosisReport) {
  const counts = {
    healthy: 0, warning: 0, error: 0, unknown: 0
  };

  report.records.forEach((r) => counts[r.status]++);

  return counts;
}

describe('a scoped diagnosis', () => {
  it('leaves a whole diagnosis as it was', () => {
    const report = diagnoseScenario(buildScenario('join-keys'));

    expect(report.records.flatMap((r) => notesOf(r)).filter((k) => k.startsWith('nodeHealth.notes.scoped.'))).toEqual([]);
  });

  it('says of a Node without a machine that the whole cluster tells the rest, and calls it unknown rather than healthy', () => {
    const whole = diagnoseScenario(buildScenario('every-failure'));
    const scoped = diagnoseScenario(buildScenario('every-failure'), 'kubectl', { scoped: { poolRead: true } });
    const lacking = whole.records.filter((r) => r.cluster?.kind === 'provisioned' && !r.objects.machine && r.objects.node && r.status === 'healthy');

    expect(lacking.length).toBeGreaterThan(0);
    for (const r of lacking) {
      const s = scoped.records.find((x) => x.key === r.key);

      expect(notesOf(s)).toContain(WHOLE_CLUSTER_NOTE);
      expect(s?.status).toBe('unknown');
    }
    // The counts follow the statuses.
    expect(scoped.counts).toEqual(countsOf(scoped));
    // A complete record keeps its judgement, with the note that other machines' word on it is the cluster tab's.
    const complete = scoped.records.find((r) => r.objects.machine && r.objects.node) as NodeRecord;

    expect(notesOf(complete)).toEqual(expect.arrayContaining([RELATED_NOTE]));
    expect(notesOf(complete)).not.toContain(WHOLE_CLUSTER_NOTE);
    expect(complete.status).toBe(whole.records.find((r) => r.key === complete.key)?.status);
  });

  it('leaves an imported cluster\'s Nodes without a note: no machine can claim them', () => {
    const scoped = diagnoseScenario(buildScenario('imported'), 'kubectl', { scoped: { poolRead: true } });
    const imported = scoped.records.filter((r) => r.cluster?.kind === 'imported');

    expect(imported.length).toBeGreaterThan(0);
    expect(imported.flatMap((r) => notesOf(r)).filter((k) => k.startsWith('nodeHealth.notes.scoped.'))).toEqual([]);
  });

  it('drops a pool comparison made over a pool not read in full, and says the joined machines are the cluster tab\'s', () => {
    const whole = diagnoseScenario(buildScenario('every-failure'));
    const scoped = diagnoseScenario(buildScenario('every-failure'), 'kubectl', { scoped: { poolRead: false } });
    const compared = whole.records.filter((r) => r.pool);

    expect(compared.length).toBeGreaterThan(0);
    for (const r of compared) {
      const s = scoped.records.find((x) => x.key === r.key);

      expect(s?.pool).toBeUndefined();
      expect(notesOf(s)).toContain(POOL_NOTE);
    }
    const leaving = diagnoseScenario(buildScenario('etcd-hook'), 'kubectl', { scoped: { poolRead: true } }).records.find((r) => r.machineName === LEAVING_ETCD_MACHINE);

    expect(leaving?.findings.map((f) => f.rule)).toContain('etcd-removal-hook-blocked');
    expect(notesOf(leaving)).toContain(JOINED_NOTE);
  });
});

describe('a scoped diagnosis of a cluster without workers', () => {
  const rules = (report: DiagnosisReport) => report.clusters.flatMap((c) => c.findings.map((f) => f.rule));

  it('says a role is missing only where the load told whether there is a worker', () => {
    expect(rules(diagnoseScenario(buildScenario('no-worker')))).toContain('role-missing');
    expect(rules(diagnoseScenario(buildScenario('no-worker'), 'kubectl', { scoped: { poolRead: true, workers: false } }))).toContain('role-missing');
    expect(rules(diagnoseScenario(buildScenario('no-worker'), 'kubectl', { scoped: { poolRead: true } }))).not.toContain('role-missing');
    expect(rules(diagnoseScenario(buildScenario('healthy'), 'kubectl', { scoped: { poolRead: true, workers: true } }))).not.toContain('role-missing');
  });
});
