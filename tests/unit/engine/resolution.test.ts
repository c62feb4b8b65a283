/**
 * One plan per record and per cluster: the root cause first, each step once, nothing the record's state has
 * already done, and consequences after their cause. Checked on every scenario, whose `expected` lists were
 * written with the root cause first, independently of the engine's `explains` table.
 */
import {
  buildScenario, GHOST_MACHINE, LEAVING_ETCD_MACHINE, SCENARIO_NAMES, WINDOWS_NO_PROVIDER_ID_MACHINE
} from '../../../scenarios/catalog';
import { rootCauseOf } from '@pkg/node-health/engine/resolution';
import { leadFinding, topFinding } from '@pkg/node-health/engine';
import type { Finding } from '@pkg/node-health/engine';
import { RULES } from '@pkg/node-health/engine/rules';
import { diagnoseScenario, recordName } from './helpers';

const EXPLAINS = new Map(RULES.map((r) => [r.id, r.explains ?? []]));

function finding(rule: string, severity: Finding['severity'] = 'error', explains?: string[]): Finding {
  return {
    rule, severity, titleKey: 't', causeKey: 'c', args: {}, evidence: [], fix: [], since: null, actions: [], ...(explains ? { explains } : {})
  };
}

describe('every scenario', () => {
  for (const name of SCENARIO_NAMES) {
    it(`${ name }: each record's plan leads with its root cause and asks for each step once`, () => {
      const s = buildScenario(name);
      const report = diagnoseScenario(s);

      for (const r of report.records) {
        const plan = r.resolution;

        expect(plan).toBeDefined();
        if (!plan) {
          continue;
        }
        const rules = r.findings.map((f) => f.rule);

        if (rules.length === 0) {
          expect(plan).toEqual({
            rootCause: null, consequences: [], steps: []
          });
          continue;
        }
        expect(rules).toContain(plan.rootCause);
        // The scenario's author named the root cause first: the plan's is that one, or a finding that explains it.
        const expectedRoot = s.expected[recordName(r)]?.[0];

        if (expectedRoot && plan.rootCause !== expectedRoot) {
          expect(EXPLAINS.get(plan.rootCause as string)).toContain(expectedRoot);
        }
        const seen = new Set<string>();
        // A command is run once: a later step that only runs it again (no action of its own) says nothing new.
        const commands = new Set<string>();

        for (const step of plan.steps) {
          const id = JSON.stringify([step.key, step.args ?? {}, step.command ?? null]);

          expect(seen.has(id)).toBe(false);
          seen.add(id);
          if (step.command && !step.act) {
            expect([step.key, commands.has(step.command)]).toEqual([step.key, false]);
          }
          if (step.command) {
            commands.add(step.command);
          }
          expect(rules).toContain(step.rule);
        }
        const acts = plan.steps.map((st) => st.act).filter(Boolean);

        expect(new Set(acts).size).toBe(acts.length);
        // A machine the cluster waits for is never sent back to the cluster's wait: the two would point at each other.
        if (r.machineName && r.cluster?.blockingMachines?.includes(r.machineName)) {
          expect(plan.steps.map((st) => st.key)).not.toContain('nodeHealth.rules.waitingForNodeRef.fix.seeCluster');
        }
        if (r.deleting) {
          expect(acts).not.toContain('delete-machine');
        }
        // Its own steps come first.
        if (plan.steps.length && r.findings.find((f) => f.rule === plan.rootCause)?.fix.length) {
          expect(plan.steps[0].rule).toBe(plan.rootCause);
        }
        expect(plan.consequences).not.toContain(plan.rootCause);
        // The row names what the plan leads with; the status stays the worst finding's.
        expect(leadFinding(r)?.rule).toBe(plan.rootCause);
        const worst = topFinding(r);

        if (worst && worst.severity !== 'info') {
          expect(r.status).toBe(worst.severity);
        }
      }
    });
  }
});

describe('leadFinding', () => {
  it('is the root cause where a finding explains a worse one, the worst finding without a plan, and none without findings', () => {
    const cause = finding('agent-never-checked-in', 'warning', ['blocking-cluster-operation']);
    const worse = finding('blocking-cluster-operation', 'error');
    const rootCause = {
      rootCause: cause.rule, consequences: [worse.rule], steps: []
    };

    expect(leadFinding({ findings: [worse, cause], resolution: rootCause })).toBe(cause);
    expect(topFinding({ findings: [worse, cause] })).toBe(worse);
    expect(leadFinding({ findings: [worse, cause] })).toBe(worse);
    // A plan naming a rule the record no longer has (a stale plan) does not hide the worst finding.
    expect(leadFinding({ findings: [worse], resolution: rootCause })).toBe(worse);
    expect(leadFinding({
      findings:   [],
      resolution: {
        rootCause: null, consequences: [], steps: []
      }
    })).toBeNull();
  });
});

