/** Guarded actions: their catalogue, patches, eligibility, error classes, the action log, and the dialogs' openers. */
export * from './types';
export {
  ACTION_CATALOGUE, ACTION_IDS, ACTION_LOG_NAMES, actionEntry, actionOffers, openAction
} from './catalogue';
export type {
  ActionEntry, ActionInvocation, ActionLogName, ActionOffer, ActionTarget
} from './catalogue';
export {
  buildFinalizerRemovalPatch, finalizerRemovalEligibility,
  canRemove, canUpdate, escapeJsonPointer, finalizersOf, finalizerPurpose, stuckFacts, describeTarget, objectUrls, objectChanges,
  isReplacement, recheckFinalizerRemoval,
  CAPI_MACHINE_FINALIZER, MACHINE_TYPE, BOOTSTRAP_TYPE
} from './finalizers';
export type { Eligibility, Recheck } from './finalizers';
export {
  buildEtcdForceRemovePatch, etcdForceRemoveEligibility, recheckEtcdRelease, releaseEtcdMember, releaseEtcdMemberIfUnchanged,
  ETCD_FORCE_REMOVE_ANNOTATION, ETCD_HOOK_ANNOTATION
} from './etcd-release';
export {
  describeActionError, failureStatus, failureDetail
} from './errors';
export type { ActionFailure, FailureKind } from './errors';
export {
  recordAction, logCancelled, getActionLog, clearActionLog, onActionLogChange, scrubDetail, ACTION_LOG_LIMIT, ACTION_LOG_STORAGE_PREFIX
} from './action-log';
export type { ActionLogEntry, ActionLogInput } from './action-log';
export {
  sendJsonPatch, runWrite, removeMachineFinalizers, reloadObject, loadRegistrationToken, recordRegistrationCopy, removeFinalizersIfUnchanged,
  JSON_PATCH_CONTENT_TYPE, REGISTRATION_TOKENS_URL
} from './requests';
export type {
  ActionOutcome, ConfirmedWrite, ReloadResult, TokenLoad, WriteRequest
} from './requests';
export {
  dialogContext, openRemoveFinalizers, openEtcdForceRemove, openMachineAction, openRegistrationCommand, currentUserName, toClusterRef,
  DIALOG_PROPS, MACHINE_ACTION_DIALOG, REMOVE_FINALIZERS_DIALOG, REGISTRATION_COMMAND_DIALOG
} from './open';
export type {
  MachineActionRequest, RemoveFinalizersRequest, RegistrationCommandRequest, RegistrationClusterRef
} from './open';
export {
  currentPreflight, infraNameOf, isMachineAction, kubeObjectUrl, machineActionEligibility, recheckMachineAction, runMachineAction, targetOf, withTarget,
  FORCE_MACHINE_REMOVE_ANNOTATION, MACHINE_ACTIONS
} from './machine-actions';
export type { MachineAction, MachineActionId } from './machine-actions';
export {
  auditDetail, buildAuditEvent, recordAuditEvent, AUDIT_COMPONENT, AUDIT_REASONS
} from './audit-event';
export type {
  AuditNote, AuditResult, AuditedAction
} from './audit-event';
export { registrationAccess } from './registration-access';
export type { RegistrationAccess } from './registration-access';
