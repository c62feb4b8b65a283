/**
 * Per-rule behaviour: each rule fires on its case and stays silent on the near misses — the same machine
 * before its threshold, with the input it needs unreadable, or with the one field that makes it a problem
 * put right.
 */
import {
  diagnose, linkChain, RULES, RULE_IDS, DEFAULT_CONFIG
} from '@pkg/node-health/engine';
import {
  buildScenario, EVERY_FAILURE_EXPECTED, GHOST_MACHINE, LEAVING_ETCD_MACHINE, MHC_BLOCKED_MACHINES
} from '../../../scenarios/catalog';
import { execFileSync } from 'child_process';
import { readFileSync } from 'fs';
import { join } from 'path';
import { load } from 'js-yaml';
import { createTranslator } from '@pkg/node-health/report/translate';
import type { Finding } from '@pkg/node-health/engine';
import { clusterObjects, diagnoseScenario, findingsByName } from './helpers';

const every = buildScenario('every-failure');
const everyId = every.clusters[0].mgmtId;
const everyObjects = clusterObjects(every, everyId);

function rulesFor(objects: unknown[], name: string, options: Record<string, unknown> = {}): string[] {
  const report = diagnose(objects, {
    now: every.now, defaultCluster: everyId, ...options
  });

  return findingsByName(report).get(name) ?? [];
}

function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v));
}

function byName(objects: any[], kind: string, name: string): any {
  return objects.find((o) => o.kind === kind && o.metadata?.name === name);
}

describe('the catalogue', () => {
  it('has every required rule id, each once', () => {
    const required = ['agent-never-checked-in', 'plan-not-applied', 'plan-apply-failed', 'probes-failing', 'blocking-cluster-operation',
      'stuck-deleting', 'etcd-removal-hook-blocked', 'waiting-for-node-ref', 'infrastructure-missing', 'node-name-mismatch', 'orphan-node',
      'node-missing', 'node-not-ready', 'plan-secret-missing', 'machine-missing'];

    expect(RULE_IDS).toEqual(expect.arrayContaining(required));
    expect(new Set(RULE_IDS).size).toBe(RULE_IDS.length);
    for (const rule of RULES) {
      expect(['error', 'warning', 'info']).toContain(rule.severity);
    }
  });

  it('every family of the every-failure cluster is found on its machine or node', () => {
    const found = findingsByName(diagnose(everyObjects, { now: every.now, defaultCluster: everyId }));
    const missing = Object.entries(EVERY_FAILURE_EXPECTED).filter(([name, family]) => !(found.get(name) ?? []).includes(family));

    expect(missing).toStrictEqual([]);
  });

  it('stays silent on a healthy cluster', () => {
    const report = diagnoseScenario(buildScenario('healthy'), 'steve');

    expect(report.records.length).toBeGreaterThan(0);
    expect(report.records.flatMap((r) => r.findings)).toStrictEqual([]);
    expect(report.counts).toMatchObject({
      healthy: report.records.length, error: 0, warning: 0, unknown: 0
    });
  });
});

describe('time thresholds', () => {
  it('a machine waiting for its agent is not reported before the check-in threshold', () => {
    const agentGone = 'custom-1e0c8f3a5b21';

    expect(rulesFor(everyObjects, agentGone)).toContain('agent-never-checked-in');
    expect(rulesFor(everyObjects, agentGone, { config: { agentCheckInTimeoutMs: 24 * 3600e3, nodeStartupTimeoutMs: 24 * 3600e3 } })).toStrictEqual([]);
  });

  it('a plan waiting for less than the threshold is still being applied, not stuck', () => {
    const pending = 'custom-2b7d4e9c1a32';

    expect(rulesFor(everyObjects, pending)).toContain('plan-not-applied');
    expect(rulesFor(everyObjects, pending, { config: { planApplyTimeoutMs: 3600e3 } })).not.toContain('plan-not-applied');
  });

  it('a deletion younger than the threshold is not stuck, and offers no finalizer cleanup', () => {
    const deleting = 'custom-5e3f9c7a4d65';
    const report = diagnose(everyObjects, {
      now: every.now, defaultCluster: everyId, config: { stuckDeletingTimeoutMs: 3 * 3600e3 }
    });
    const record = report.records.find((r) => r.machineName === deleting && r.objects.machine)!;

    expect(record.findings.map((f) => f.rule)).not.toContain('stuck-deleting');
    expect(record.findings.flatMap((f) => f.actions)).not.toContain('remove-finalizers');
  });

  it('a Node not ready for less than the threshold is not reported', () => {
    expect(rulesFor(everyObjects, 'custom-c2a0d6e4b3f2')).toContain('node-not-ready');
    expect(rulesFor(everyObjects, 'custom-c2a0d6e4b3f2', { config: { nodeNotReadyTimeoutMs: 3600e3 } })).not.toContain('node-not-ready');
  });

  it('the default thresholds follow Cluster API: 10 minutes for a node to start', () => {
    expect(DEFAULT_CONFIG.nodeStartupTimeoutMs).toBe(10 * 60e3);
  });

  it('results depend on the given now, not on the clock', () => {
    const a = diagnose(everyObjects, { now: every.now, defaultCluster: everyId });
    const b = diagnose(everyObjects, { now: Date.parse(every.now), defaultCluster: everyId });

    expect(JSON.stringify(a.records.map((r) => r.findings))).toBe(JSON.stringify(b.records.map((r) => r.findings)));
  });
});

