/** The diagnosis engine's public surface, shared by the tab, the command line, the export and the tests. */
export * from './types';
export {
  diagnose, leadFinding, STATUS_ORDER, topFinding
} from './diagnose';
export {
  inputOfObject, join, settleAvailability
} from './join';
export { linkChain } from './chain';
export { MGMT_NODE_LABEL } from './evidence';
export { clusterIdentityOf } from './cluster-info';
export { heldBack } from './resolution';
export { unnamedMachines } from './signals/planner';
export { preflightOf, userConfirmable } from './preflight';
export { statusOverdue } from './leases';
export { attachPoolComparisons } from './pools';
export {
  entryExplaining, eventsIndex, jobLogOf, jobsIndex, timelineOf, JOB_LOG_LINES
} from './timeline';
export type {
  JobLog, TimelineEntry, TimelineInputs, TimelineSource
} from './timeline';
export { COPIED_FROM_ANNOTATION } from './nodes-left-to-tab';
export {
  JOINED_NOTE, POOL_NOTE, RELATED_NOTE, WHOLE_CLUSTER_NOTE
} from './scoped';
export {
  isHostname, isIPv4, isIPv6, parseIPv4, parseIPv6
} from './addresses';
export { DEFAULT_CONFIG, resolveConfig } from './config';
export {
  HOST_CONFIRMATIONS, RULES, RULE_IDS, infrastructureDeleteError, ruleKey
} from './rules';
export {
  CAPI_INFRASTRUCTURE_GROUP, NODE_LEASE_NAMESPACE, classify, STEVE_TYPES, PLAN_SECRET_TYPE, bootstrapRef, deletionTimestamp, finalizers, infrastructureRef,
  machineClusterName, machinePhase, machineRoles, nodeRefName, operatingSystem
} from './objects';
export * from './vocabulary';
export {
  PLAN_SECRET_STATUS_KEYS, derivePlanStatus, splitPlanSecretData
} from './plan-status';
export {
  durationParts, elapsedMs, formatDuration, toEpochMs
} from './time';
export {
  annotation, annotationsOf, asArray, asNumber, asObject, asString, decodeBase64, isPlainObject, label, labelsOf, metadata, nameOf,
  namespaceOf, specOf, statusOf
} from './fields';
export {
  IDENTITY_FIELDS, READ_FIELDS, fieldsOf, keepReadFields, steveIncludePaths
} from './read-fields';
export {
  HOST_REPORT_FORMAT, HOST_SIGNATURES, HostReportError, attachHostReports, findSignature, hostLabel, isHostReport, readHostReport
} from './host-report';
export type {
  HostCertificate, HostReport, HostReportMatch, HostService, HostSignature, HostSignatureId
} from './host-report';
export type { DurationPart, DurationUnit } from './time';
export type {
  HostConfirm, HostConfirmation, Rule, RuleContext, RuleHit
} from './rules';
export {
  applyChanges, diagnoseChanges, diagnoseKeeping
} from './incremental';
export type { DiagnosisState, ObjectChanges } from './incremental';
