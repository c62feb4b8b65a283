/**
 * What Cluster API writes on a Machine about its health checks, remediation and pausing, v1beta1 and v1beta2
 * alike. Sources: cluster-api `api/core/v1beta2/machine_types.go`, `api/core/v1beta1/condition_consts.go`,
 * `core/reconcilers/machinehealthcheck/machinehealthcheck_targets.go`, `api/core/v1beta2/common_types.go`
 * (annotations); the deletion stages from the machine controller's reconcileDelete, in the order it runs them.
 */
import type { Severity } from '../types';
import type { SignalEntry, SignalTable } from './table';

export interface MachineConditionSignal extends SignalEntry {
  conditionType: string;
  status: 'True' | 'False';
  /** Real reasons and a message the writer uses (the first reason is the scenarios') */
  example: { reason: string; message: string };
}

export interface MachineAnnotationSignal extends SignalEntry {
  annotation: string;
  /** The last step of its fix, which takes the annotation back: the rule gives it the command that removes it */
  undo: string;
  example: { value: string };
}

const MHC = 'cluster-api core/reconcilers/machinehealthcheck';

/** A condition Cluster API writes on the Machine, bad at one status: its field and value say which. */
function conditionSignal(
  id: string, conditionType: string, status: 'True' | 'False', severity: Severity, source: string, fix: string[], example: MachineConditionSignal['example']
): MachineConditionSignal {
  return {
    id,
    object:   'machine',
    field:    `status.conditions[${ conditionType }]`,
    when:     status,
    severity,
    rule:     'machine-signal',
    source,
    conditionType,
    status,
    fix,
    example,
  };
}

export const MACHINE_CONDITION_SIGNALS: readonly MachineConditionSignal[] = [
  conditionSignal('healthCheckFailed', 'HealthCheckSucceeded', 'False', 'error', MHC, ['shared:healthChecks', 'node'], { reason: 'UnhealthyNode', message: 'Condition Ready on Node is reporting status Unknown with reason NodeStatusUnknown for more than 5m0s' }),
  conditionSignal('ownerRemediationPending', 'OwnerRemediated', 'False', 'error', MHC, ['shared:healthChecks', 'owner'], { reason: 'WaitingForRemediation', message: 'Waiting for remediation' }),
  conditionSignal('externalRemediationPending', 'ExternallyRemediated', 'False', 'error', MHC, ['shared:healthChecks', 'external'], { reason: 'RemediationTemplateNotFound', message: 'Error retrieving remediation template Metal3RemediationTemplate fleet-default/worker-remediation' }),
  conditionSignal('pausedCondition', 'Paused', 'True', 'warning', 'cluster-api api/core/v1beta2 PausedCondition', ['whoPaused', 'resume'], { reason: 'Paused', message: 'Machine has the cluster.x-k8s.io/paused annotation' }),
];

/** An annotation on the Machine that matters whatever its value; `constant` is its name in cluster-api's Go source. */
function annotationSignal(id: string, annotation: string, constant: string, severity: Severity, before: string[], undo: string, value = ''): MachineAnnotationSignal {
  return {
    id,
    object:   'machine',
    field:    `metadata.annotations[${ annotation }]`,
    when:     'present',
    severity,
    rule:     'machine-signal',
    source:   `cluster-api api/core/v1beta2 ${ constant }`,
    annotation,
    fix:      [...before, undo],
    undo,
    example:  { value },
  };
}

export const MACHINE_ANNOTATION_SIGNALS: readonly MachineAnnotationSignal[] = [
  annotationSignal('paused', 'cluster.x-k8s.io/paused', 'PausedAnnotation', 'warning', ['whoPaused'], 'resume'),
  annotationSignal('remediateMachine', 'cluster.x-k8s.io/remediate-machine', 'RemediateMachineAnnotation', 'warning', ['shared:healthChecks'], 'unmark'),
  // Worth knowing, not a fault: the pool's next scale-down removes this machine first.
  annotationSignal('deleteMachine', 'cluster.x-k8s.io/delete-machine', 'DeleteMachineAnnotation', 'info', [], 'unmarkDelete', 'yes'),
  // Worth knowing before a deletion: the Node is not drained, its pods are killed rather than evicted.
  annotationSignal('excludeNodeDraining', 'machine.cluster.x-k8s.io/exclude-node-draining', 'ExcludeNodeDrainingAnnotation', 'info', [], 'drainAgain'),
  // Worth knowing before a deletion: Cluster API does not wait for the Node's volumes to be detached.
  annotationSignal('excludeVolumeDetach', 'machine.cluster.x-k8s.io/exclude-wait-for-node-volume-detach', 'ExcludeWaitForNodeVolumeDetachAnnotation', 'info', [], 'waitAgain'),
  // The health check marks the machine unhealthy and never replaces it ("machine has \"cluster.x-k8s.io/skip-remediation\" annotation").
  annotationSignal('skipRemediation', 'cluster.x-k8s.io/skip-remediation', 'MachineSkipRemediationAnnotation', 'warning', [], 'remediateAgain'),
];