describe('the etcd machine held by Rancher\'s removal hook (prod-rke2)', () => {
  const report = diagnoseScenario(buildScenario('etcd-hook'));
  const plan = report.records.find((r) => r.machineName === LEAVING_ETCD_MACHINE)?.resolution;

  it('leads with the etcd finding and does not point back at it, nor ask who set the hook it names', () => {
    const keys = plan?.steps.map((s) => s.key) ?? [];

    expect(plan?.rootCause).toBe('etcd-removal-hook-blocked');
    expect(plan?.consequences).toContain('stuck-deleting');
    expect(keys).not.toContain('nodeHealth.rules.stuckDeleting.fix.etcdFirst');
    expect(keys.filter((k) => k.startsWith('nodeHealth.signals.deletionStages.'))).toEqual([]);
    expect(keys.slice(0, 4)).toEqual(['memberList', 'joinedNodes', 'forceRemove', 'finalizersAfter'].map((k) => `nodeHealth.rules.etcdRemovalHookBlocked.fix.${ k }`));
  });
});

describe('the ghost etcd machine (dev-k3s)', () => {
  const report = diagnoseScenario(buildScenario('ghost-etcd'));
  const ghost = report.records.find((r) => r.machineName === GHOST_MACHINE);
  const plan = ghost?.resolution;

  it('leads with the agent that never checked in, and shows the held-back cluster and the stuck delete as its consequences', () => {
    expect(ghost?.findings[0].rule).toBe('blocking-cluster-operation');
    expect(plan?.rootCause).toBe('agent-never-checked-in');
    expect(plan?.consequences).toEqual(['stuck-deleting', 'blocking-cluster-operation']);
  });

  it('does not tell to delete a machine that is deleting, nor to settle "its own problem below"', () => {
    const keys = plan?.steps.map((s) => s.key) ?? [];

    expect(keys).not.toContain('nodeHealth.rules.blockingClusterOperation.fix.removeIfGone');
    expect(keys).not.toContain('nodeHealth.rules.agentNeverCheckedIn.fix.hostGone');
    expect(keys).not.toContain('nodeHealth.rules.blockingClusterOperation.fix.fixThisMachine');
  });

  it('re-registers the host last, after the deletion, once', () => {
    const keys = plan?.steps.map((s) => s.key) ?? [];
    const reRegister = plan?.steps.filter((s) => s.act === 're-register') ?? [];

    expect(reRegister.map((s) => s.key)).toEqual(['nodeHealth.rules.agentNeverCheckedIn.fix.reRegisterAfterDelete']);
    expect(keys[keys.length - 1]).toBe('nodeHealth.rules.agentNeverCheckedIn.fix.reRegisterAfterDelete');
    expect(keys.indexOf('nodeHealth.rules.stuckDeleting.fix.lastResort')).toBeGreaterThan(-1);
  });

  it('gives the cluster one first thing to do: settle that machine', () => {
    const cluster = report.clusters.find((c) => c.name === 'dev-k3s');

    expect(cluster?.resolution?.first).toEqual([ghost?.key]);
    expect(cluster?.resolution?.steps).toEqual([
      expect.objectContaining({ key: 'nodeHealth.plan.settleFirst', args: { machine: GHOST_MACHINE, rule: 'agent-never-checked-in' } }),
    ]);
  });
});

describe('a Windows worker whose own Node has the lower-case name and no providerID', () => {
  const report = diagnoseScenario(buildScenario('windows-provider-id'));
  const r = report.records.find((x) => x.machineName === WINDOWS_NO_PROVIDER_ID_MACHINE);

  it('leads with the providerID and never tells to re-register or remove the Node that is its own', () => {
    expect(r?.resolution?.rootCause).toBe('provider-id-missing');
    const keys = r?.resolution?.steps.map((s) => s.key) ?? [];

    expect(keys).toContain('nodeHealth.rules.nodeNameMismatch.fix.ownNode');
    expect(keys).not.toContain('nodeHealth.rules.nodeNameMismatch.fix.removeStaleNode');
    expect(keys).not.toContain('nodeHealth.rules.nodeNameMismatch.fix.reRegisterLower');
  });
});

describe('rootCauseOf', () => {
  it('is the first finding no other explains', () => {
    expect(rootCauseOf([finding('blocking-cluster-operation'), finding('stuck-deleting'), finding('agent-never-checked-in')])?.rule).toBe('agent-never-checked-in');
  });

  it('takes a hit\'s own explains over its rule\'s', () => {
    const own = finding('node-name-mismatch', 'warning', ['waiting-for-node-ref']);

    expect(rootCauseOf([finding('provider-id-missing'), own])?.rule).toBe('provider-id-missing');
    expect(rootCauseOf([finding('provider-id-missing'), finding('node-name-mismatch', 'warning')])?.rule).toBe('node-name-mismatch');
  });

  it('keeps the first finding when the findings explain each other', () => {
    expect(rootCauseOf([finding('a', 'error', ['b']), finding('b', 'error', ['a'])])?.rule).toBe('a');
  });

  it('leads with a problem, not a remark', () => {
    expect(rootCauseOf([finding('x', 'info'), finding('y', 'warning')])?.rule).toBe('y');
    expect(rootCauseOf([])).toBeNull();
  });
});
