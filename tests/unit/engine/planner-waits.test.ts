/**
 * What the planner waits for, when that is not the machine it names. Rotate Certificates waiting for a machine whose agent is gone (seed 000): the planner says
 * "waiting for [<machine>] certificate rotation" and keeps the CAPI cluster paused while it rotates. That pause is
 * Rancher's own: a remark, not a cause; the cluster's plan leads with the machine, and nothing says to resume.
 */
import { diagnose, preflightOf } from '@pkg/node-health/engine';
import {
  AGENT_WAIT_MACHINE, buildScenario, FAILED_ROTATION_MACHINE, PRE_BOOTSTRAP_MACHINE, ROTATION_MACHINE, VIABLE_INIT_MACHINE
} from '../../../scenarios/catalog';
import { clusterObjects, diagnoseScenario } from './helpers';

describe('a certificate rotation that waits for a ghost machine', () => {
  const report = diagnoseScenario(buildScenario('cert-rotation-blocked'));
  const cluster = report.clusters[0];
  const ghost = report.records.find((r) => r.machineName === ROTATION_MACHINE)!;

  it('calls the pause Rancher\'s own, an info, with no step to resume it', () => {
    const pause = cluster.findings.find((f) => f.rule === 'reconciliation-paused')!;

    expect(pause).toMatchObject({ severity: 'info', args: { scope: 'rotation' } });
    expect(pause.fix.map((s) => s.key)).toEqual(['nodeHealth.rules.reconciliationPaused.fix.rotation']);
  });

  it('leads the cluster\'s plan with the machine the rotation waits for', () => {
    expect(cluster.resolution?.rootCause).toBe('blocking-cluster-operation');
    expect(cluster.resolution?.steps[0]).toMatchObject({ key: 'nodeHealth.plan.settleFirst', args: { machine: ROTATION_MACHINE } });
    expect(ghost.resolution?.rootCause).toBe('agent-never-checked-in');
  });

  it('lets the ghost be deleted, as its plan says, and its finalizers go once stuck, which lifts the pause; a resume alone is refused', () => {
    const now = Date.parse(report.now);
    const deleteStep = ghost.resolution?.steps.find((s) => s.act === 'delete-machine');

    // The plan's own step: delete the machine if its host is gone, then remove its finalizers if the delete hangs.
    expect(deleteStep).toBeDefined();
    expect(preflightOf('delete-machine', ghost, now, report.records).checks.find((c) => c.id === 'notPaused')).toMatchObject({ ok: true, key: 'nodeHealth.preflight.notPaused.rotationDelete' });
    expect(ghost.preflight?.find((p) => p.id === 'delete-machine')?.allowed).toBe(true);
    expect(preflightOf('remove-finalizers', ghost, now, report.records).checks.find((c) => c.id === 'notPaused')).toMatchObject({ ok: true, key: 'nodeHealth.preflight.notPaused.rotationLifts' });
    expect(preflightOf('resume-machine', ghost, now, report.records).checks.find((c) => c.id === 'notPaused')).toMatchObject({ ok: false, key: 'nodeHealth.preflight.notPaused.rotation' });
  });

  it('says the rotation waits for the ghost, as the planner does', () => {
    expect(cluster.certificateRotation).toBe('waiting');
    expect(ghost.findings.find((f) => f.rule === 'blocking-cluster-operation')?.args.rotation).toBe('waiting');
  });

  it('still asks to resume a pause nobody explains', () => {
    const paused = diagnoseScenario(buildScenario('reconciliation-paused')).clusters[0].findings.find((f) => f.rule === 'reconciliation-paused')!;

    expect(paused.severity).toBe('warning');
    expect(paused.fix.map((s) => s.key)).toContain('nodeHealth.rules.reconciliationPaused.fix.resume');
  });
});

describe('the planner waiting for the cluster agent while it configures a control-plane machine', () => {
  const report = diagnoseScenario(buildScenario('agent-wait-bootstrap'));
  const cluster = report.clusters[0];

  it('blames the agent, not the machine it names: no machine holds the cluster back, and nothing says to delete one', () => {
    expect(cluster.blockingMessage).toBe(`configuring bootstrap node(s) ${ AGENT_WAIT_MACHINE }: waiting for cluster agent to connect`);
    expect(cluster.blockingMachines).toEqual([]);
    expect(cluster.resolution?.rootCause).toBe('cluster-agent-disconnected');
    expect(report.records.find((r) => r.machineName === AGENT_WAIT_MACHINE)?.findings).toEqual([]);
  });
});

