/**
 * Every entry of every signal table, applied to one healthy node the way its writer would report it, makes
 * that node not healthy with a finding named by the entry, and leaves the other nodes as they were.
 */
import { SIGNAL_TABLES } from '@pkg/node-health/engine/signals';
import { NODE_CONDITION_SIGNALS, OTHER_NODE_CONDITION, TAINT_SIGNALS } from '@pkg/node-health/engine/signals/node';
import { DELETION_STAGES, MACHINE_ANNOTATION_SIGNALS, MACHINE_CONDITION_SIGNALS } from '@pkg/node-health/engine/signals/machine';
import type { SignalEntry } from '@pkg/node-health/engine/signals';
import { diagnose, RULE_IDS } from '@pkg/node-health/engine';
import { timelineOf } from '@pkg/node-health/engine/timeline';
import { buildScenario } from '../../../scenarios/catalog';
import { ago } from '../../../scenarios/time';
import { clusterObjects, recordName } from './helpers';

const scenario = buildScenario('healthy');
const CLUSTER = scenario.clusters[0].mgmtId;

function fresh(): any[] {
  return JSON.parse(JSON.stringify(clusterObjects(scenario, CLUSTER)));
}

function statuses(objects: unknown[]): Map<string, string> {
  return new Map(diagnose(objects, { now: scenario.now }).records.map((r) => [recordName(r), r.status]));
}

const baseline = statuses(fresh());
const TARGET = [...baseline.keys()].find((name) => name.startsWith('custom-') && baseline.get(name) === 'healthy') as string;

function target(objects: any[]): { machine: any; node: any } {
  const machine = objects.find((o) => o.kind === 'Machine' && o.metadata.name === TARGET);
  const node = objects.find((o) => o.kind === 'Node' && o.metadata.labels?.['rke.cattle.io/machine'] === machine.metadata.uid);

  return { machine, node };
}

type Mutation = (t: { machine: any; node: any }, since: string) => void;

function setCondition(obj: any, c: Record<string, string>): void {
  obj.status.conditions = [...(obj.status.conditions ?? []).filter((x: any) => x.type !== c.type), c];
}

const MUTATIONS: [string, SignalEntry, Mutation][] = [
  ...NODE_CONDITION_SIGNALS.map((e): [string, SignalEntry, Mutation] => ['nodeConditions', e, ({ node }, since) => setCondition(node, {
    type: e.conditionType, status: 'True', reason: e.example.reason, message: e.example.message, lastTransitionTime: since
  })]),
  ['nodeConditions', OTHER_NODE_CONDITION, ({ node }, since) => setCondition(node, {
    type: 'CustomPluginProblem', status: 'True', reason: 'SomethingBroke', message: 'custom plugin says so', lastTransitionTime: since
  })],
  ...TAINT_SIGNALS.map((e): [string, SignalEntry, Mutation] => ['taints', e, ({ node }, since) => {
    node.spec.taints = [...(node.spec.taints ?? []), {
      key: e.taintKey, effect: e.example.effect, ...(e.example.value ? { value: e.example.value } : {}), timeAdded: since
    }];
  }]),
  ...MACHINE_CONDITION_SIGNALS.map((e): [string, SignalEntry, Mutation] => ['machineConditions', e, ({ machine }, since) => setCondition(machine, {
    type: e.conditionType, status: e.status, reason: e.example.reason, message: e.example.message, lastTransitionTime: since
  })]),
  ...MACHINE_ANNOTATION_SIGNALS.map((e): [string, SignalEntry, Mutation] => ['machineAnnotations', e, ({ machine }) => {
    machine.metadata.annotations = { ...(machine.metadata.annotations ?? {}), [e.annotation]: e.example.value };
  }]),
  // A deletion asked for an hour ago that waits at this stage: the v1beta1 condition where there is one, else v1beta2's Deleting.
  ...DELETION_STAGES.map((e): [string, SignalEntry, Mutation] => ['deletionStages', e, ({ machine }, since) => {
    machine.metadata.deletionTimestamp = since;
    machine.metadata.finalizers = ['machine.cluster.x-k8s.io'];
    setCondition(machine, e.conditionType ? {
      type: e.conditionType, status: 'False', reason: e.example.reason, message: e.example.message, lastTransitionTime: since
    } : {
      type: 'Deleting', status: 'True', reason: e.deletingReason, message: e.example.message, lastTransitionTime: since
    });
  }]),
];

