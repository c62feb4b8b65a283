/**
 * The engine against independently designed scenarios: every expected failure family is found on the right
 * machine or node, nothing else fires except the symptoms a root cause explains, and healthy nodes stay
 * silent — in kubectl shape, Steve shape and Cluster API v1beta2 alike.
 */
import {
  buildScenario, SCENARIO_NAMES, GHOST_MACHINE, WINDOWS_CASE_MACHINE, WINDOWS_VM_GONE_MACHINE
} from '../../../scenarios/catalog';
import type { Scenario } from '../../../scenarios/types';
import { linkChain } from '@pkg/node-health/engine';
import { diagnoseScenario, findingsByName, recordName, Shape } from './helpers';

/** Findings that may accompany a root cause because they are its visible symptoms. */
const COMPANIONS: Record<string, string[]> = {
  'agent-never-checked-in':       ['waiting-for-node-ref', 'blocking-cluster-operation'],
  'infrastructure-missing':       ['waiting-for-node-ref', 'blocking-cluster-operation'],
  'infrastructure-create-failed': ['waiting-for-node-ref', 'blocking-cluster-operation'],
  // The Node found under the other spelling carries no providerID either: Cluster API could not link it.
  'node-name-mismatch':           ['waiting-for-node-ref', 'provider-id-missing'],
  'etcd-removal-hook-blocked':    ['stuck-deleting', 'blocking-cluster-operation'],
  'stuck-deleting':               ['blocking-cluster-operation'],
  'plan-not-applied':             ['blocking-cluster-operation'],
  'plan-apply-failed':            ['blocking-cluster-operation'],
  'probes-failing':               ['blocking-cluster-operation'],
  'blocking-cluster-operation':   ['plan-not-applied'],
  'provider-id-missing':          ['waiting-for-node-ref', 'blocking-cluster-operation'],
  'serving-certs-expired':        ['probes-failing', 'blocking-cluster-operation'],
  'kubelet-version-skew':         ['blocking-cluster-operation'],
  'drain-stuck':                  ['blocking-cluster-operation'],
  'duplicate-node-name':          ['waiting-for-node-ref', 'blocking-cluster-operation'],
};

function allowed(expected: string[]): Set<string> {
  return new Set(expected.flatMap((e) => [e, ...(COMPANIONS[e] ?? [])]));
}

function check(s: Scenario, shape: Shape): string[] {
  const problems: string[] = [];
  const report = diagnoseScenario(s, shape);
  const got = findingsByName(report);

  for (const [name, expected] of Object.entries(s.expected)) {
    const rules = got.get(name);

    if (!rules) {
      problems.push(`${ name }: no record`);
      continue;
    }
    for (const e of expected) {
      if (!rules.includes(e)) {
        problems.push(`${ name }: expected ${ e }, got [${ rules.join(', ') }]`);
      }
    }
    const ok = allowed(expected);

    for (const r of rules) {
      if (!ok.has(r)) {
        problems.push(`${ name }: unexpected ${ r } (expected [${ expected.join(', ') }])`);
      }
    }
  }
  for (const r of report.records) {
    const name = recordName(r);

    if (!(name in s.expected) && r.status !== 'healthy') {
      problems.push(`${ name }: expected healthy, got ${ r.status } [${ r.findings.map((f) => f.rule).join(', ') }] ${ JSON.stringify(r.notes) }`);
    }
  }
  for (const c of report.clusters) {
    const expected = s.expectedClusters?.[c.name] ?? [];
    const got = c.findings.map((f) => f.rule);

    if (JSON.stringify([...got].sort()) !== JSON.stringify([...expected].sort())) {
      problems.push(`cluster ${ c.name }: expected [${ expected.join(', ') }], got [${ got.join(', ') }]`);
    }
  }

  return problems;
}

describe.each(['kubectl', 'steve', 'v1beta2'] as Shape[])('scenarios in %s shape', (shape) => {
  it.each([...SCENARIO_NAMES])('%s: expected findings, and nothing on healthy nodes', (name) => {
    expect(check(buildScenario(name), shape)).toStrictEqual([]);
  });

  it('a 300-node synthetic cluster with a few percent broken', () => {
    expect(check(buildScenario('large-300', { seed: 7 }), shape)).toStrictEqual([]);
  });
});