/**
 * The planner waiting for Rancher's pre-bootstrap (rancher pkg/capr/planner/planner.go reconcile, feature
 * provisioningprebootstrap): it names the control-plane machine it was configuring, and Rancher holds the management
 * cluster's Connected False until the pre-bootstrap is done (clusterconnected.go checkCluster), whatever the agent does.
 */
describe('the planner waiting for Rancher to pre-bootstrap a new cluster', () => {
  const s = buildScenario('pre-bootstrap-wait');
  const message = `configuring bootstrap node(s) ${ PRE_BOOTSTRAP_MACHINE }: waiting for cluster pre-bootstrap to complete`;

  it('blames neither the machine it names nor the agent Rancher reports disconnected, and says what the pre-bootstrap needs', () => {
    const report = diagnoseScenario(s);
    const cluster = report.clusters[0];

    expect(cluster.blockingMessage).toBe(message);
    expect(cluster.blockingMachines).toEqual([]);
    expect(cluster.findings.map((f) => f.rule)).toEqual(['pre-bootstrap-pending']);
    expect(cluster.agent).toBe('unknown');
    expect(cluster.resolution?.rootCause).toBe('pre-bootstrap-pending');
    expect(cluster.resolution?.steps.map((x) => x.key.split('.').pop())).toEqual(['held', 'agentPods', 'secrets', 'rancherLogs']);
    expect(cluster.findings[0].args).toMatchObject({ cluster: 'pb-rke2', duration: 40 * 60000 });
    expect(cluster.findings[0].evidence.map((e) => [e.object.split(' ')[0], e.path])).toEqual(expect.arrayContaining([
      ['Cluster', 'status.conditions[Updated].message'],
      ['management', 'status.conditions[PreBootstrapped].status'],
      ['management', 'status.conditions[Connected].status'],
    ]));
    // The secrets Rancher copies: those annotated for the pre-bootstrap, in the cluster's workspace, and who may read them.
    expect(cluster.findings[0].fix.find((x) => x.key.endsWith('.secrets'))?.command).toBe(
      'kubectl -n fleet-default get secrets -o jsonpath=\'{range .items[?(@.metadata.annotations.provisioning\\.cattle\\.io/sync-bootstrap=="true")]}' +
      '{.metadata.name}{"\\t"}{.metadata.annotations.rke\\.cattle\\.io/object-authorized-for-clusters}{"\\n"}{end}\''
    );
    const machine = report.records.find((r) => r.machineName === PRE_BOOTSTRAP_MACHINE)!;

    expect(machine.findings).toEqual([]);
    // An action's check does not call the agent connected, nor disconnected: nothing tells now.
    expect(preflightOf('delete-machine', machine, Date.parse(report.now), report.records).checks.find((c) => c.id === 'agentConnected'))
      .toMatchObject({ ok: null, key: 'nodeHealth.preflight.agentConnected.unknown' });
  });

  it('waits as long as the agent would before it says so, and blames no machine meanwhile', () => {
    const objects = JSON.parse(JSON.stringify(clusterObjects(s, s.clusters[0].mgmtId))) as any[];
    const prov = objects.find((o) => o.kind === 'Cluster' && o.apiVersion.startsWith('provisioning.cattle.io'));
    const twoMinutesAgo = new Date(Date.parse(s.now) - 120000).toISOString().replace(/\.\d{3}Z$/, 'Z');

    for (const c of prov.status.conditions.filter((x: any) => x.message === message)) {
      Object.assign(c, { lastTransitionTime: twoMinutesAgo, lastUpdateTime: twoMinutesAgo });
    }
    const report = diagnose(objects, { now: s.now });

    expect(report.clusters[0].blockingMessage).toBe(message);
    expect(report.clusters[0].findings).toEqual([]);
    expect(report.clusters[0].blockingMachines).toEqual([]);
    expect(report.records.every((r) => r.findings.length === 0)).toBe(true);
  });

  it('leaves a truly disconnected agent to its own finding when the planner waits for it instead', () => {
    expect(diagnoseScenario(buildScenario('agent-wait-bootstrap')).clusters[0].findings.map((f) => f.rule)).toEqual(['cluster-agent-disconnected']);
  });
});

