/**
 * Rules about a machine's place in the cluster's life: the machine the cluster's own conditions say it is
 * waiting for, and machines whose deletion does not finish.
 */
import type { ActionId, FixStep, NodeRecord } from '../types';
import { getCondition } from '../conditions';
import type { Condition } from '../conditions';
import {
  annotation, asObject, asString, describeObject, nameOf
} from '../fields';
import { ANNOTATIONS } from '../vocabulary';
import { infraResource, infrastructureRef } from '../objects';
import {
  Rule, RuleContext, age, commonStep, conditionEvidence, duration, evidence, kubectl, kubectlMachine, objectLabel, podsOnNode, sh, acting, step
} from './rule';
import {
  customHost, hostHeard, infrastructureDeleteError, infrastructureJobError, jobLogCommand, rkeBootstrapYaml
} from './shared';
import { DELETION_STAGES, drainDelays } from '../signals/machine';
import { CREDENTIAL_REFUSED } from '../signals/infrastructure';
import type { DeletionStageSignal } from '../signals/machine';
import { signalId, signalKey } from '../signals/table';
import { signalSteps } from './signals';
import { distributionOf, etcdMemberList } from './host-commands';

/** The annotation Rancher's Force Delete sets on the infrastructure machine (rancher/dashboard's Machine model). */
export const FORCE_MACHINE_REMOVE = 'provisioning.cattle.io/force-machine-remove';

export const ETCD_HOOK_CONDITION = 'PreTerminateDeleteHookSucceeded';

export const blockingClusterOperation: Rule = {
  id:       'blocking-cluster-operation',
  severity: 'error',
  needs:    [],
  check(r, ctx) {
    const c = r.cluster;

    if (!c || !r.machineName || !c.blockingMachines.includes(r.machineName) || !r.objects.machine) {
      return null;
    }
    const clusterLabel = r.objects.cluster ? objectLabel('cluster', r.objects.cluster) : `Cluster ${ c.name }`;
    const waited = age(ctx, c.blockingSince);
    // Every provision and upgrade names its machines one tier at a time while the planner waits (Unknown/Waiting):
    // a machine named for less time than a plan takes to apply is being configured, not holding the cluster back.
    // A hard error (False) holds it at once, and a time that cannot be read is not taken as young.
    const progress = c.blockingStatus !== 'False' && waited !== null && waited < ctx.config.planApplyTimeoutMs;
    const watch = step(this.id, 'watchCluster', { cluster: c.name }, kubectl('get', 'clusters.provisioning.cattle.io', [c.name], { namespace: c.namespace, flags: [`-o jsonpath='{.status.conditions[?(@.type=="Updated")].message}'`] }));

    return {
      severity: progress ? 'info' : undefined,
      args:     {
        cluster:   c.name,
        condition: c.blockingCondition ?? '?',
        duration:  duration(waited),
        rotation:  c.certificateRotation ?? 'no',
        progress:  progress ? 'yes' : 'no',
        failed:    c.blockingStatus === 'False' ? 'yes' : 'no',
        threshold: duration(ctx.config.planApplyTimeoutMs),
      },
      evidence: [
        evidence(clusterLabel, `status.conditions[${ c.blockingCondition }].status`, c.blockingStatus),
        evidence(clusterLabel, `status.conditions[${ c.blockingCondition }].message`, c.blockingMessage),
        evidence(clusterLabel, `status.conditions[${ c.blockingCondition }].lastTransitionTime`, c.blockingSince),
      ],
      fix: progress ? [watch] : [
        acting('defer', step(this.id, 'fixThisMachine')),
        // A host heard from now is not gone: no deletion "if it is gone" stands in its plan (the delete's preflight refuses it too).
        ...(hostHeard(r, ctx) ? [] : [acting('delete-machine', step(this.id, 'removeIfGone', {}, kubectlMachine(r, 'delete', '--wait=false')))]),
        watch,
      ],
      since:   c.blockingSince,
      actions: [],
    };
  },
};

/** The finalizer cleanup is a last resort: offered only on a machine stuck deleting past the threshold. */
export function finalizerCleanupEligible(r: NodeRecord, ctx: RuleContext): boolean {
  const deletingFor = age(ctx, r.deleting);

  return !!r.objects.machine && deletingFor !== null && deletingFor >= ctx.config.stuckDeletingTimeoutMs && r.finalizers.length > 0;
}