describe('near misses', () => {
  it('failing probes in the plan Secret are reported while the planner still says Reconciled True (it has not reached that tier)', () => {
    const objects = clone(everyObjects) as any[];
    const m = byName(objects, 'Machine', 'custom-4d2e8b6f3c54');

    m.status.conditions = m.status.conditions.map((c: any) => (c.type === 'Reconciled' ? {
      type: 'Reconciled', status: 'True', reason: 'Reconciled', lastTransitionTime: c.lastTransitionTime
    } : c));
    const report = diagnose(objects, { now: every.now });
    const record = report.records.find((r) => r.machineName === 'custom-4d2e8b6f3c54')!;

    expect(record.findings.map((f) => f.rule)).toContain('probes-failing');
    expect(record.findings.find((f) => f.rule === 'probes-failing')!.args.probes).toBe('kube-apiserver');
    expect(record.status).not.toBe('healthy');
  });

  it('a machine with its finalizers already gone is not stuck deleting', () => {
    const objects = clone(everyObjects) as any[];

    byName(objects, 'Machine', 'custom-5e3f9c7a4d65').metadata.finalizers = [];
    expect(rulesFor(objects, 'custom-5e3f9c7a4d65')).not.toContain('stuck-deleting');
  });

  it('an etcd machine whose hook has succeeded is not held by it', () => {
    const s = buildScenario('etcd-hook');
    const objects = clone(clusterObjects(s, s.clusters[0].mgmtId)) as any[];
    const machine = byName(objects, 'Machine', LEAVING_ETCD_MACHINE);

    for (const c of machine.status.conditions) {
      if (c.type === 'PreTerminateDeleteHookSucceeded') {
        c.status = 'True';
      }
    }
    delete machine.metadata.annotations['pre-terminate.delete.hook.machine.cluster.x-k8s.io/rke-bootstrap-cleanup'];
    const rules = findingsByName(diagnose(objects, { now: s.now })).get(LEAVING_ETCD_MACHINE) ?? [];

    expect(rules).not.toContain('etcd-removal-hook-blocked');
    expect(rules).toContain('stuck-deleting');
  });

  it('names the machines that joined the cluster through the leaving etcd node', () => {
    const s = buildScenario('etcd-hook');
    const record = diagnoseScenario(s).records.find((r) => r.machineName === LEAVING_ETCD_MACHINE && r.objects.machine)!;
    const hook = record.findings.find((f) => f.rule === 'etcd-removal-hook-blocked')!;
    const joinedHost = s.objects.find((o: any) => o.kind === 'Secret' && o.metadata.annotations?.['rke.cattle.io/joined-to'] && o.metadata.labels?.['rke.cattle.io/control-plane-role'] === 'true') as any;

    expect(hook.args.joined).toBe(joinedHost.metadata.labels['rke.cattle.io/machine-name']);
    expect(hook.fix.map((f) => f.key)).toContain('nodeHealth.rules.etcdRemovalHookBlocked.fix.joinedNodes');
  });

  it('the etcd release is offered while the bootstrap is not yet annotated, and not after', () => {
    const s = buildScenario('etcd-hook');
    const objects = clone(clusterObjects(s, s.clusters[0].mgmtId)) as any[];
    const find = () => diagnose(objects, { now: s.now }).records.find((r) => r.machineName === LEAVING_ETCD_MACHINE && r.objects.machine)!
      .findings.find((f) => f.rule === 'etcd-removal-hook-blocked')!;

    expect(find().actions).toStrictEqual(['etcd-force-remove']);
    const bootstrap = objects.find((o) => o.kind === 'RKEBootstrap' && o.metadata.name === find().evidence.find((e) => e.object.startsWith('RKEBootstrap'))!.object.split('/')[1]);

    bootstrap.metadata.annotations = { ...(bootstrap.metadata.annotations ?? {}), 'rke.cattle.io/etcd-force-remove': 'true' };
    expect(find().actions).toStrictEqual([]);
  });

  it('a cluster message that names other machines does not blame this one, and "and N more" names nobody', () => {
    const s = buildScenario('ghost-etcd');
    const objects = clone(clusterObjects(s, s.clusters[0].mgmtId)) as any[];
    const cluster = objects.find((o) => o.kind === 'Cluster');

    for (const c of cluster.status.conditions) {
      if (c.message) {
        c.message = 'configuring worker node(s) custom-3524fa7f0d71,custom-3b154219b4e1 and 10 more';
      }
    }
    const report = diagnose(objects, { now: s.now });

    expect(report.clusters[0].blockingMachines).toStrictEqual(['custom-3524fa7f0d71', 'custom-3b154219b4e1']);
    expect(findingsByName(report).get(GHOST_MACHINE)).not.toContain('blocking-cluster-operation');
  });

  // Every form of pkg/capr/planner that names machines (planner.go reconcile, setMachineConditionStatus; etcdrestore.go).
  it.each([
    ['configuring etcd node(s) {m}: waiting for plan to be applied'],
    ['draining worker node(s) {m}: draining node'],
    ['uncordoning control plane node(s) {m}'],
    ['non-ready etcd machine(s) {m}: Node condition Ready is False'],
    ['failing bootstrap machine(s) {m}: error applying plan -- check rancher-system-agent.service logs on node for more information'],
    ['non-ready bootstrap machine(s) {m} and join url to be available on bootstrap node'],
    ['failing etcd machine(s) custom-0a1b2c3d4e5f,{m}'],
    ['waiting to stop rke2 services on machine [{m}]'],
  ])('the planner\'s "%s" names the machine it waits for', (form) => {
    const s = buildScenario('ghost-etcd');
    const objects = clone(clusterObjects(s, s.clusters[0].mgmtId)) as any[];
    const cluster = objects.find((o) => o.kind === 'Cluster' && o.apiVersion.startsWith('provisioning'));

    cluster.status.conditions = cluster.status.conditions.map((c: any) => (c.type === 'Updated' ? {
      ...c, status: 'Unknown', reason: 'Waiting', message: form.replace('{m}', GHOST_MACHINE)
    } : {
      ...c, status: 'True', message: undefined
    }));
    const report = diagnose(objects, { now: s.now });

    expect(report.clusters[0].blockingMachines).toStrictEqual([GHOST_MACHINE]);
    expect(report.clusters[0].blockingCondition).toBe('Updated');
    expect(findingsByName(report).get(GHOST_MACHINE)).toContain('blocking-cluster-operation');
  });

  it('a machine whose Node is Ready again is not reported', () => {
    const objects = clone(everyObjects) as any[];
    const node = objects.find((o) => o.kind === 'Node' && o.apiVersion === 'v1' && o.metadata.labels?.['rke.cattle.io/machine'] === byName(objects, 'Machine', 'custom-c2a0d6e4b3f2').metadata.uid);

    node.status.conditions.find((c: any) => c.type === 'Ready').status = 'True';
    // The node lifecycle controller lifts its not-ready taints as the Node turns Ready.
    node.spec.taints = (node.spec.taints ?? []).filter((t: any) => !['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable'].includes(t.key));
    // Cluster API follows the Node: until it does, its NodeHealthy False is Rancher saying "not ready".
    expect(rulesFor(objects, 'custom-c2a0d6e4b3f2')).toStrictEqual(['unexplained-not-ready']);
    byName(objects, 'Machine', 'custom-c2a0d6e4b3f2').status.conditions.find((c: any) => c.type === 'NodeHealthy').status = 'True';
    expect(rulesFor(objects, 'custom-c2a0d6e4b3f2')).toStrictEqual([]);
  });

  it('a Windows Server 2019 worker with 8 GiB is fine', () => {
    const objects = clone(everyObjects) as any[];

    for (const o of objects) {
      if (o.kind === 'Node' && o.apiVersion === 'v1' && o.status?.nodeInfo?.operatingSystem === 'windows') {
        o.status.nodeInfo.osImage = 'Windows Server 2019 Datacenter';
        o.status.capacity.memory = '8Gi';
      }
    }
    expect(rulesFor(objects, 'custom-f5d3a9b7e6c5')).toStrictEqual([]);
    expect(rulesFor(objects, 'custom-06e4b0c8f7d6')).toStrictEqual([]);
  });
});

