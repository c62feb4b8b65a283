/**
 * What Cluster API writes on a Machine about its health checks, remediation and pausing, v1beta1 and v1beta2
 * alike. Sources: cluster-api `api/core/v1beta2/machine_types.go`, `api/core/v1beta1/condition_consts.go`,
 * `core/reconcilers/machinehealthcheck/machinehealthcheck_targets.go`, `api/core/v1beta2/common_types.go`
 * (annotations); the deletion stages from the machine controller's reconcileDelete, in the order it runs them.
 */
import type { SignalEntry, SignalTable } from './table';

export interface MachineConditionSignal extends SignalEntry {
  conditionType: string;
  status: 'True' | 'False';
  /** Real reasons and a message the writer uses (the first reason is the scenarios') */
  example: { reason: string; message: string };
}

export interface MachineAnnotationSignal extends SignalEntry {
  annotation: string;
  example: { value: string };
}

const MHC = 'cluster-api core/reconcilers/machinehealthcheck';

export const MACHINE_CONDITION_SIGNALS: readonly MachineConditionSignal[] = [
  {
    id:            'healthCheckFailed',
    object:        'machine',
    field:         'status.conditions[HealthCheckSucceeded]',
    when:          'False',
    severity:      'error',
    rule:          'machine-signal',
    source:        MHC,
    conditionType: 'HealthCheckSucceeded',
    status:        'False',
    fix:           ['shared:healthChecks', 'node'],
    example:       { reason: 'UnhealthyNode', message: 'Condition Ready on node is reporting status Unknown for more than 5m0s' },
  },
  {
    id:            'ownerRemediationPending',
    object:        'machine',
    field:         'status.conditions[OwnerRemediated]',
    when:          'False',
    severity:      'error',
    rule:          'machine-signal',
    source:        MHC,
    conditionType: 'OwnerRemediated',
    status:        'False',
    fix:           ['shared:healthChecks', 'owner'],
    example:       { reason: 'WaitingForRemediation', message: 'Waiting for remediation' },
  },
  {
    id:            'externalRemediationPending',
    object:        'machine',
    field:         'status.conditions[ExternallyRemediated]',
    when:          'False',
    severity:      'error',
    rule:          'machine-signal',
    source:        MHC,
    conditionType: 'ExternallyRemediated',
    status:        'False',
    fix:           ['shared:healthChecks', 'external'],
    example:       { reason: 'RemediationTemplateNotFound', message: 'Remediation template not found' },
  },
  {
    id:            'pausedCondition',
    object:        'machine',
    field:         'status.conditions[Paused]',
    when:          'True',
    severity:      'warning',
    rule:          'machine-signal',
    source:        'cluster-api api/core/v1beta2 PausedCondition',
    conditionType: 'Paused',
    status:        'True',
    fix:           ['whoPaused', 'resume'],
    example:       { reason: 'Paused', message: 'Machine has the cluster.x-k8s.io/paused annotation' },
  },
];

export const MACHINE_ANNOTATION_SIGNALS: readonly MachineAnnotationSignal[] = [
  {
    id:         'paused',
    object:     'machine',
    field:      'metadata.annotations[cluster.x-k8s.io/paused]',
    when:       'present',
    severity:   'warning',
    rule:       'machine-signal',
    source:     'cluster-api api/core/v1beta2 PausedAnnotation',
    annotation: 'cluster.x-k8s.io/paused',
    fix:        ['whoPaused', 'resume'],
    example:    { value: '' },
  },
  {
    id:         'remediateMachine',
    object:     'machine',
    field:      'metadata.annotations[cluster.x-k8s.io/remediate-machine]',
    when:       'present',
    severity:   'warning',
    rule:       'machine-signal',
    source:     'cluster-api api/core/v1beta2 RemediateMachineAnnotation',
    annotation: 'cluster.x-k8s.io/remediate-machine',
    fix:        ['shared:healthChecks', 'unmark'],
    example:    { value: '' },
  },
  {
    // Worth knowing, not a fault: the pool's next scale-down removes this machine first.
    id:         'deleteMachine',
    object:     'machine',
    field:      'metadata.annotations[cluster.x-k8s.io/delete-machine]',
    when:       'present',
    severity:   'info',
    rule:       'machine-signal',
    source:     'cluster-api api/core/v1beta2 DeleteMachineAnnotation',
    annotation: 'cluster.x-k8s.io/delete-machine',
    fix:        ['unmarkDelete'],
    example:    { value: 'yes' },
  },
  {
    // Worth knowing before a deletion: the Node is not drained, its pods are killed rather than evicted.
    id:         'excludeNodeDraining',
    object:     'machine',
    field:      'metadata.annotations[machine.cluster.x-k8s.io/exclude-node-draining]',
    when:       'present',
    severity:   'info',
    rule:       'machine-signal',
    source:     'cluster-api api/core/v1beta2 ExcludeNodeDrainingAnnotation',
    annotation: 'machine.cluster.x-k8s.io/exclude-node-draining',
    fix:        ['drainAgain'],
    example:    { value: '' },
  },
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
  stage('preDrainHook', 'PreDrainDeleteHookSucceeded', 'WaitingForPreDrainHook', ['hooks'], { reason: 'WaitingExternalHook', message: 'Waiting for pre-drain hooks to succeed (hooks: pre-drain.delete.hook.machine.cluster.x-k8s.io/backup)' }),
  stage('draining', 'DrainingSucceeded', 'DrainingNode', ['pods', 'budgets'], { reason: 'Draining', message: 'Draining the node before deletion' }),
  stage('volumeDetach', 'VolumeDetachSucceeded', 'WaitingForVolumeDetach', ['volumes'], { reason: 'WaitingForVolumeDetach', message: 'Waiting for node volumes to be detached' }),
  stage('preTerminateHook', 'PreTerminateDeleteHookSucceeded', 'WaitingForPreTerminateHook', ['hooks'], { reason: 'WaitingExternalHook', message: 'Waiting for pre-terminate hooks to succeed' }),
  stage('infrastructure', null, 'WaitingForInfrastructureDeletion', ['infrastructure'], { reason: 'WaitingForInfrastructureDeletion', message: '* InfrastructureMachine is deleting' }),
  stage('bootstrap', null, 'WaitingForBootstrapDeletion', ['bootstrap'], { reason: 'WaitingForBootstrapDeletion', message: '* BootstrapConfig is deleting' }),
  stage('deletingNode', null, 'DeletingNode', ['node'], { reason: 'DeletingNode', message: 'Deleting Node' }),
];

export const DELETION_STAGE_TABLE: SignalTable = {
  id: 'deletionStages', title: 'Cluster API Machine deletion stages (the first one not finished holds the deletion)', entries: DELETION_STAGES
};