describe('signal tables', () => {
  it('start from a cluster whose nodes are all healthy', () => {
    expect(TARGET).toBeDefined();
    expect([...baseline.values()].every((s) => s === 'healthy')).toBe(true);
  });

  it('have a mutation here for every entry, and every entry names a rule of the catalogue', () => {
    const tested = new Set(MUTATIONS.map(([table, e]) => `${ table }/${ e.id }`));
    const entries = SIGNAL_TABLES.filter((t) => ['nodeConditions', 'taints', 'machineConditions', 'machineAnnotations', 'deletionStages'].includes(t.id))
      .flatMap((t) => t.entries.map((e) => `${ t.id }/${ e.id }`));

    expect(entries.filter((id) => !tested.has(id))).toStrictEqual([]);
    expect(SIGNAL_TABLES.flatMap((t) => t.entries).filter((e) => !RULE_IDS.includes(e.rule)).map((e) => e.id)).toStrictEqual([]);
  });

  it.each(MUTATIONS.map(([table, e, mutate]) => [`${ table }/${ e.id }`, e, mutate] as const))('%s is named on the node (not healthy unless the entry is only worth knowing), and nothing else changes', (id, entry, mutate) => {
    const objects = fresh();

    mutate(target(objects), ago(scenario.now, '1h'));
    const report = diagnose(objects, { now: scenario.now });
    const record = report.records.find((r) => recordName(r) === TARGET);
    const finding = record?.findings.find((f) => f.signal === id);

    expect(finding).toBeDefined();
    expect(finding?.severity).toBe(entry.severity);
    expect(finding?.titleKey).toBe(`nodeHealth.signals.${ id.replace('/', '.') }.title`);
    expect(finding?.evidence.length).toBeGreaterThan(0);
    // An entry that is worth knowing but not a fault (info) is shown and leaves the status as it was.
    if (entry.severity === 'info') {
      expect(record?.status).toBe('healthy');
    } else {
      expect(record?.status).not.toBe('healthy');
    }
    for (const r of report.records.filter((x) => recordName(x) !== TARGET)) {
      expect(r.status).toBe(baseline.get(recordName(r)));
    }
  });

  it('wait the not-ready threshold for Node conditions and taints, as Kubernetes lets them flap', () => {
    const objects = fresh();
    const { node } = target(objects);

    setCondition(node, {
      type: 'DiskPressure', status: 'True', reason: 'KubeletHasDiskPressure', message: 'kubelet has disk pressure', lastTransitionTime: ago(scenario.now, '1m')
    });
    node.spec.taints = [{
      key: 'node.kubernetes.io/out-of-service', effect: 'NoExecute', timeAdded: ago(scenario.now, '1m')
    }];
    expect(statuses(objects).get(TARGET)).toBe('healthy');
  });

  it('cite a taint as kubectl writes it, with or without a value, as the timeline says it', () => {
    const objects = fresh();
    const { node } = target(objects);
    const since = ago(scenario.now, '2h');

    node.spec.taints = [{
      key: 'node.kubernetes.io/out-of-service', effect: 'NoExecute', timeAdded: since
    }];
    const record = diagnose(objects, { now: scenario.now }).records.find((r) => recordName(r) === TARGET);
    const f = record?.findings.find((x) => x.rule === 'node-taint');

    expect(f?.evidence[0]).toMatchObject({ path: 'spec.taints[node.kubernetes.io/out-of-service]', value: 'node.kubernetes.io/out-of-service:NoExecute' });
    expect(timelineOf(record!).map((e) => e.args?.taint)).toContain(f?.evidence[0].value);
  });

  it('name the first deletion stage that has not finished, in the order Cluster API runs them', () => {
    const objects = fresh();
    const { machine } = target(objects);
    const since = ago(scenario.now, '1h');

    machine.metadata.deletionTimestamp = since;
    machine.metadata.finalizers = ['machine.cluster.x-k8s.io'];
    setCondition(machine, {
      type: 'DrainingSucceeded', status: 'False', reason: 'Draining', message: 'Draining the node before deletion', lastTransitionTime: since
    });
    setCondition(machine, {
      type: 'VolumeDetachSucceeded', status: 'False', reason: 'WaitingForVolumeDetach', message: 'Waiting for node volumes to be detached', lastTransitionTime: since
    });
    const f = diagnose(objects, { now: scenario.now }).records.find((r) => recordName(r) === TARGET)?.findings.find((x) => x.rule === 'stuck-deleting');

    expect(f?.signal).toBe('deletionStages/draining');
    expect(f?.args.message).toBe('Draining the node before deletion');
    expect(f?.fix[0].command).toMatch(/--field-selector spec\.nodeName=/);
    expect(f?.actions).toContain('remove-finalizers');
  });

  // cluster-api internal/controllers/machine reconcileDelete (1.9–1.13): a drain past its timeout is skipped and
  // DrainingSucceeded keeps its last words; Deleting says where the deletion is.
  const deletingWith = (conditions: Record<string, string>[]) => {
    const objects = fresh();
    const { machine } = target(objects);
    const since = ago(scenario.now, '1h');

    machine.metadata.deletionTimestamp = since;
    machine.metadata.finalizers = ['machine.cluster.x-k8s.io'];
    conditions.forEach((c) => setCondition(machine, { lastTransitionTime: since, ...c }));

    return diagnose(objects, { now: scenario.now }).records.find((r) => recordName(r) === TARGET)?.findings.find((x) => x.rule === 'stuck-deleting');
  };
  const staleDrain = {
    type: 'DrainingSucceeded', status: 'False', reason: 'Draining', message: 'Drain not completed yet (started at 2026-05-08T06:40:00Z):\n* Pods shop/web-0: cannot evict pod as it would violate the pod\'s disruption budget.'
  };

  // core/reconcilers/machine/drain EvictionResult.ConditionMessage, as Deleting DrainingNode carries it.
  it.each([
    [['budgets'], '* Pods shop/web-0, shop/web-1: cannot evict pod as it would violate the pod\'s disruption budget. The disruption budget web needs 2 healthy pods and has 2 currently'],
    [['terminating'], '* Pod monitoring/node-exporter-x2k9: deletionTimestamp set, but still not removed from the Node'],
    [['evictionError'], '* Pod shop/cart-7d9: failed to evict Pod, Internal error occurred: unable to reach the admission webhook'],
    [['completion'], '* Pods batch/job-a, batch/job-b: waiting for completion'],
    [['budgets', 'terminating', 'completion'], '* Pod a/b: deletionTimestamp set, but still not removed from the Node\n* Pod c/d: cannot evict pod as it would violate the pod\'s disruption budget. The disruption budget d needs 1 healthy pods and has 1 currently\n* Pod e/f: waiting for completion\nAfter above Pods have been removed from the Node, the following Pods will be evicted: g/h'],
  ])('give a drain the steps for what Cluster API says holds it (%j)', (steps, list) => {
    const f = deletingWith([{
      type: 'Deleting', status: 'True', reason: 'DrainingNode', message: `Drain not completed yet (started at 2026-05-08T06:40:00Z):\n${ list }`
    }]);
    const names = f?.fix.filter((x) => x.key.startsWith('nodeHealth.signals.deletionStages.draining.fix.')).map((x) => x.key.split('.').pop());

    expect(names).toStrictEqual(steps);
    expect(f?.fix.find((x) => x.key.endsWith('.fix.budgets'))?.command ?? 'kubectl get poddisruptionbudgets -A').toBe('kubectl get poddisruptionbudgets -A');
  });

  it('give a drain whose words say nothing of why every drain step', () => {
    const f = deletingWith([{
      type: 'DrainingSucceeded', status: 'False', reason: 'Draining', message: 'Draining the node before deletion'
    }]);

    expect(f?.fix.filter((x) => x.key.startsWith('nodeHealth.signals.deletionStages.draining.fix.')).map((x) => x.key.split('.').pop())).toStrictEqual(['pods', 'budgets']);
  });

  it('take the stage from Deleting where Cluster API writes it, not from a drain it skipped', () => {
    const f = deletingWith([staleDrain, {
      type: 'Deleting', status: 'True', reason: 'WaitingForInfrastructureDeletion', message: 'Waiting for VmwarevsphereMachine to be deleted'
    }]);

    expect(f?.signal).toBe('deletionStages/infrastructure');
    expect(f?.args.message).toBe('Waiting for VmwarevsphereMachine to be deleted');
    expect(f?.evidence.map((e) => e.path)).not.toContain('status.conditions[DrainingSucceeded].status');
  });

  it('at the infrastructure stage, tell a custom host (Rancher lets its CustomMachine go at once) from a provider\'s server', () => {
    const waiting = (kind: string) => ({
      type: 'Deleting', status: 'True', reason: 'WaitingForInfrastructureDeletion', message: `Waiting for ${ kind } to be deleted`
    });
    const custom = deletingWith([waiting('CustomMachine')]);

    expect(custom?.args.custom).toBe('yes');
    expect(custom?.fix.find((x) => x.key === 'nodeHealth.signals.deletionStages.infrastructure.fix.infrastructure')?.args).toStrictEqual({ custom: 'yes' });
    const objects = fresh();
    const { machine } = target(objects);
    const since = ago(scenario.now, '1h');

    machine.spec.infrastructureRef = {
      ...machine.spec.infrastructureRef, apiVersion: 'rke-machine.cattle.io/v1', kind: 'VmwarevsphereMachine'
    };
    machine.metadata.deletionTimestamp = since;
    machine.metadata.finalizers = ['machine.cluster.x-k8s.io'];
    setCondition(machine, { lastTransitionTime: since, ...waiting('VmwarevsphereMachine') });
    const server = diagnose(objects, { now: scenario.now }).records.find((r) => recordName(r) === TARGET)?.findings.find((x) => x.rule === 'stuck-deleting');

    expect(server?.args.custom).toBe('no');
    expect(server?.fix.find((x) => x.key === 'nodeHealth.signals.deletionStages.infrastructure.fix.infrastructure')?.args).toStrictEqual({ custom: 'no' });
  });

  it('read the hooks from Deleting, since v1beta1 leaves a hook\'s condition without words', () => {
    const message = 'Waiting for pre-terminate hooks to succeed (hooks: pre-terminate.delete.hook.machine.cluster.x-k8s.io/backup)';
    const f = deletingWith([
      {
        type: 'PreTerminateDeleteHookSucceeded', status: 'False', reason: 'WaitingExternalHook', message: ''
      },
      {
        type: 'Deleting', status: 'True', reason: 'WaitingForPreTerminateHook', message
      },
    ]);

    expect(f?.signal).toBe('deletionStages/preTerminateHook');
    expect(f?.args.message).toBe(message);
  });

  // Cluster API before 1.9: no Deleting; past its v1beta1 stages it waits for the infrastructure machine and the
  // bootstrap config to be gone, so the one left tells the stage.
  const passedHook = {
    type: 'PreTerminateDeleteHookSucceeded', status: 'True', reason: '', message: ''
  };
  const deletingWithout = (gone: string[]) => {
    const objects = fresh();
    const { machine } = target(objects);
    const since = ago(scenario.now, '1h');
    const refs = [machine.spec.infrastructureRef, machine.spec.bootstrap.configRef];

    machine.metadata.deletionTimestamp = since;
    machine.metadata.finalizers = ['machine.cluster.x-k8s.io'];
    [staleDrain, passedHook].forEach((c) => setCondition(machine, { lastTransitionTime: since, ...c }));
    const left = objects.filter((o) => !refs.some((ref) => gone.includes(ref.kind) && o.kind === ref.kind && o.metadata.name === ref.name));

    expect(left.length).toBe(objects.length - gone.length);

    return diagnose(left, { now: scenario.now }).records.find((r) => recordName(r) === TARGET)?.findings.find((x) => x.rule === 'stuck-deleting');
  };

  it('without Deleting, count a later stage passed as every earlier one passed, and name the object left to delete', () => {
    const f = deletingWith([staleDrain, passedHook]);

    expect(f?.signal).toBe('deletionStages/infrastructure');
    expect(f?.args.message).toMatch(/^CustomMachine fleet-default\//);
    expect(f?.evidence).toContainEqual(expect.objectContaining({ object: f?.args.message, path: 'metadata.deletionTimestamp' }));
  });

  it('without Deleting, a bootstrap config left once the infrastructure machine is gone is the stage', () => {
    const f = deletingWithout(['CustomMachine']);

    expect(f?.signal).toBe('deletionStages/bootstrap');
    expect(f?.args.message).toMatch(/^RKEBootstrap fleet-default\//);
  });

  it('without Deleting and with nothing left to delete, the Machine\'s whole state says what holds it', () => {
    const f = deletingWithout(['CustomMachine', 'RKEBootstrap']);

    expect(f?.signal).toBeUndefined();
    expect(f?.fix[0].key).toBe('nodeHealth.rules.stuckDeleting.fix.whatHolds');
  });

  it('without Deleting, infers no stage from objects before any v1beta1 stage has passed', () => {
    const f = deletingWith([]);

    expect(f?.signal).toBeUndefined();
  });

  it('name no stage once Cluster API is done and another finalizer holds the Machine, and cite its words', () => {
    const f = deletingWith([{
      type: 'Deleting', status: 'True', reason: 'DeletionCompleted', message: 'Deletion completed'
    }]);

    expect(f?.signal).toBeUndefined();
    expect(f?.evidence).toContainEqual(expect.objectContaining({ path: 'status.conditions[Deleting].reason', value: 'DeletionCompleted' }));
  });

  it('read a pressure taint that its condition explains as that condition, not a second finding', () => {
    const objects = fresh();
    const { node } = target(objects);
    const since = ago(scenario.now, '1h');

    setCondition(node, {
      type: 'MemoryPressure', status: 'True', reason: 'KubeletHasInsufficientMemory', message: 'kubelet has insufficient memory available', lastTransitionTime: since
    });
    node.spec.taints = [{
      key: 'node.kubernetes.io/memory-pressure', effect: 'NoSchedule', timeAdded: since
    }];
    const record = diagnose(objects, { now: scenario.now }).records.find((r) => recordName(r) === TARGET);

    expect(record?.findings.map((f) => f.signal)).toStrictEqual(['nodeConditions/memoryPressure']);
  });

  it('say nothing about conditions whose True is good news, or that name no problem', () => {
    const objects = fresh();
    const { node } = target(objects);

    setCondition(node, {
      type: 'KernelDeadlock', status: 'False', reason: 'KernelHasNoDeadlock', message: 'kernel has no deadlock', lastTransitionTime: ago(scenario.now, '1h')
    });
    setCondition(node, {
      type: 'GPUDriverInstalled', status: 'True', reason: 'DriverLoaded', message: 'driver loaded', lastTransitionTime: ago(scenario.now, '1h')
    });
    setCondition(node, {
      type: 'DiskPressure', status: 'False', reason: 'KubeletHasNoDiskPressure', message: 'kubelet has no disk pressure', lastTransitionTime: ago(scenario.now, '1h')
    });
    expect(statuses(objects).get(TARGET)).toBe('healthy');
  });
});

describe('a failed machine health check', () => {
  // cluster-api core/reconcilers/machinehealthcheck: the reason says what it judged, v1beta2 and v1beta1 names alike.
  it.each([
    ['UnhealthyNode', 'node', 'node', 'Condition Ready on Node is reporting status Unknown with reason NodeStatusUnknown for more than 5m0s'],
    ['NodeStartupTimeout', 'startup', 'machine', 'Node failed to report startup in 10m0s'],
    ['NodeDeleted', 'deleted', 'machine', 'Node custom-1 has been deleted'],
    ['NodeNotFound', 'deleted', 'machine', 'Node custom-1 has been deleted'],
    ['UnhealthyMachine', 'machine', 'machine', 'Health check failed:\n  * Condition EtcdPodHealthy on Machine is reporting status False with reason Unhealthy for more than 5m0s'],
    ['HasRemediateAnnotation', 'annotation', 'machine', 'Health check failed: marked for remediation via cluster.x-k8s.io/remediate-machine annotation'],
    // A reason no version writes, and one that is a property of every object: the Node is what to look at.
    ['constructor', 'other', 'node', 'Condition Ready on Node is reporting status Unknown for more than 5m0s'],
  ])('%s: the step says what the check judged (%s) and describes the %s', (reason, why, looksAt, message) => {
    const objects = fresh();
    const { machine } = target(objects);

    setCondition(machine, {
      type: 'HealthCheckSucceeded', status: 'False', reason, message, lastTransitionTime: ago(scenario.now, '20m')
    });
    const record = diagnose(objects, { now: scenario.now }).records.find((r) => recordName(r) === TARGET)!;
    const step = record.findings.find((f) => f.signal === 'machineConditions/healthCheckFailed')!.fix.find((s) => s.key.endsWith('.fix.node'))!;

    expect(step.args).toStrictEqual({ why });
    expect(step.command).toMatch(looksAt === 'node' ? /^kubectl describe node / : /^kubectl -n \S+ describe machines\.cluster\.x-k8s\.io /);
  });
});

describe('a Node whose cloud instance shut down', () => {
  const shutdownStep = (findings: { fix: { key: string; args?: Record<string, unknown> }[] }[]) => findings.flatMap((f) => f.fix).find((s) => s.key.endsWith('.fix.cloudShutdown'));

  it('says what replaces it: a custom host nothing (another host registers), a Node without a machine nothing either', () => {
    const catalogue = buildScenario('signal-catalogue');
    const custom = diagnose(clusterObjects(catalogue, catalogue.clusters[0].mgmtId), { now: catalogue.now }).records.find((r) => shutdownStep(r.findings));

    expect(shutdownStep(custom!.findings)?.args).toEqual({ machine: 'custom' });

    const imported = buildScenario('imported');
    const objects = JSON.parse(JSON.stringify(clusterObjects(imported, imported.clusters[0].mgmtId))) as any[];
    const node = objects.find((o) => o.kind === 'Node' && o.apiVersion === 'v1');

    node.spec.taints = [...(node.spec.taints ?? []), {
      key: 'node.cloudprovider.kubernetes.io/shutdown', effect: 'NoSchedule', timeAdded: ago(imported.now, '2h')
    }];
    const record = diagnose(objects, { now: imported.now }).records.find((r) => r.nodeName === node.metadata.name)!;

    expect(record.objects.machine).toBeUndefined();
    expect(shutdownStep(record.findings)?.args).toEqual({ machine: 'none' });
  });
});

describe('the kubelet and runtime steps of a signal name the service the host runs them in', () => {
  const catalogue = buildScenario('signal-catalogue');
  const report = diagnose(clusterObjects(catalogue, catalogue.clusters[0].mgmtId), { now: catalogue.now });
  const stepOf = (type: string, name: 'kubelet' | 'runtime') => report.records.flatMap((r) => r.findings)
    .find((f) => f.evidence.some((e) => e.path === `status.conditions[${ type }].status`))!.fix.find((s) => s.key.endsWith(`.fix.${ name }`))!;

  it('an RKE2 worker: rke2-agent, and RKE2\'s own crictl for its containerd (no containerd unit of the host\'s)', () => {
    const kubelet = stepOf('KubeletUnhealthy', 'kubelet');
    const runtime = stepOf('ContainerRuntimeUnhealthy', 'runtime');

    expect(kubelet.args).toEqual({ services: 'rke2-agent' });
    expect(kubelet.command).toBe('sudo systemctl status rke2-agent --no-pager');
    expect(runtime.args).toEqual({ services: 'rke2-agent' });
    expect(runtime.command).toBe('sudo /var/lib/rancher/rke2/bin/crictl --runtime-endpoint unix:///run/k3s/containerd/containerd.sock info');
  });

  it('disk pressure: the unused images removed with the distribution\'s own crictl', () => {
    const disk = report.records.flatMap((r) => r.findings).find((f) => f.evidence.some((e) => e.path === 'status.conditions[DiskPressure].status'))!
      .fix.find((s) => s.key.endsWith('.fix.disk'))!;

    expect(disk.command).toBe('sudo /var/lib/rancher/rke2/bin/crictl --runtime-endpoint unix:///run/k3s/containerd/containerd.sock rmi --prune');
  });

  it('an unreachable Node of a K3s server: the k3s service', () => {
    const objects = fresh();
    const { node } = target(objects);
    const cluster = objects.find((o) => o.kind === 'Cluster' && o.apiVersion.startsWith('provisioning'));

    cluster.spec.kubernetesVersion = 'v1.31.4+k3s1';
    node.spec.taints = [{
      key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule', timeAdded: ago(scenario.now, '1h')
    }];
    node.status.conditions = node.status.conditions.map((c: any) => (c.type === 'Ready' ? { ...c, status: 'True' } : c));
    const record = diagnose(objects, { now: scenario.now }).records.find((r) => recordName(r) === TARGET)!;
    const step = record.findings.flatMap((f) => f.fix).find((s) => s.key === 'nodeHealth.signals.taints.unreachable.fix.kubelet')!;

    expect(record.roles).toContain('controlplane');
    expect(step.args).toEqual({ services: 'k3s' });
    expect(step.command).toBe('sudo systemctl status k3s --no-pager');
  });
});