describe('unreadable inputs', () => {
  it('without plan secrets the diagnosis still comes from Machine conditions, and no secret is called missing', () => {
    const objects = everyObjects.filter((o: any) => o.kind !== 'Secret');
    const report = diagnose(objects, {
      now: every.now, defaultCluster: everyId, availability: { planSecrets: 'forbidden' }
    });
    const found = findingsByName(report);

    expect(found.get('custom-1e0c8f3a5b21')).toContain('agent-never-checked-in');
    expect([...found.values()].flat()).not.toContain('plan-secret-missing');
    const chain = linkChain(report.records.find((r) => r.machineName === 'custom-1e0c8f3a5b21')!).find((l) => l.kind === 'planSecret')!;

    expect(chain.state).toBe('unreadable');
  });

  it('without Nodes nothing is called orphaned, missing or mismatched', () => {
    const objects = everyObjects.filter((o: any) => !(o.kind === 'Node' && o.apiVersion === 'v1'));
    const rules = diagnose(objects, {
      now: every.now, defaultCluster: everyId, availability: { nodes: 'forbidden' }
    }).records.flatMap((r) => r.findings.map((f) => f.rule));

    expect(rules).not.toContain('node-missing');
    expect(rules).not.toContain('orphan-node');
    expect(rules).not.toContain('node-name-mismatch');
  });

  it('an imported cluster gets the Node view: not ready is reported, machine checks are not', () => {
    const s = buildScenario('imported');
    const report = diagnoseScenario(s);

    expect(report.clusters[0].kind).toBe('imported');
    const rules = report.records.flatMap((r) => r.findings.map((f) => f.rule));

    expect(rules).toContain('node-not-ready');
    expect(rules.filter((r) => ['orphan-node', 'machine-missing', 'waiting-for-node-ref'].includes(r))).toStrictEqual([]);
  });
});

