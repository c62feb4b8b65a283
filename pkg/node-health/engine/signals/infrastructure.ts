/**
 * What Rancher's infrastructure machines (rke-machine.cattle.io, and the Machine that mirrors them) say about the
 * server behind a machine. Rancher runs one create and one delete job per infrastructure machine; when a job's pod
 * exits with an error it writes the job's condition (CreateJob / DeleteJob) False and Ready False with the reason
 * CreateError / DeleteError and the message "failed creating|deleting server [<ns>/<name>] of kind (<Kind>) for
 * machine <machine> in infrastructure provider: <reason>: <the driver's words>", and the same reason in
 * status.failureReason (rancher pkg/controllers/capr/machineprovision controller.go getMachineStatusFromPod,
 * FailedMachineMessage). Node drivers and clouds say a VM is gone in their own words (objects.ts INFRASTRUCTURE_GONE).
 */
import type { SignalEntry, SignalTable } from './table';
import { INFRASTRUCTURE_GONE } from '../objects';

const PROVISION = 'rancher pkg/controllers/capr/machineprovision';

export interface InfrastructureSignal extends SignalEntry {
  /** The job whose outcome it is, for the entries Rancher writes per job */
  job?: 'create' | 'delete';
  /** The failure reason Rancher writes */
  reason?: 'CreateError' | 'DeleteError';
  /** The condition that carries it */
  conditionType?: string;
  /** A message as its writer words it (from the source or a thread) */
  example: string;
}

/**
 * The provider refused the pool's cloud credential, in its own words: vSphere's login fault ("ServerFaultCode: Cannot
 * complete login due to an incorrect user name or password"), and a Kubernetes API's 401 as client-go words it, which
 * is what the Harvester driver gets once the token in its credential's kubeconfig has expired ("Error with pre-create
 * check: \"the server has asked for the client to provide credentials (get settings.harvesterhci.io server-version)\"",
 * rancher#44912, harvester#5827).
 */
export const CREDENTIAL_REFUSED = /Cannot complete login due to an incorrect user name or password|the server has asked for the client to provide credentials/i;

export const CREATE_FAILED_MESSAGE = /^failed creating server\b/i;
export const DELETE_FAILED_MESSAGE = /^failed deleting server\b/i;

const EXAMPLE_TAIL = 'of kind (VmwarevsphereMachine) for machine vs-del-wk-7f8d9c6b5-2xk4p in infrastructure provider';

/**
 * What Rancher writes when one of its jobs fails: the job's condition False with its message form, and the reason
 * in status.failureReason, whose example is the driver's words that end the condition's message.
 */
function jobFailed(job: 'create' | 'delete', pattern: RegExp, driverSaid: string): InfrastructureSignal[] {
  const Job = job === 'create' ? 'Create' : 'Delete';
  const reason = `${ Job }Error` as const;
  const common = {
    object:   'infraMachine',
    severity: 'error',
    rule:     `infrastructure-${ job }-failed`,
    source:   `${ PROVISION } getMachineStatusFromPod`,
    fix:      [],
    job,
    reason,
  } as const;

  return [
    {
      id:            `${ job }JobFailed`,
      ...common,
      field:         `status.conditions[${ Job }Job]`,
      when:          'False',
      pattern,
      conditionType: `${ Job }Job`,
      example:       `failed ${ job === 'create' ? 'creating' : 'deleting' } server [fleet-default/vs-del-wk-2] ${ EXAMPLE_TAIL }: ${ reason }: ${ driverSaid }`,
    },
    {
      id:      `${ job }Error`,
      ...common,
      field:   'status.failureReason',
      when:    reason,
      example: driverSaid,
    },
    {
      id:      `${ job }CredentialRefused`,
      ...common,
      field:   'status.failureMessage',
      when:    `${ reason }, and the provider refused the cloud credential`,
      pattern: CREDENTIAL_REFUSED,
      source:  `${ PROVISION } getMachineStatusFromPod (the driver's words: vSphere, a Kubernetes API's 401 for Harvester)`,
      example: driverSaid,
    },
  ];
}

export const INFRASTRUCTURE_SIGNALS: readonly InfrastructureSignal[] = [
  ...jobFailed('create', CREATE_FAILED_MESSAGE, 'Error creating machine: Error in driver during machine creation: ServerFaultCode: Cannot complete login due to an incorrect user name or password.'),
  ...jobFailed('delete', DELETE_FAILED_MESSAGE, 'Error removing host "vs-del-wk-2": ServerFaultCode: Cannot complete login due to an incorrect user name or password.'),
  {
    id:            'machineMirrorsDeleteError',
    object:        'machine',
    field:         'status.conditions[InfrastructureReady]',
    when:          'not True, reason DeleteError',
    severity:      'error',
    rule:          'infrastructure-delete-failed',
    source:        'cluster-api machine controller (mirrors the infrastructure machine); rancher/dashboard models/cluster.x-k8s.io.machine.js',
    fix:           [],
    job:           'delete',
    reason:        'DeleteError',
    conditionType: 'InfrastructureReady',
    example:       `failed deleting server [fleet-default/vs-del-wk-2] ${ EXAMPLE_TAIL }: DeleteError: …`,
  },
  {
    id:       'vmGone',
    object:   'infraMachine',
    field:    'status.failureMessage | status.conditions[].message | metadata.state.message',
    when:     'says the VM or instance is gone',
    pattern:  INFRASTRUCTURE_GONE,
    severity: 'error',
    rule:     'infrastructure-missing',
    source:   'node drivers and clouds (seed case 2: "no VM found"; AWS InvalidInstanceID.NotFound)',
    fix:      [],
    example:  'Error: no VM found',
  },
  {
    id:       'objectGone',
    object:   'machine',
    field:    'spec.infrastructureRef',
    when:     'names an object that does not exist',
    severity: 'error',
    rule:     'infrastructure-missing',
    source:   'cluster-api machine controller (InfrastructureReady)',
    fix:      [],
    example:  'VmwarevsphereMachine fleet-default/vs-win-win-7d9f8c6b5-4jx2m not found',
  },
];

/** The entries Rancher writes for one of its jobs: the reason, the job's condition and its message form. */
export function jobSignals(job: 'create' | 'delete'): { reason: string; condition: string; message: RegExp } {
  const withCondition = INFRASTRUCTURE_SIGNALS.find((s) => s.job === job && s.object === 'infraMachine' && s.conditionType) as InfrastructureSignal;

  return {
    reason: withCondition.reason as string, condition: withCondition.conditionType as string, message: withCondition.pattern as RegExp
  };
}

export const INFRASTRUCTURE_TABLE: SignalTable = {
  id: 'infrastructure', title: "Rancher's infrastructure machines: the create and delete jobs, and a VM that is gone", entries: INFRASTRUCTURE_SIGNALS
};