describe('a certificate rotation that failed on a machine', () => {
  const report = diagnoseScenario(buildScenario('cert-rotation-failed'));
  const cluster = report.clusters[0];
  const failed = report.records.find((r) => r.machineName === FAILED_ROTATION_MACHINE)!;

  it('is a failure of that machine, which holds the cluster back, not a rotation still under way', () => {
    expect(cluster.certificateRotation).toBe('failed');
    expect(cluster.blockingMachines).toStrictEqual([FAILED_ROTATION_MACHINE]);
    expect(failed.findings.find((f) => f.rule === 'blocking-cluster-operation')).toMatchObject({ severity: 'error', args: { rotation: 'failed' } });
    expect(failed.resolution?.rootCause).toBe('plan-apply-failed');
  });

  it('keeps Rancher\'s pause its own: the planner pauses again until the rotation succeeds, so nothing says to resume', () => {
    const pause = cluster.findings.find((f) => f.rule === 'reconciliation-paused')!;

    expect(pause).toMatchObject({ severity: 'info', args: { scope: 'rotation' } });
    expect(pause.fix.map((s) => s.key)).not.toContain('nodeHealth.rules.reconciliationPaused.fix.resume');
  });
});

describe('an etcd restore or an encryption key rotation, which pause the CAPI cluster themselves', () => {
  const s = buildScenario('cert-rotation-blocked');
  const id = s.clusters[0].mgmtId;
  const pauseSaying = (message: string, status = 'Unknown') => {
    const objects = JSON.parse(JSON.stringify(clusterObjects(s, id))) as any[];
    const cluster = objects.find((o) => o.kind === 'Cluster' && o.apiVersion.startsWith('provisioning'));

    cluster.status.conditions = cluster.status.conditions.map((c: any) => (['Updated', 'Provisioned'].includes(c.type) ? {
      ...c, status, reason: status === 'False' ? 'Error' : 'Waiting', message
    } : c));

    return diagnose(objects, { now: s.now, defaultCluster: id }).clusters[0].findings.find((f) => f.rule === 'reconciliation-paused')!;
  };

  // The planner's own words (rancher pkg/capr/planner/etcdrestore.go, encryptionkeyrotation.go, store.go assignAndCheckPlan).
  it.each([
    ['shutting down cluster', 'restore'],
    ['waiting to stop rke2 services on machine [custom-7e21c4b9a0d3]', 'restore'],
    ['waiting for etcd restore probes', 'restore'],
    ['waiting for encryption key rotation [prepare] for machine [custom-7e21c4b9a0d3]', 'encryption'],
  ])('"%s": Rancher\'s pause, an info, with nothing to resume', (message, scope) => {
    const pause = pauseSaying(message);

    expect(pause).toMatchObject({ severity: 'info', args: { scope } });
    expect(pause.fix.map((f) => f.key)).toStrictEqual([`nodeHealth.rules.reconciliationPaused.fix.${ scope }`]);
    expect(pause.evidence.map((e) => e.value)).toContain(message);
  });

  it.each([
    ['operation etcd restore failed', 'restoreFailed'],
    ['encryption key rotation failed, please perform an etcd restore: operation encryption key rotation [prepare] for machine [custom-7e21c4b9a0d3] failed', 'encryptionFailed'],
  ])('"%s": an error, with what Rancher says to do instead of a resume', (message, scope) => {
    const pause = pauseSaying(message, 'False');

    expect(pause).toMatchObject({ severity: 'error', args: { scope } });
    expect(pause.fix.map((f) => f.key)).toStrictEqual([`nodeHealth.rules.reconciliationPaused.fix.${ scope }`]);
  });

  it('asks to resume when the cluster says only that it is paused', () => {
    const pause = pauseSaying('CAPI cluster or RKEControlPlane is paused');

    expect(pause.severity).toBe('warning');
    expect(pause.fix.map((f) => f.key)).toContain('nodeHealth.rules.reconciliationPaused.fix.resume');
  });
});

