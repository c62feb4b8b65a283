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
  canUpdate, escapeJsonPointer, finalizersOf, finalizerPurpose, stuckFacts, describeTarget, objectUrls, objectChanges,
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
  recordAction, getActionLog, clearActionLog, onActionLogChange, scrubDetail, ACTION_LOG_LIMIT, ACTION_LOG_STORAGE_PREFIX
} from './action-log';
export type { ActionLogEntry, ActionLogInput } from './action-log';
export {
  sendJsonPatch, removeMachineFinalizers, reloadObject, loadRegistrationToken, recordRegistrationCopy, removeFinalizersIfUnchanged,
  JSON_PATCH_CONTENT_TYPE, REGISTRATION_TOKENS_URL
} from './requests';
export type {
  ActionOutcome, ConfirmedWrite, ReloadResult, TokenLoad
} from './requests';
export {
  openRemoveFinalizers, openEtcdForceRemove, openRegistrationCommand, currentUserName, toClusterRef,
  DIALOG_PROPS, REMOVE_FINALIZERS_DIALOG, REGISTRATION_COMMAND_DIALOG
} from './open';
export type {
  RemoveFinalizersRequest, RegistrationCommandRequest, RegistrationClusterRef
} from './open';
export { registrationAccess } from './registration-access';
export type { RegistrationAccess } from './registration-access';
