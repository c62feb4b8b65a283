/**
 * What Cluster API writes on a Machine about its health checks, remediation and pausing, v1beta1 and v1beta2
 * alike. Sources: cluster-api `api/core/v1beta2/machine_types.go`, `api/core/v1beta1/condition_consts.go`,
 * `core/reconcilers/machinehealthcheck/machinehealthcheck_targets.go`, `api/core/v1beta2/common_types.go`
 * (annotations). The deletion stages are the deletion rules' (`stuck-deleting`, `etcd-removal-hook-blocked`).
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
    fix:           ['mhc', 'node'],
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
    fix:           ['mhc', 'owner'],
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
    fix:           ['mhc', 'external'],
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
    fix:        ['mhc', 'unmark'],
    example:    { value: '' },
  },
];

export const MACHINE_CONDITION_TABLE: SignalTable = {
  id: 'machineConditions', title: 'Cluster API Machine conditions (health checks, remediation, paused)', entries: MACHINE_CONDITION_SIGNALS
};

export const MACHINE_ANNOTATION_TABLE: SignalTable = {
  id: 'machineAnnotations', title: 'Cluster API Machine annotations', entries: MACHINE_ANNOTATION_SIGNALS
};