describe('the agent\'s log is read for what went wrong', () => {
  const en = createTranslator(load(readFileSync(join(__dirname, '../../../pkg/node-health/l10n/en-us.yaml'), 'utf8')), 'en-us');
  const zh = createTranslator(load(readFileSync(join(__dirname, '../../../pkg/node-health/l10n/zh-hans.yaml'), 'utf8')), 'zh-hans');
  const agentStep = (name: string, rule: string) => {
    const s = buildScenario(name);
    const finding = diagnose(clusterObjects(s, s.clusters[0].mgmtId), { now: s.now, defaultCluster: s.clusters[0].mgmtId }).records
      .flatMap((r) => r.findings).find((f) => f.rule === rule)!;

    return finding.fix.find((x) => x.key === 'nodeHealth.fix.agentLogLinux')!;
  };

  it('a plan the agent applied and failed: the command that exited non-zero, not its credentials', () => {
    const step = agentStep('cert-rotation-failed', 'plan-apply-failed');

    expect(en(step.key, step.args)).toContain('the agent logs "error executing instruction N" after it');
    expect(en(step.key, step.args)).not.toContain('credentials');
    expect(step.command!.startsWith('sudo journalctl -u rancher-system-agent --since -1h --no-pager | ')).toBe(true);
  });

  it('the failed command of the plan is what the filter keeps, not the periodic ones that fail after it', () => {
    const step = agentStep('cert-rotation-failed', 'plan-apply-failed');
    // The journal as system-agent's applyinator writes it (pkg/applyinator/applyinator.go): a one-time instruction of
    // the plan fails ("error executing instruction"), then the init node's periodic etcd probe fails every cycle.
    const at = (s: string, msg: string) => `Jan 13 07:${ s } rke2-etcd01 rancher-system-agent[912]: time="2026-01-13T07:${ s }Z" level=${ msg.startsWith('error') ? 'error' : 'info' } msg="${ msg.replace(/"/g, '\\"') }"`;
    const periodic = (s: string) => [
      at(s, '[Applyinator] Running command: sh [-c curl -f --retry 100 --retry-delay 5 --cacert /var/lib/rancher/rke2/server/tls/server-ca.crt https://localhost:9345/db/info | grep \'clientURLs\']'),
      at(s, '[4f2a_1:stderr]: curl: (7) Failed to connect to localhost port 9345 after 0 ms: Connection refused'),
      at(s, '[Applyinator] Command sh [-c curl -f --retry 100 --retry-delay 5 --cacert /var/lib/rancher/rke2/server/tls/server-ca.crt https://localhost:9345/db/info | grep \'clientURLs\'] finished with err: exit status 1 and exit code: 1'),
    ];
    const journal = [
      at('44:58', '[Applyinator] Applying one-time instructions for plan with checksum 4f2a'),
      at('44:58', '[Applyinator] Running command: sh [-c rke2 certificate rotate]'),
      at('44:59', '[4f2a_0:stderr]: time="2026-01-13T07:44:59Z" level=fatal msg="failed to rotate certificates: open /var/lib/rancher/rke2/server/tls/client-ca.key: no such file or directory"'),
      at('44:59', '[Applyinator] Command sh [-c rke2 certificate rotate] finished with err: exit status 1 and exit code: 1'),
      at('44:59', 'error executing instruction 0: exit status 1'),
      ...periodic('45:30'),
      ...periodic('46:30'),
    ].join('\n');
    const filter = step.command!.slice(step.command!.indexOf('|') + 1);
    const kept = execFileSync('bash', ['-c', filter], { input: journal, encoding: 'utf8' });

    expect(kept).toContain('failed to rotate certificates');
    expect(kept.trimEnd().endsWith('error executing instruction 0: exit status 1"')).toBe(true);
    expect(kept).not.toContain('db/info');
  });

  it('a machine with its own Node: the host is that Node\'s, not one to search the cluster for', () => {
    const s = buildScenario('cert-rotation-failed');
    const record = diagnose(clusterObjects(s, s.clusters[0].mgmtId), { now: s.now, defaultCluster: s.clusters[0].mgmtId }).records
      .find((r) => r.findings.some((f) => f.rule === 'plan-apply-failed'))!;
    const [first] = record.findings.find((f) => f.rule === 'plan-apply-failed')!.fix;

    expect(record.nodeName).toBe('rotf-etcd01');
    expect(first.key).toBe('nodeHealth.fix.hostOfNode');
    expect(first.command).toBeUndefined();
    expect(en(first.key, first.args)).toBe(`Its host is the one of its Node rotf-etcd01 (${ record.addresses.internal }): the commands below run there.`);
    // Chinese sets no space after a full-width parenthesis, and one between a name and the word after it.
    expect(zh(first.key, first.args)).toBe(`它的主机就是其节点 rotf-etcd01（${ record.addresses.internal }）所在的主机：以下命令都在该主机上运行。`);
    expect(zh(first.key, { ...first.args, address: 'none' })).toBe('它的主机就是其节点 rotf-etcd01 所在的主机：以下命令都在该主机上运行。');
    // Without a Node of its own, the plan secret's name still finds the host.
    const ghost = buildScenario('cert-rotation-blocked');
    const unlinked = diagnose(clusterObjects(ghost, ghost.clusters[0].mgmtId), { now: ghost.now, defaultCluster: ghost.clusters[0].mgmtId }).records
      .find((r) => r.findings.some((f) => f.rule === 'agent-never-checked-in'))!;

    expect(unlinked.objects.node).toBeUndefined();
    expect(unlinked.findings.find((f) => f.rule === 'agent-never-checked-in')!.fix[0].key).toMatch(/\.(findHost|hostIs)$/);
  });

  it('a machine whose Node is gone: found by its plan secret, and by the address its agent registered with', () => {
    const s = buildScenario('orphan-node');
    const record = diagnose(clusterObjects(s, s.clusters[0].mgmtId), { now: s.now, defaultCluster: s.clusters[0].mgmtId }).records
      .find((r) => r.findings.some((f) => f.rule === 'node-missing'))!;
    const [first] = record.findings.find((f) => f.rule === 'node-missing')!.fix;
    const registered = record.objects.planSecret?.metadata.annotations?.['rke.cattle.io/address'];

    expect(registered).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(first.key).toBe('nodeHealth.fix.findHost');
    expect(en(first.key, first.args)).toContain(`Find the host behind this machine, which registered with address ${ registered }: on each host`);
    // A plan secret that names no address: the step says none.
    expect(en(first.key, { ...first.args, address: 'none' })).toMatch(/^Find the host behind this machine: on each host/);
  });

  it('an agent that never checked in: whether Rancher still accepts its credentials', () => {
    const step = agentStep('cert-rotation-blocked', 'agent-never-checked-in');

    expect(en(step.key, step.args)).toContain('"the server has asked for the client to provide credentials" means its credentials are no longer valid');
    expect(step.command).toBe('sudo journalctl -u rancher-system-agent --since -1h --no-pager | tail -n 50');
  });
});