describe('the whole etcd plane replaced', () => {
  const report = diagnoseScenario(buildScenario('etcd-plane-replaced'));
  const cluster = report.clusters[0];

  it('is the init node lost for good: the one step is a restore, which the planner asks for', () => {
    const lost = cluster.findings.find((f) => f.rule === 'init-node-missing')!;

    expect(lost).toMatchObject({ severity: 'error', args: { said: 'replaced' } });
    expect(lost.fix.map((s) => s.key)).toStrictEqual(['nodeHealth.rules.initNodeMissing.fix.restoreNow']);
    expect(cluster.resolution?.rootCause).toBe('init-node-missing');
  });

  it('tells each new etcd machine that its plan waits for the restore', () => {
    const etcd = report.records.filter((r) => r.roles.includes('etcd'));

    expect(etcd).toHaveLength(3);
    expect(etcd.every((r) => r.notes.some((n) => n.key === 'nodeHealth.notes.partOf.initNodeMissing'))).toBe(true);
    expect(report.records.filter((r) => !r.roles.includes('etcd')).some((r) => r.notes.some((n) => n.key === 'nodeHealth.notes.partOf.initNodeMissing'))).toBe(false);
  });

  it('hours later, sends no one to the hosts of machines the planner wrote no plan: their wait is the cluster\'s', () => {
    const s = buildScenario('etcd-plane-replaced');
    const later = diagnose([...s.objects, ...Object.values(s.downstream).flat()], { now: Date.parse(s.now) + 2 * 3600e3 });
    const etcd = later.records.filter((r) => r.roles.includes('etcd'));

    expect(etcd.map((r) => r.plan.state)).toStrictEqual(['no-plan', 'no-plan', 'no-plan']);
    for (const r of etcd) {
      const wait = r.findings.find((f) => f.rule === 'waiting-for-node-ref')!;

      expect(wait.args.family).toBe('noPlan');
      expect(wait.fix.map((f) => f.key)).toStrictEqual(['nodeHealth.rules.waitingForNodeRef.fix.seeCluster']);
      expect(r.findings.flatMap((f) => f.actions)).not.toContain('re-register');
    }
  });
});

/**
 * "waiting for viable init node" (rancher pkg/capr/planner/initnode.go electInitNode): no etcd machine is one the planner
 * may elect, none being not deleting, not Failed and with its InfrastructureReady True (planentry.go canBeInitNode).
 * The scenario is rancher-docs#585: a new vSphere cluster whose one machine's create job never finishes.
 */