export function etcdHookHolds(r: NodeRecord): boolean {
  const m = r.objects.machine;

  return !!m && !!r.deleting && annotation(m, ANNOTATIONS.etcdHook) !== null;
}

/** Whether the provider's words say it refused the pool's cloud credential. */
function credentialRefused(message: string | null): 'yes' | 'no' {
  return CREDENTIAL_REFUSED.test(message ?? '') ? 'yes' : 'no';
}

/** Renewing the pool's cloud credential, named where its infrastructure machine says which one it is. */
function cloudCredentialStep(r: NodeRecord, job: 'create' | 'delete'): FixStep {
  const credential = r.objects.infraMachine ? asString(asObject(r.objects.infraMachine.status).cloudCredentialSecretName) : null;

  return commonStep('cloudCredentialRefused', { credential: credential ?? 'none', job });
}

/**
 * The driver's output ends with its error ("Error removing host …"), quoted in parentheses inside a sentence: without
 * its own closing full stop, which would stand before the sentence's. The whole output stays in the evidence.
 */
function lastLine(text: string | null): string | null {
  const lines = (text ?? '').split('\n').map((l) => l.trim()).filter(Boolean);
  const last = lines.length ? lines[lines.length - 1].replace(/(?<!\.)\.$/, '') : '';

  return last || null;
}

/**
 * A machine whose infrastructure delete fails: the server may still run. Removing the Machine's finalizers would
 * leave it running, billed, with nothing in Rancher that owns it; Rancher's own way out is its Force Delete, once
 * the server is known to be gone.
 */
export const infrastructureDeleteFailed: Rule = {
  id:       'infrastructure-delete-failed',
  severity: 'error',
  explains: ['stuck-deleting', 'blocking-cluster-operation'],
  needs:    [],
  check(r, ctx) {
    const m = r.objects.machine;
    const failure = r.deleting ? infrastructureDeleteError(r) : null;

    if (!m || !failure) {
      return null;
    }
    const machineLabel = objectLabel('machine', m);
    const ref = infrastructureRef(m);
    const infra = r.objects.infraMachine;
    const kind = ref?.kind ?? infra?.kind ?? null;
    const name = ref?.name ?? infra?.metadata?.name ?? null;
    const resource = infraResource({ kind, group: ref?.group ?? null });
    const namespace = r.machineNamespace ?? undefined;
    const readError = failure.jobName ? jobLogCommand(failure.jobName, namespace) : resource && name ? kubectl('get', resource, [name], { namespace, flags: [`-o jsonpath='{.status.failureMessage}'`] }) : undefined;
    const forced = infra ? annotation(infra, FORCE_MACHINE_REMOVE) : null;
    const refused = credentialRefused(failure.message);

    return {
      args: {
        kind:     kind ?? '?',
        server:   name ?? '?',
        message:  lastLine(failure.message) ?? '-',
        duration: duration(age(ctx, r.deleting)),
        forced:   forced?.toLowerCase() === 'true' ? 'yes' : 'no',
        refused,
      },
      evidence: [
        ...failure.evidence,
        ...(forced !== null && infra ? [evidence(objectLabel('infraMachine', infra), `metadata.annotations[${ FORCE_MACHINE_REMOVE }]`, forced)] : []),
        evidence(machineLabel, 'metadata.deletionTimestamp', r.deleting),
        evidence(machineLabel, 'metadata.finalizers', r.finalizers.join(', ')),
      ],
      fix: [
        step(this.id, 'providerSays', {}, readError),
        refused === 'yes' ? cloudCredentialStep(r, 'delete') : step(this.id, 'credential'),
        step(this.id, 'serverGone', { server: name ?? '?' }),
        step(this.id, 'forceDelete', {}, resource && name ? kubectl('annotate', resource, [name], { namespace, after: [`${ FORCE_MACHINE_REMOVE }=true`] }) : undefined),
        step(this.id, 'noFinalizers'),
      ],
      since:   failure.since ?? r.deleting,
      // Rancher's own way out once the server is gone (dashboard's Machine model offers it on DeleteError).
      actions: forced?.toLowerCase() === 'true' ? [] : ['force-delete'],
    };
  },
};