describe('a deletion stage whose condition says nothing', () => {
  const en = createTranslator(load(readFileSync(join(__dirname, '../../../pkg/node-health/l10n/en-us.yaml'), 'utf8')), 'en-us');

  it('quotes no message: v1beta1\'s pre-terminate hook condition carries none, and no "-" stands in for it', () => {
    const s = buildScenario('etcd-hook');
    const record = diagnose(clusterObjects(s, s.clusters[0].mgmtId), { now: s.now, defaultCluster: s.clusters[0].mgmtId }).records
      .find((r) => r.findings.some((f) => f.signal === 'deletionStages/preTerminateHook'))!;
    const f = record.findings.find((x) => x.signal === 'deletionStages/preTerminateHook')!;
    const hook = record.objects.machine?.status.conditions.find((c: any) => c.type === 'PreTerminateDeleteHookSucceeded');

    expect(hook).toMatchObject({ status: 'False', reason: 'WaitingExternalHook' });
    expect(hook.message).toBeUndefined();
    // The duration is said by the report's formatter; here it is given as text.
    expect(f.args.duration).toBe(2 * 3600_000);
    expect(en(f.causeKey, { ...f.args, duration: '2h' })).toBe('Deletion was requested 2h ago and waits for a pre-terminate hook to let it go.');
    // With words of its own, the stage quotes them.
    expect(en(f.causeKey, {
      ...f.args, duration: '2h', message: 'Waiting for pre-terminate hooks to succeed (hooks: rke-bootstrap-cleanup)'
    }))
      .toBe('Deletion was requested 2h ago and waits for a pre-terminate hook to let it go (its message: Waiting for pre-terminate hooks to succeed (hooks: rke-bootstrap-cleanup)).');
  });
});