export const MACHINE_CONDITION_TABLE: SignalTable = {
  id: 'machineConditions', title: 'Cluster API Machine conditions (health checks, remediation, paused)', entries: MACHINE_CONDITION_SIGNALS
};

export const MACHINE_ANNOTATION_TABLE: SignalTable = {
  id: 'machineAnnotations', title: 'Cluster API Machine annotations', entries: MACHINE_ANNOTATION_SIGNALS
};

export interface DeletionStageSignal extends SignalEntry {
  /** v1beta1: the condition that is not True while the stage holds (none for the stages only v1beta2 names) */
  conditionType: string | null;
  /** v1beta2: the reason of the Machine's Deleting condition in this stage */
  deletingReason: string;
  example: { reason: string; message: string };
}

const MACHINE_CONTROLLER = 'cluster-api internal/controllers/machine (reconcileDelete)';

function stage(id: string, conditionType: string | null, deletingReason: string, fix: string[], example: DeletionStageSignal['example']): DeletionStageSignal {
  return {
    id,
    object:   'machine',
    field:    conditionType ? `status.conditions[${ conditionType }]` : `status.conditions[Deleting].reason=${ deletingReason }`,
    when:     conditionType ? `not True (v1beta2: Deleting ${ deletingReason })` : `Deleting ${ deletingReason }`,
    severity: 'error',
    rule:     'stuck-deleting',
    source:   MACHINE_CONTROLLER,
    conditionType,
    deletingReason,
    fix,
    example,
  };
}

/**
 * Where a Machine's deletion waits, in the order the machine controller goes through it: the first stage that
 * has not finished is the one that holds it. The etcd member's pre-terminate hook is etcd-removal-hook-blocked's.
 */
export const DELETION_STAGES: readonly DeletionStageSignal[] = [
  // v1beta1 marks the hook conditions False without a message; only v1beta2's Deleting names the hooks
  // ("Waiting for pre-drain hooks to succeed (hooks: …)").
  stage('preDrainHook', 'PreDrainDeleteHookSucceeded', 'WaitingForPreDrainHook', ['hooks'], { reason: 'WaitingExternalHook', message: '' }),
  stage('draining', 'DrainingSucceeded', 'DrainingNode', ['pods', 'budgets'], { reason: 'Draining', message: 'Draining the node before deletion' }),
  stage('volumeDetach', 'VolumeDetachSucceeded', 'WaitingForVolumeDetach', ['volumes'], { reason: 'WaitingForVolumeDetach', message: 'Waiting for node volumes to be detached' }),
  stage('preTerminateHook', 'PreTerminateDeleteHookSucceeded', 'WaitingForPreTerminateHook', ['hooks'], { reason: 'WaitingExternalHook', message: '' }),
  stage('infrastructure', null, 'WaitingForInfrastructureDeletion', ['infrastructure'], { reason: 'WaitingForInfrastructureDeletion', message: 'Waiting for VmwarevsphereMachine to be deleted' }),
  stage('bootstrap', null, 'WaitingForBootstrapDeletion', ['bootstrap'], { reason: 'WaitingForBootstrapDeletion', message: 'Waiting for RKEBootstrap to be deleted' }),
  // Set only when deleting the Node fails ("Deleting Node" is the controller's log line, not a condition).
  stage('deletingNode', null, 'DeletingNode', ['node'], { reason: 'DeletingNode', message: 'Error deleting Node, please check controller logs for errors' }),
];

/**
 * What holds a drain, as Cluster API 1.9 and later list it in the drain's message (core/reconcilers/machine/drain
 * EvictionResult.ConditionMessage) and classify it themselves (machine_controller_status.go, "delay likely due to
 * …"): PodDisruptionBudgets, Pods not terminating, Pod eviction errors, Pods not completed yet. Each has its step.
 */
export const DRAIN_DELAYS: readonly { step: string; fragment: string }[] = [
  { step: 'budgets', fragment: 'cannot evict pod as it would violate the pod\'s disruption budget.' },
  { step: 'terminating', fragment: 'deletionTimestamp set, but still not removed from the Node' },
  { step: 'evictionError', fragment: 'failed to evict Pod' },
  { step: 'completion', fragment: 'waiting for completion' },
];

/** The steps a drain's message calls for, in Cluster API's order; none for a message without its list. */
export function drainDelays(message: string | null | undefined): string[] {
  const m = (message ?? '').toLowerCase();

  return DRAIN_DELAYS.filter((d) => m.includes(d.fragment.toLowerCase())).map((d) => d.step);
}

export const DELETION_STAGE_TABLE: SignalTable = {
  id: 'deletionStages', title: 'Cluster API Machine deletion stages (the first one not finished holds the deletion)', entries: DELETION_STAGES
};