/**
 * A node-driver machine whose create job failed: the provider refused the server (quota, image, network, a
 * credential). The pool does not retry by itself; once the cause is fixed, deleting the machine lets the pool
 * create a new one. Rancher cleans up after a failed create even when its delete job fails too, so a server
 * the provider created half-way is looked for by hand.
 */
export const infrastructureCreateFailed: Rule = {
  id:       'infrastructure-create-failed',
  severity: 'error',
  explains: ['waiting-for-node-ref', 'blocking-cluster-operation'],
  needs:    [],
  check(r) {
    const m = r.objects.machine;
    const failure = !r.deleting ? infrastructureJobError(r, 'create') : null;

    if (!m || !failure) {
      return null;
    }
    const ref = infrastructureRef(m);
    const kind = ref?.kind ?? r.objects.infraMachine?.kind ?? null;
    const name = ref?.name ?? r.objects.infraMachine?.metadata?.name ?? null;
    const namespace = r.machineNamespace ?? undefined;
    const refused = credentialRefused(failure.message);

    return {
      args: {
        kind: kind ?? '?', server: name ?? '?', message: lastLine(failure.message) ?? '-', refused,
      },
      evidence: failure.evidence,
      fix:      [
        step(this.id, 'providerSays', {}, failure.jobName ? jobLogCommand(failure.jobName, namespace) : undefined),
        refused === 'yes' ? cloudCredentialStep(r, 'create') : step(this.id, 'fixCause'),
        step(this.id, 'halfCreated', { server: name ?? '?' }),
        acting('delete-machine', step(this.id, 'replace', {}, kubectlMachine(r, 'delete', '--wait=false'))),
      ],
      since:   failure.since ?? r.created,
      actions: [],
    };
  },
};

export const stuckDeleting: Rule = {
  id:       'stuck-deleting',
  severity: 'error',
  explains: ['blocking-cluster-operation'],
  needs:    [],
  check(r, ctx) {
    const m = r.objects.machine;

    // A failing infrastructure delete is its own finding, and the finalizer removal is not its way out.
    if (!m || !finalizerCleanupEligible(r, ctx) || infrastructureDeleteError(r)) {
      return null;
    }
    const machineLabel = objectLabel('machine', m);
    const deleting = getCondition(m, 'Deleting');
    const stage = deletionStage(r, deleting);
    // The v1beta1 conditions of the stages not passed yet: a step Cluster API skipped (a drain past its timeout)
    // keeps its last words, which say nothing about where the deletion is now.
    const from = stage ? DELETION_STAGES.indexOf(stage) : 0;
    const held = DELETION_STAGES.slice(from).map((e) => (e.conditionType ? getCondition(m, e.conditionType) : null))
      .filter((c): c is Condition => !!c && c.status !== 'True');
    // v1beta2's Deleting has the stage's own words (the hooks, the pods, the volumes); v1beta1 leaves hooks' empty.
    const left = !stage || deleting ? null : leftBehind(r, stage);
    const said = stage && deleting?.reason === stage.deletingReason && deleting.message ? deleting.message : (stage?.conditionType ? getCondition(m, stage.conditionType)?.message : left?.label);
    const actions: ActionId[] = [];
    const etcdHeld = etcdHookHolds(r) && stage?.id === 'preTerminateHook';

    if (etcdHookHolds(r) && r.objects.bootstrap) {
      actions.push('etcd-force-remove');
    }
    actions.push('remove-finalizers');

    return {
      args: {
        duration:   duration(age(ctx, r.deleting)),
        finalizers: r.finalizers.join(', '),
        // What the stage's own condition says ("Draining the node before deletion"), for the stage's words; v1beta1's
        // hook conditions say nothing ('none': the sentence leaves the quote out).
        message:    said || 'none',
        custom:     customHost(r),
      },
      evidence: [
        evidence(machineLabel, 'metadata.deletionTimestamp', r.deleting),
        evidence(machineLabel, 'metadata.finalizers', r.finalizers.join(', ')),
        ...held.flatMap((c) => conditionEvidence(machineLabel, c)),
        // Deleting tells the stage, or, where no stage is known, what holds it (InternalError; DeletionCompleted:
        // Cluster API's part is done and another finalizer holds the Machine).
        ...(deleting && deleting.reason ? conditionEvidence(machineLabel, deleting) : []),
        ...(r.plan.state === 'waiting-for-agent' ? [evidence(machineLabel, 'plan', 'waiting for agent to check in and apply initial plan')] : []),
        ...(r.objects.node ? [] : [evidence(machineLabel, 'status.nodeRef', r.nodeName)]),
        ...(left ? [evidence(left.label, 'metadata.deletionTimestamp', left.deleting)] : []),
      ],
      fix: [
        // The stage that holds the deletion says where to look; without one, the Machine's whole state does. Rancher's
        // etcd hook is the etcd removal finding's, whose steps say who holds it and what to do: a plan it leads
        // leaves this pointer out.
        ...(etcdHeld ? [] : (stage ? stageSteps(r, stage, said ?? null) : [acting('inspect-machine', step(this.id, 'whatHolds', {}, kubectlMachine(r, 'get', '-o yaml')))])),
        ...(etcdHookHolds(r) ? [acting('defer', step(this.id, 'etcdFirst'))] : []),
        acting('remove-finalizers', step(this.id, 'lastResort', {}, kubectlMachine(r, 'patch', '--type=json', `-p '[{"op":"remove","path":"/metadata/finalizers"}]'`))),
        step(this.id, 'leftovers'),
        acting('re-register', step(this.id, 'reRegister')),
      ],
      since: r.deleting,
      actions,
      ...(stage ? {
        signal: {
          id: signalId('deletionStages', stage), titleKey: signalKey('deletionStages', stage, 'title'), causeKey: signalKey('deletionStages', stage, 'cause')
        }
      } : {}),
    };
  },
};