describe('a condition without a message, in a signal\'s sentence', () => {
  const en = createTranslator(load(readFileSync(join(__dirname, '../../../pkg/node-health/l10n/en-us.yaml'), 'utf8')), 'en-us');

  it('says its reason alone: Cluster API\'s v1beta1 OwnerRemediated carries no message', () => {
    const s = buildScenario('node-signals');
    const objects = clusterObjects(s, s.clusters[0].mgmtId) as any[];
    const machine = objects.find((o) => o.kind === 'Machine' && o.status?.conditions?.some((c: any) => c.type === 'OwnerRemediated'));
    const owner = machine.status.conditions.find((c: any) => c.type === 'OwnerRemediated');
    const causeOf = () => {
      const f = diagnose(objects, { now: s.now, defaultCluster: s.clusters[0].mgmtId }).records.find((r) => r.machineName === machine.metadata.name)!
        .findings.find((x) => x.signal === 'machineConditions/ownerRemediationPending')!;

      return en(f.causeKey, { ...f.args, duration: '25m' });
    };

    expect(causeOf()).toBe(`Machine ${ machine.metadata.name } waits for its owner to remediate it for 25m (WaitingForRemediation: Waiting for remediation).`);
    delete owner.message;
    expect(causeOf()).toBe(`Machine ${ machine.metadata.name } waits for its owner to remediate it for 25m (WaitingForRemediation).`);
  });
});