describe('the planner waiting for a viable init node', () => {
  const s = buildScenario('viable-init-node');
  const id = s.clusters[0].mgmtId;
  const creating = `creating server [fleet-default/${ VIABLE_INIT_MACHINE }] of kind (VmwarevsphereMachine) for machine ${ VIABLE_INIT_MACHINE } in infrastructure provider`;
  const objectsOf = () => JSON.parse(JSON.stringify(clusterObjects(s, id))) as any[];
  const machineOf = (objects: any[]) => objects.find((o) => o.kind === 'Machine' && o.metadata.name === VIABLE_INIT_MACHINE);
  const findingOf = (objects: unknown[], now = s.now) => diagnose(objects, { now, defaultCluster: id }).clusters[0].findings.find((f) => f.rule === 'init-node-not-viable');

  it('names the etcd machine whose infrastructure is not ready, and leads with its create job and the provider', () => {
    const report = diagnoseScenario(s);
    const cluster = report.clusters[0];
    const finding = cluster.findings.find((f) => f.rule === 'init-node-not-viable')!;

    expect(finding).toMatchObject({
      severity: 'error',
      args:     {
        cluster: 'test', state: 'blocked', count: 1, machines: VIABLE_INIT_MACHINE, duration: 38 * 60000
      }
    });
    expect(finding.evidence).toEqual(expect.arrayContaining([
      expect.objectContaining({ path: 'status.conditions[Updated].message', value: 'waiting for viable init node' }),
      expect.objectContaining({
        object: `Machine fleet-default/${ VIABLE_INIT_MACHINE }`, path: 'status.conditions[InfrastructureReady].message', value: creating
      }),
    ]));
    expect(cluster.resolution?.rootCause).toBe('init-node-not-viable');
    expect(finding.fix.map((x) => x.key.split('.').pop())).toEqual(['createJob', 'provider', 'rancherLog']);
    expect(finding.fix[0].command).toBe(`kubectl -n fleet-default logs --tail=50 -- job/${ VIABLE_INIT_MACHINE }-machine-provision`);
    // The machine's own row points at the cluster's finding, and says why it cannot be the init node.
    const machine = report.records.find((r) => r.machineName === VIABLE_INIT_MACHINE)!;

    expect(machine.notes).toContainEqual(expect.objectContaining({ key: 'nodeHealth.notes.partOf.initNodeNotViable', args: expect.objectContaining({ why: 'infrastructure' }) }));
    // Its own wait for a Node says the same: its server is not ready, and where to look; not "the cluster's wait first".
    const wait = machine.findings.find((f) => f.rule === 'waiting-for-node-ref')!;

    expect(wait.args).toMatchObject({ family: 'infrastructurePending', said: creating });
    expect(machine.resolution?.steps.map((x) => x.key.split('.').pop())).toEqual(['createJob', 'provider']);
  });

  it('does not send the machine and the cluster to each other when the planner names the machine it waits for', () => {
    // The tier form Rancher writes for a server still being made (rancher#36520: "Non-ready bootstrap machine(s) …: creating server …").
    const objects = objectsOf();
    const prov = objects.find((o) => o.kind === 'Cluster' && o.apiVersion.startsWith('provisioning'));

    for (const c of prov.status.conditions.filter((x: any) => x.message === 'waiting for viable init node')) {
      c.message = `non-ready bootstrap machine(s) ${ VIABLE_INIT_MACHINE }: ${ creating }`;
    }
    const report = diagnose(objects, { now: s.now, defaultCluster: id });
    const machine = report.records.find((r) => r.machineName === VIABLE_INIT_MACHINE)!;

    expect(report.clusters[0].blockingMachines).toEqual([VIABLE_INIT_MACHINE]);
    expect(machine.resolution?.steps.map((x) => x.key.split('.').pop())).toEqual(expect.arrayContaining(['fixThisMachine', 'createJob', 'provider']));
    expect(machine.resolution?.steps.map((x) => x.key)).not.toContain('nodeHealth.rules.waitingForNodeRef.fix.seeCluster');
  });

  it('reads a node-driver server from the Machine\'s reference when the infrastructure machines cannot be read', () => {
    const objects = objectsOf().filter((o) => o.kind !== 'VmwarevsphereMachine');
    const report = diagnose(objects, {
      now: s.now, defaultCluster: id, availability: { infraMachines: 'forbidden' }
    });
    const finding = report.clusters[0].findings.find((f) => f.rule === 'init-node-not-viable')!;
    const machine = report.records.find((r) => r.machineName === VIABLE_INIT_MACHINE)!;

    // No job name without the infrastructure machine: the provider is still where to look.
    expect(finding.fix.map((x) => x.key.split('.').pop())).toEqual(['provider', 'rancherLog']);
    expect(machine.findings.find((f) => f.rule === 'waiting-for-node-ref')?.args.family).toBe('infrastructurePending');
  });

  it('does not call a server on its way when its infrastructure machine is gone though read', () => {
    const objects = objectsOf().filter((o) => o.kind !== 'VmwarevsphereMachine');
    const machine = diagnose(objects, {
      now: s.now, defaultCluster: id, availability: { infraMachines: 'ok' }
    }).records.find((r) => r.machineName === VIABLE_INIT_MACHINE)!;

    expect(machine.findings.map((f) => f.rule)).toContain('infrastructure-missing');
    expect(machine.findings.find((f) => f.rule === 'waiting-for-node-ref')?.args.family).not.toBe('infrastructurePending');
  });

  it('does not call a custom host\'s infrastructure pending: Rancher makes its CustomMachine ready at once', () => {
    const custom = buildScenario('pre-bootstrap-wait');
    const objects = JSON.parse(JSON.stringify(clusterObjects(custom, custom.clusters[0].mgmtId))) as any[];
    const m = objects.find((o) => o.kind === 'Machine');

    m.status.conditions = m.status.conditions.map((c: any) => (c.type === 'InfrastructureReady' ? {
      ...c, status: 'False', reason: 'WaitingForInfrastructure'
    } : c));
    delete m.status.nodeRef;
    const record = diagnose(objects, { now: custom.now }).records.find((r) => r.machineName === PRE_BOOTSTRAP_MACHINE)!;

    expect(record.findings.find((f) => f.rule === 'waiting-for-node-ref')?.args.family).toBe('unlinked');
  });

  it('says nothing while a server may still be on its way', () => {
    expect(findingOf(objectsOf(), new Date(Date.parse(s.now) - 30 * 60000).toISOString())).toBeUndefined();
  });

  it('asks for another etcd machine when the only one is being deleted or failed, not for the provider', () => {
    for (const change of [
      (m: any) => {
        m.metadata.deletionTimestamp = '2023-04-28T18:40:00Z';
      },
      (m: any) => {
        m.status.phase = 'Failed'; m.status.failureMessage = 'Failure detected from referenced resource rke-machine.cattle.io/v1, Kind=VmwarevsphereMachine';
      },
    ]) {
      const objects = objectsOf();

      change(machineOf(objects));
      const finding = findingOf(objects)!;
      const why = machineOf(objects).metadata.deletionTimestamp ? 'deleting' : 'failed';

      expect(finding.fix.map((x) => x.key.split('.').pop())).toEqual([why, 'addEtcd', 'rancherLog']);
    }
  });

  it('says the planner sees otherwise when every etcd machine read could be the init node', () => {
    const objects = objectsOf();
    const m = machineOf(objects);

    m.status.conditions = m.status.conditions.map((c: any) => (c.type === 'InfrastructureReady' ? {
      type: 'InfrastructureReady', status: 'True', lastTransitionTime: '2023-04-28T19:00:00Z'
    } : c));
    expect(findingOf(objects)?.args).toMatchObject({
      state: 'someViable', count: 1, viable: VIABLE_INIT_MACHINE
    });
  });

  it('names the etcd machine that could be elected when another cannot, and points only the other\'s row to the finding', () => {
    const objects = objectsOf();
    const ready = JSON.parse(JSON.stringify(machineOf(objects)));
    const secret = JSON.parse(JSON.stringify(objects.find((o) => o.kind === 'Secret' && o.metadata.name === `${ VIABLE_INIT_MACHINE }-machine-plan`)));
    const name = 'test-pool1-caf32326-x7k2m';

    Object.assign(ready.metadata, { name, uid: 'b1d7e0c4-5a1f-4c3e-9d2b-7f6a8e9c0d12' });
    ready.status.conditions = ready.status.conditions.map((c: any) => (c.type === 'InfrastructureReady' ? {
      type: 'InfrastructureReady', status: 'True', lastTransitionTime: '2023-04-28T18:30:00Z'
    } : c));
    Object.assign(secret.metadata, {
      name: `${ name }-machine-plan`, uid: 'c2e8f1d5-6b2a-4d4f-8e3c-8a7b9f0d1e23', labels: { ...secret.metadata.labels, 'rke.cattle.io/machine-name': name }
    });
    const report = diagnose([...objects, ready, secret], { now: s.now, defaultCluster: id });
    const finding = report.clusters[0].findings.find((f) => f.rule === 'init-node-not-viable')!;

    expect(finding.args).toMatchObject({
      state: 'someViable', count: 2, viable: name
    });
    expect(report.records.filter((r) => r.notes.some((n) => n.key === 'nodeHealth.notes.partOf.initNodeNotViable')).map((r) => r.machineName)).toEqual([VIABLE_INIT_MACHINE]);
  });

  it('reads the etcd role as the planner does, from the plan secret', () => {
    const objects = objectsOf();
    const secret = objects.find((o) => o.kind === 'Secret' && o.metadata.name === `${ VIABLE_INIT_MACHINE }-machine-plan`);

    delete secret.metadata.labels['rke.cattle.io/etcd-role'];
    expect(findingOf(objects)?.args).toMatchObject({ state: 'noEtcd', count: 0 });
  });
});