/**
 * The stage of Cluster API's deletion that holds the Machine. v1beta2's Deleting (Cluster API 1.9 and later) names
 * it; its other reasons (InternalError, DeletionCompleted) are no stage. Without it, the v1beta1 conditions: the
 * first not True after the last True one, since a step the controller skipped (a drain past nodeDrainTimeout,
 * volumes it was told not to wait for) stays False while the deletion goes on.
 */
function deletionStage(r: NodeRecord, deleting: Condition | null): DeletionStageSignal | null {
  const m = r.objects.machine;

  if (deleting && deleting.status === 'True' && deleting.reason) {
    return DELETION_STAGES.find((e) => e.deletingReason === deleting.reason) ?? null;
  }
  let stage: DeletionStageSignal | null = null;
  let passed = false;

  for (const entry of DELETION_STAGES) {
    const c = entry.conditionType && m ? getCondition(m, entry.conditionType) : null;

    if (c?.status === 'True') {
      stage = null;
      passed = true;
    } else if (c && !stage) {
      stage = entry;
    }
  }
  // Cluster API before 1.9 writes no Deleting: past the stages its v1beta1 conditions mark, it deletes the
  // infrastructure machine and the bootstrap config and waits for both to be gone. Which one is left tells the stage.
  if (!stage && !deleting && passed) {
    if (r.objects.infraMachine && r.inputs.infraMachines === 'ok') {
      return DELETION_STAGES.find((e) => e.id === 'infrastructure') ?? null;
    }
    if (r.objects.bootstrap && r.inputs.bootstraps === 'ok') {
      return DELETION_STAGES.find((e) => e.id === 'bootstrap') ?? null;
    }
  }

  return stage;
}

/** The object a stage inferred without Deleting waits for: the infrastructure machine or the bootstrap config. */
function leftBehind(r: NodeRecord, stage: DeletionStageSignal): { label: string; deleting: string | null } | null {
  const obj = stage.id === 'infrastructure' ? r.objects.infraMachine : (stage.id === 'bootstrap' ? r.objects.bootstrap : undefined);

  if (!obj) {
    return null;
  }

  return { label: objectLabel(stage.id === 'infrastructure' ? 'infraMachine' : 'bootstrap', obj), deleting: asString(obj.metadata?.deletionTimestamp) };
}

/**
 * The stage's steps. A drain whose message lists what holds it (Cluster API 1.9 and later) gets the steps for what it
 * lists; its older words ("Draining the node before deletion") say nothing of why, and get every drain step.
 */