describe('the kubelet step says what its log is read for', () => {
  const en = createTranslator(load(readFileSync(join(__dirname, '../../../pkg/node-health/l10n/en-us.yaml'), 'utf8')), 'en-us');
  const said = (f: Finding) => f.fix.map((s) => en(s.key, s.args));

  it('for a Node that stopped reporting: why it is not Ready, and whether the host is up, since no pressure condition tells', () => {
    const quorum = buildScenario('etcd-quorum');
    const report = diagnose(clusterObjects(quorum, quorum.clusters[0].mgmtId), { now: quorum.now, defaultCluster: quorum.clusters[0].mgmtId });
    const finding = report.records.flatMap((r) => r.findings).find((f) => f.rule === 'node-not-ready')!;

    expect(finding.evidence.map((e) => e.value)).toContain('NodeStatusUnknown');
    // An etcd member of an RKE2 cluster: its host runs rke2-server.
    expect(said(finding)).toContain('On the host, check that the Kubernetes service (rke2-server) is running, and read its log for why kubelet does not report the Node Ready.');
    expect(finding.fix.find((s) => s.key === 'nodeHealth.fix.kubeletLinux')?.command).toBe('sudo systemctl status rke2-server --no-pager');
    expect(said(finding)).toContain('Check that the host is up and reaches the cluster\'s servers, then its disk, memory and network.');
  });

  it('for a Node that stopped reporting: the host first, and no describe of what only the controller wrote', () => {
    const down = buildScenario('control-plane-down');
    const report = diagnose(clusterObjects(down, down.clusters[0].mgmtId), { now: down.now, defaultCluster: down.clusters[0].mgmtId });
    const finding = report.records.flatMap((r) => r.findings).find((f) => f.rule === 'node-not-ready')!;

    expect(finding.args.kind).toBe('unreachable');
    expect(finding.fix.map((s) => s.key)).toStrictEqual(['nodeHealth.rules.nodeNotReady.fix.resources', 'nodeHealth.fix.kubeletLinux']);
    // The cluster's own plan also starts at the hosts.
    expect(report.clusters[0].findings.find((f) => f.rule === 'control-plane-unavailable')?.fix[0].key).toMatch(/hosts?$/i);
  });

  it('for a Node under pressure: the pressure conditions in the evidence', () => {
    const objects = clone(everyObjects) as any[];
    const nodeName = diagnose(everyObjects, { now: every.now, defaultCluster: everyId }).records.find((r) => r.machineName === 'custom-c2a0d6e4b3f2')?.nodeName;
    const node = objects.find((o) => o.kind === 'Node' && o.apiVersion === 'v1' && o.metadata.name === nodeName);

    node.status.conditions.push({
      type: 'DiskPressure', status: 'True', reason: 'KubeletHasDiskPressure', message: 'kubelet has disk pressure', lastTransitionTime: '2026-01-01T00:00:00Z'
    });
    const finding = diagnose(objects, { now: every.now, defaultCluster: everyId }).records.find((r) => r.machineName === 'custom-c2a0d6e4b3f2')!
      .findings.find((f) => f.rule === 'node-not-ready')!;

    expect(said(finding)).toContain('Check the host\'s disk, memory and network; the pressure conditions in the evidence tell which one.');
  });

  // The kubelet's own words (pkg/kubelet/kubelet.go updateRuntimeUp, pkg/kubelet/nodestatus/setters.go ReadyCondition).
  const notReadySaying = (message: string) => {
    const objects = clone(everyObjects) as any[];
    const nodeName = diagnose(everyObjects, { now: every.now, defaultCluster: everyId }).records.find((r) => r.machineName === 'custom-c2a0d6e4b3f2')?.nodeName;
    const node = objects.find((o) => o.kind === 'Node' && o.apiVersion === 'v1' && o.metadata.name === nodeName);
    const ready = node.status.conditions.find((c: any) => c.type === 'Ready');

    Object.assign(ready, {
      status: 'False', reason: 'KubeletNotReady', message
    });

    return diagnose(objects, { now: every.now, defaultCluster: everyId }).records.find((r) => r.machineName === 'custom-c2a0d6e4b3f2')!
      .findings.find((f) => f.rule === 'node-not-ready')!;
  };

  it('for a Node whose pod network is not up: the network plugin\'s pods on it', () => {
    const finding = notReadySaying('container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized');

    expect(finding.args.kind).toBe('network');
    expect(en(finding.causeKey, finding.args)).toContain('Its kubelet says the pod network is not ready');
    expect(finding.fix.find((s) => s.key.endsWith('.network'))?.command).toMatch(/^kubectl get pods -A -o wide --field-selector spec\.nodeName=/);
  });

  it('for a Node whose container runtime hangs: whether containerd answers, with the distribution\'s crictl', () => {
    const finding = notReadySaying('PLEG is not healthy: pleg was last seen active 3m2.1s ago; threshold is 3m0s');

    expect(finding.args.kind).toBe('runtime');
    expect(finding.fix.find((s) => s.key.endsWith('.runtime'))?.command).toMatch(/crictl .*info$/);
    expect(notReadySaying('container runtime is down').args.kind).toBe('runtime');
  });

  it('for a Node whose kubelet cannot read the host\'s capacity: cAdvisor in the kubelet\'s log, not a hung runtime', () => {
    // k3s-io/k3s#2340: the node stayed NotReady with this message until its root filesystem was cleaned up.
    const finding = notReadySaying('[container runtime status check may not have completed yet, missing node capacity for resources: ephemeral-storage]');

    expect(finding.args.kind).toBe('capacity');
    expect(en(finding.causeKey, finding.args)).toContain('cannot tell how much of the host\'s resources it has');
    expect(finding.fix.find((s) => s.key.endsWith('.capacity'))?.command).toMatch(/^sudo grep -E 'cadvisor\|cAdvisor\|capacity' \/var\/lib\/rancher\/rke2\/agent\/logs\/kubelet\.log/);
    expect(finding.fix.some((s) => s.key.endsWith('.runtime'))).toBe(false);
    // kubernetes/kubernetes#86765, and the words of kubelets before 1.19.
    expect(notReadySaying('missing node capacity for resources: ephemeral-storage').args.kind).toBe('capacity');
    expect(notReadySaying('Missing node capacity for resources: ephemeral-storage').args.kind).toBe('capacity');
  });

  it('for a Node whose kubelet has not registered its CSINode: the kubelet\'s CSINode errors', () => {
    // canonical/microk8s#3270: one node of three kept this message after RBAC was turned on.
    const finding = notReadySaying('CSINode is not yet initialized');

    expect(finding.args.kind).toBe('storage');
    expect(en(finding.causeKey, finding.args)).toContain('has not registered the node\'s storage drivers');
    expect(finding.fix.find((s) => s.key.endsWith('.storage'))?.command).toContain('\'CSINode\'');
    // A new node's usual message: the network plugin that is not up comes first.
    expect(notReadySaying('[container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized, CSINode is not yet initialized]').args.kind).toBe('network');
  });

  it('for a Node whose host is shutting down: what holds the shutdown, no resources to check', () => {
    // pkg/kubelet/nodeshutdown ShutdownStatus, on Linux and Windows alike.
    const finding = notReadySaying('node is shutting down');

    expect(finding.args.kind).toBe('shutdown');
    expect(en(finding.causeKey, finding.args)).toContain('Its kubelet says the host is shutting down');
    expect(finding.fix.find((s) => s.key.endsWith('.shutdown'))?.command).toBe('systemctl list-jobs --no-pager');
    expect(finding.fix.some((s) => s.key.endsWith('.resources'))).toBe(false);
    expect(notReadySaying('[node is shutting down, PLEG is not healthy: pleg has yet to be successful]').args.kind).toBe('shutdown');
  });

  it('for a kubelet that has not finished starting, with nothing else said: the container runtime', () => {
    expect(notReadySaying('container runtime status check may not have completed yet').args.kind).toBe('runtime');
    expect(notReadySaying('[container runtime status check may not have completed yet, PLEG is not healthy: pleg has yet to be successful]').args.kind).toBe('runtime');
  });

  it('for failing probes: the log of the service the host runs, on Linux; the rke2 service\'s events on Windows', () => {
    const probing = (os: 'linux' | 'windows') => {
      const objects = clone(everyObjects) as any[];
      const m = byName(objects, 'Machine', 'custom-4d2e8b6f3c54');

      m.metadata.labels = { ...m.metadata.labels, 'cattle.io/os': os };

      return diagnose(objects, { now: every.now, defaultCluster: everyId }).records.find((r) => r.machineName === 'custom-4d2e8b6f3c54')!
        .findings.find((f) => f.rule === 'probes-failing')!;
    };
    const linux = probing('linux').fix.find((x) => x.key.endsWith('.distroLog'))!;
    const windows = probing('windows').fix.find((x) => x.key.endsWith('.distroLogWindows'))!;

    // A control-plane machine of an RKE2 cluster.
    expect(en(linux.key, linux.args)).toBe('Read the log of the Kubernetes service (rke2-server) for why the component is unhealthy.');
    expect(linux.command).toBe('sudo journalctl -u rke2-server --since -30min --no-pager | tail -n 100');
    expect(en(windows.key, windows.args)).toBe('Read the rke2 service events on the Windows host for why the component is unhealthy.');
    expect(windows.command).toBe('Get-WinEvent -ProviderName rke2 -MaxEvents 50 | Format-List');
  });

  it('for a machine whose Node never registered: why kubelet did not register', () => {
    const finding = diagnose(everyObjects, { now: every.now, defaultCluster: everyId }).records.flatMap((r) => r.findings)
      .find((f) => f.rule === 'waiting-for-node-ref' && f.fix.some((s) => s.key === 'nodeHealth.fix.kubeletLinux'))!;

    // A worker of an RKE2 cluster: its host runs rke2-agent.
    expect(said(finding)).toContain('On the host, check that the Kubernetes service (rke2-agent) is running, and read its log for why kubelet did not register.');
  });
});

