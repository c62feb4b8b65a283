/**
 * Every entry of every signal table is shown by at least one scenario that the embedded Rancher can serve, and
 * there the rule that reads it fires: a table entry nobody has seen in a cluster's objects is not covered.
 */
import { SIGNAL_TABLES, signalId } from '@pkg/node-health/engine/signals';
import type { SignalEntry, SignalTableId } from '@pkg/node-health/engine/signals';
import { PLANNER_MESSAGES } from '@pkg/node-health/engine/signals/planner';
import { MACHINE_ANNOTATION_SIGNALS } from '@pkg/node-health/engine/signals/machine';
import { INFRASTRUCTURE_SIGNALS } from '@pkg/node-health/engine/signals/infrastructure';
import type { InfrastructureSignal } from '@pkg/node-health/engine/signals/infrastructure';
import type { DiagnosisReport, KubeObject, NodeRecord } from '@pkg/node-health/engine';
import { SCENARIO_NAMES, buildScenario } from '../../../scenarios/catalog';
import { diagnoseScenario } from './helpers';

const reports: [string, DiagnosisReport][] = SCENARIO_NAMES.map((name) => [name, diagnoseScenario(buildScenario(name))]);

function conditionsOf(obj: KubeObject | undefined): any[] {
  const status = (obj as any)?.status ?? {};

  return [...(status.conditions ?? []), ...(status.v1beta2?.conditions ?? []), ...(status.deprecated?.v1beta1?.conditions ?? [])];
}

/** Whether a record's objects show an infrastructure entry as its writer writes it. */
function showsInfrastructure(r: NodeRecord, e: InfrastructureSignal): boolean {
  const infra = r.objects.infraMachine as any;
  const machine = r.objects.machine as any;

  switch (e.id) {
  case 'createJobFailed':
  case 'deleteJobFailed':
    return conditionsOf(infra).some((c) => c.type === e.conditionType && c.status === 'False' && e.pattern?.test(c.message ?? ''));
  case 'createError':
  case 'deleteError':
    return infra?.status?.failureReason === e.reason;
  case 'machineMirrorsDeleteError':
    // The rule reads it only where the infrastructure machine cannot be read (infra-delete.test.ts); here the Machine shows it.
    return conditionsOf(machine).some((c) => c.type === 'InfrastructureReady' && c.status !== 'True' && c.reason === 'DeleteError');
  case 'createCredentialRefused':
  case 'deleteCredentialRefused':
    return infra?.status?.failureReason === e.reason && !!e.pattern?.test(infra?.status?.failureMessage ?? '');
  case 'vmGone':
    return [infra?.status?.failureMessage, ...conditionsOf(infra).map((c) => c.message)].some((m) => typeof m === 'string' && e.pattern?.test(m));
  case 'objectGone':
    return !!machine?.spec?.infrastructureRef && !infra && !r.deleting;
  default:
    throw new Error(`no check for ${ e.id }`);
  }
}

function scenariosShowing(table: SignalTableId, e: SignalEntry): string[] {
  const id = signalId(table, e);

  return reports.filter(([, report]) => {
    if (table === 'planner') {
      const planner = PLANNER_MESSAGES.find((p) => p.id === e.id);

      return report.clusters.some((c) => (c.blockingMessage && planner?.pattern.test(c.blockingMessage)) || c.findings.some((f) => f.rule === e.rule && f.evidence.some((ev) => typeof ev.value === 'string' && planner?.pattern.test(ev.value)))) &&
        [...report.records.flatMap((r) => r.findings), ...report.clusters.flatMap((c) => c.findings)].some((f) => f.rule === e.rule);
    }
    if (table === 'infrastructure') {
      return report.records.some((r) => showsInfrastructure(r, e as InfrastructureSignal) && r.findings.some((f) => f.rule === e.rule));
    }

    return report.records.some((r) => r.findings.some((f) => f.signal === id));
  }).map(([name]) => name);
}

/** Entries no scenario shows yet (none): each would be built from its writer's source, as planner-messages.test.ts does. */
const NOT_YET_IN_A_SCENARIO: string[] = [];

describe('every signal-table entry', () => {
  const entries = SIGNAL_TABLES.flatMap((t) => t.entries.map((e) => [signalId(t.id, e), t.id, e] as const)).filter(([id]) => !NOT_YET_IN_A_SCENARIO.includes(id));

  it('has a check here for every infrastructure entry, and no entry waits for a scenario', () => {
    for (const e of INFRASTRUCTURE_SIGNALS) {
      expect(() => showsInfrastructure(reports[0][1].records[0], e)).not.toThrow();
    }
    expect(NOT_YET_IN_A_SCENARIO.every((id) => SIGNAL_TABLES.some((t) => t.entries.some((e) => signalId(t.id, e) === id)))).toBe(true);
  });

  it.each(entries)('%s is shown by a scenario, where its rule fires', (_, table, entry) => {
    expect(scenariosShowing(table, entry)).not.toStrictEqual([]);
  });
});

describe('a machine annotation\'s undo step', () => {
  const report = diagnoseScenario(buildScenario('signal-catalogue'));

  it.each(MACHINE_ANNOTATION_SIGNALS.map((s) => [s.id, s] as const))('%s removes the annotation its signal read, from that machine', (id, signal) => {
    const steps = report.records.flatMap((r) => r.findings.filter((f) => f.titleKey === `nodeHealth.signals.machineAnnotations.${ id }.title`)
      .flatMap((f) => f.fix.filter((s) => s.key.endsWith(`.fix.${ signal.undo }`)).map((s) => [r, s.command] as const)));

    expect(steps.length).toBeGreaterThan(0);
    for (const [r, command] of steps) {
      expect(command).toBe(`kubectl -n ${ r.machineNamespace } annotate machines.cluster.x-k8s.io -- ${ r.machineName } ${ signal.annotation }-`);
    }
  });
});