describe('seed case 1: the ghost etcd machine', () => {
  const s = buildScenario('ghost-etcd');
  const report = diagnoseScenario(s, 'steve');
  const ghost = report.records.find((r) => r.machineName === GHOST_MACHINE && r.objects.machine)!;

  it('names the ghost as the machine the cluster waits for, with the cluster condition as evidence', () => {
    const cluster = report.clusters[0];

    expect(cluster.blockingMachines).toStrictEqual([GHOST_MACHINE]);
    expect(cluster.certificateRotation).toBeNull();
    const blocking = ghost.findings.find((f) => f.rule === 'blocking-cluster-operation')!;

    expect(blocking.evidence.map((e) => e.value)).toContain(cluster.blockingMessage);
    expect(ghost.status).toBe('error');
  });

  it('explains the agent never checked in, and tells how to find the host by its plan secret', () => {
    const agent = ghost.findings.find((f) => f.rule === 'agent-never-checked-in')!;

    expect(agent.args.secret).toBe(`${ GHOST_MACHINE }-machine-plan`);
    expect(agent.fix[0].args?.secret).toBe(`${ GHOST_MACHINE }-machine-plan`);
    expect(agent.fix[0].command).toContain('rancher2_connection_info.json');
    expect(agent.evidence.find((e) => e.path === 'data.applied-checksum')?.value).toBeNull();
    expect(agent.actions).toContain('re-register');
  });

  it('offers the finalizer cleanup only because the machine is stuck deleting', () => {
    const stuck = ghost.findings.find((f) => f.rule === 'stuck-deleting')!;

    expect(stuck.actions).toStrictEqual(['remove-finalizers']);
    expect(report.records.filter((r) => r.findings.some((f) => f.actions.includes('remove-finalizers'))).map((r) => r.machineName)).toStrictEqual([GHOST_MACHINE]);
  });

  it('shows the chain with the plan secret waiting and, for its Node, the host it most likely is, not linked', () => {
    const chain = Object.fromEntries(linkChain(ghost).map((l) => [l.kind, l.state]));

    expect(chain).toMatchObject({
      machine: 'waiting', planSecret: 'waiting', node: 'unlinked'
    });
    expect(linkChain(ghost).find((l) => l.kind === 'node')?.name).toBe('dev-k8s-node01');
    expect(ghost.host.planSecretName).toBe(`${ GHOST_MACHINE }-machine-plan`);
  });
});

describe('seed case 2: Windows workers waiting for node ref', () => {
  const s = buildScenario('windows-node-ref');
  const report = diagnoseScenario(s);
  const byName = findingsByName(report);

  it('blames the vanished VM, not the agent, for the first worker', () => {
    expect(byName.get(WINDOWS_VM_GONE_MACHINE)).toContain('infrastructure-missing');
    expect(byName.get(WINDOWS_VM_GONE_MACHINE)).not.toContain('agent-never-checked-in');
    const record = report.records.find((r) => r.machineName === WINDOWS_VM_GONE_MACHINE)!;
    const infra = record.findings.find((f) => f.rule === 'infrastructure-missing')!;

    expect(String(infra.evidence[0].value)).toMatch(/vm/i);
    expect(linkChain(record).find((l) => l.kind === 'infraMachine')).toMatchObject({ state: 'failed', detail: infra.evidence[0].value });
    // A node-driver machine: its VM is looked for at the provider, and its pool replaces it.
    expect(infra.args?.custom).toBe('no');
    expect(infra.fix.map((f) => f.key.split('.').pop())).toStrictEqual(['checkProvider', 'restoreOrReplace', 'deleteMachine', 'ifStuck']);
  });

  it('tells a custom host whose CustomMachine was deleted to register again, not to look for a VM or wait for a pool', () => {
    const custom = diagnoseScenario(buildScenario('every-failure')).records.find((r) => r.nodeName === 'ef-wk-infra-gone')!;
    const infra = custom.findings.find((f) => f.rule === 'infrastructure-missing')!;

    expect(infra.args).toMatchObject({ custom: 'yes', kind: 'CustomMachine' });
    expect(infra.fix[0].args).toEqual({ node: 'ef-wk-infra-gone' });
    // Since Cluster API said it was deleted, not since the machine was created four months before.
    expect(infra.since).toBe((custom.objects.machine as any).status.conditions.find((c: any) => c.type === 'InfrastructureReady').lastTransitionTime);
    expect(infra.since).not.toBe(custom.created);
    expect(infra.fix.map((f) => [f.key.split('.').pop(), f.act])).toStrictEqual([
      ['checkHost', undefined], ['deleteCustom', 'delete-machine'], ['ifStuckCustom', 'remove-finalizers'], ['reRegister', 're-register'],
    ]);
    expect(custom.resolution?.steps.map((f) => f.key.split('.').pop())).toStrictEqual(['checkHost', 'deleteCustom', 'ifStuckCustom', 'reRegister']);
    // Its host still runs: the delete is one to plan, in the step's words too.
    expect(infra.fix[1].args).toEqual({ running: 'yes' });
    // The registration command is offered; the delete is not, while the host's Node is alive.
    expect(custom.preflight?.map((p) => [p.id, p.allowed])).toStrictEqual([['re-register', true]]);
  });

  it('explains the upper-case host name and the lower-case Node', () => {
    const record = report.records.find((r) => r.machineName === WINDOWS_CASE_MACHINE)!;
    const mismatch = record.findings.find((f) => f.rule === 'node-name-mismatch')!;

    expect(mismatch.args).toMatchObject({ expected: 'WIN-WORKER-01', registered: 'win-worker-01' });
    // That Node is this host already: the machine's label on it is what is missing, not a new name.
    expect(mismatch.fix.map((f) => f.command).filter(Boolean)).toStrictEqual([
      `kubectl label node -- win-worker-01 rke.cattle.io/machine=${ record.objects.machine?.metadata.uid }`,
    ]);
  });

  it('does not call the lower-case Node an orphan: it points to its machine', () => {
    const node = report.records.find((r) => r.nodeName === 'win-worker-01' && !r.objects.machine);

    expect(node?.findings.map((f) => f.rule) ?? []).toStrictEqual(['related-record']);
  });
});