describe('node-missing offers Rancher\'s own clean-up only where Rancher does it', () => {
  const en = createTranslator(load(readFileSync(join(__dirname, '../../../pkg/node-health/l10n/en-us.yaml'), 'utf8')), 'en-us');

  const fixOf = (name: string, mutate: (objects: any[]) => string) => {
    const s = buildScenario(name);
    const objects = JSON.parse(JSON.stringify(clusterObjects(s, s.clusters[0].mgmtId))) as any[];
    const machine = mutate(objects);

    return diagnose(objects, { now: s.now }).records.find((r) => r.machineName === machine)!
      .findings.find((f) => f.rule === 'node-missing')!.fix.map((x) => x.key.split('.').pop());
  };

  it('says a running kubelet does not register a deleted Node again until its service restarts', () => {
    const s = buildScenario('capi-v1beta2');
    const finding = diagnose(clusterObjects(s, s.clusters[0].mgmtId), { now: s.now }).records.find((r) => r.machineName === 'custom-4e7a1c9d2b60')!
      .findings.find((f) => f.rule === 'node-missing')!;
    const kubelet = finding.fix.find((x) => x.key === 'nodeHealth.fix.kubeletLinux')!;

    expect(en(kubelet.key, kubelet.args)).toBe('On the host, check that the Kubernetes service (rke2-agent) is running. Its kubelet registers the Node only when it starts, ' +
      'and meanwhile logs that the Node is "not found" each time it updates its status: if the host should stay in the cluster, restart the service to register the Node again.');
  });

  it('says the same of a Windows worker, whose kubelet runs in the rke2 service', () => {
    const s = buildScenario('capi-v1beta2');
    const objects = JSON.parse(JSON.stringify(clusterObjects(s, s.clusters[0].mgmtId))) as any[];
    const machine = objects.find((o) => o.kind === 'Machine' && o.metadata.name === 'custom-4e7a1c9d2b60');

    machine.metadata.labels = { ...machine.metadata.labels, 'cattle.io/os': 'windows' };
    const record = diagnose(objects, { now: s.now }).records.find((r) => r.machineName === 'custom-4e7a1c9d2b60')!;
    const kubelet = record.findings.find((f) => f.rule === 'node-missing')!.fix.find((x) => x.key === 'nodeHealth.fix.kubeletWindows')!;

    expect(record.os).toBe('windows');
    expect(en(kubelet.key, kubelet.args)).toContain('restart the rke2 service to register the Node again');
  });

  it('a custom machine: the delete-missing-custom-machines-after annotation', () => {
    expect(fixOf('capi-v1beta2', () => 'custom-4e7a1c9d2b60')).toContain('autoCleanup');
  });

  it('a node driver\'s machine: not that annotation, which Rancher reads for CustomMachines only', () => {
    const steps = fixOf('health-check-blocked', (objects) => {
      const machine = objects.find((o) => o.kind === 'Machine' && o.metadata.name.startsWith('vs-mhc-wk-') && !MHC_BLOCKED_MACHINES.includes(o.metadata.name));
      const nodeAt = objects.findIndex((o) => o.kind === 'Node' && o.apiVersion === 'v1' && o.metadata.name === machine.status.nodeRef.name);

      objects.splice(nodeAt, 1);

      return machine.metadata.name;
    });

    expect(steps).toContain('hostGone');
    expect(steps).not.toContain('autoCleanup');
  });
});