function stageSteps(r: NodeRecord, stage: DeletionStageSignal, said: string | null): FixStep[] {
  const commands = stageCommands(r);
  const delays = stage.id === 'draining' ? drainDelays(said) : [];

  if (delays.length === 0) {
    // A custom host's CustomMachine has no provider: Rancher lets it go at once (pkg/controllers/capr/unmanaged).
    return signalSteps('deletionStages', stage, commands, { infrastructure: { custom: customHost(r) } });
  }

  return delays.map((name) => {
    const s: FixStep = { key: signalKey('deletionStages', stage, `fix.${ name }`) };
    const command = name === 'budgets' ? commands.budgets : commands.pods;

    if (command) {
      s.command = command;
    }

    return s;
  });
}

function stageCommands(r: NodeRecord): Record<string, string | undefined> {
  const node = r.nodeName;
  const infra = r.objects.machine ? infrastructureRef(r.objects.machine) : null;
  const namespace = r.machineNamespace ?? undefined;

  return {
    hooks:          kubectlMachine(r, 'get', `-o jsonpath='{.metadata.annotations}'`),
    pods:           node ? podsOnNode(node) : undefined,
    budgets:        'kubectl get poddisruptionbudgets -A',
    volumes:        node ? `kubectl get volumeattachments | grep -- ${ sh(node) }` : 'kubectl get volumeattachments',
    infrastructure: infra?.kind && infra.name ? kubectl('get', infraResource(infra) as string, [infra.name], { namespace, flags: ['-o yaml'] }) : undefined,
    bootstrap:      rkeBootstrapYaml(r),
    node:           node ? kubectl('get', 'node', [node], { flags: ['-o yaml'] }) : undefined,
  };
}

export const etcdRemovalHookBlocked: Rule = {
  id:       'etcd-removal-hook-blocked',
  severity: 'error',
  explains: ['stuck-deleting', 'blocking-cluster-operation'],
  needs:    [],
  check(r, ctx) {
    const m = r.objects.machine;

    if (!m || !etcdHookHolds(r)) {
      return null;
    }
    const hook = getCondition(m, ETCD_HOOK_CONDITION);
    const deletingFor = age(ctx, r.deleting);

    if (hook?.status === 'True' || deletingFor === null || deletingFor < ctx.config.stuckDeletingTimeoutMs) {
      return null;
    }
    const machineLabel = objectLabel('machine', m);
    const joined = ctx.machinesJoinedTo(r.machineNamespace, r.machineName);
    const joinUrl = r.objects.planSecret ? annotation(r.objects.planSecret, ANNOTATIONS.joinUrl) : null;
    const bootstrap = r.objects.bootstrap;
    const forced = bootstrap ? annotation(bootstrap, ANNOTATIONS.etcdForceRemove) : null;
    const bootstrapName = bootstrap ? describeObject('RKEBootstrap', bootstrap) : `RKEBootstrap ${ r.machineNamespace }/${ r.machineName }`;

    return {
      args:     { duration: duration(deletingFor), joined: joined.join(', ') || '-' },
      evidence: [
        evidence(machineLabel, `metadata.annotations[${ ANNOTATIONS.etcdHook }]`, annotation(m, ANNOTATIONS.etcdHook)),
        evidence(machineLabel, 'metadata.deletionTimestamp', r.deleting),
        ...(hook ? conditionEvidence(machineLabel, hook) : []),
        ...joined.map((name) => evidence(`Secret ${ r.machineNamespace }/${ name }-machine-plan`, `metadata.annotations[${ ANNOTATIONS.joinedTo }]`, joinUrl ?? r.machineName)),
        evidence(bootstrapName, `metadata.annotations[${ ANNOTATIONS.etcdForceRemove }]`, forced),
      ],
      fix: [
        step(this.id, 'memberList', {}, etcdMemberList(distributionOf(r))),
        ...(joined.length > 0 ? [step(this.id, 'joinedNodes', { joined: joined.join(', ') })] : []),
        step(this.id, 'forceRemove', {}, kubectl('annotate', 'rkebootstraps.rke.cattle.io', [bootstrap ? nameOf(bootstrap) : r.machineName], { namespace: r.machineNamespace, after: [`${ ANNOTATIONS.etcdForceRemove }=true`] })),
        acting('remove-finalizers', step(this.id, 'finalizersAfter')),
      ],
      since:   r.deleting,
      actions: bootstrap && forced !== 'true' ? ['etcd-force-remove'] : [],
    };
  },
};
