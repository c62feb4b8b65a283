/**
 * The catalogue. Order matters: among findings of the same severity, the earlier rule is the one a record
 * shows first, so causes that block the whole cluster or explain the others come before their symptoms.
 */
import type { Rule } from './rule';
import { agentNeverCheckedIn, planApplyFailed, planNotApplied, probesFailing } from './plan';
import {
  blockingClusterOperation, etcdRemovalHookBlocked, infrastructureCreateFailed, infrastructureDeleteFailed, stuckDeleting
} from './lifecycle';
import {
  infrastructureMissing, machineMissing, nodeMissing, nodeNameMismatch, nodeNotReady, nodeStatusStale, orphanNode, planSecretMissing,
  waitingForNodeRef
} from './nodes';
import { windowsMemoryLow, windowsVersionUnsupported } from './windows';
import { cloudProviderUninitialized, nodeNotLinked, providerIdMissing } from './provider';
import { drainStuck, kubeletVersionSkew } from './upgrade';
import { duplicateNodeName } from './names';
import { servingCertsExpired } from './certificates';
import { unexplainedNotReady } from './safety-net';
import { machineSignal, nodeCondition, nodeTaint } from './signals';
import { CLUSTER_RULES } from './cluster';
import { agentCaUntrusted, agentWatchStale, connectionInfoBroken } from './host';
import { AFTER_RULES } from './related';

export const RULES: readonly Rule[] = [
  blockingClusterOperation,
  etcdRemovalHookBlocked,
  infrastructureDeleteFailed,
  stuckDeleting,
  infrastructureCreateFailed,
  infrastructureMissing,
  machineSignal,
  connectionInfoBroken,
  agentCaUntrusted,
  agentWatchStale,
  agentNeverCheckedIn,
  planApplyFailed,
  cloudProviderUninitialized,
  providerIdMissing,
  nodeNotLinked,
  duplicateNodeName,
  servingCertsExpired,
  nodeMissing,
  nodeNotReady,
  nodeStatusStale,
  nodeCondition,
  nodeTaint,
  nodeNameMismatch,
  waitingForNodeRef,
  probesFailing,
  kubeletVersionSkew,
  drainStuck,
  planNotApplied,
  planSecretMissing,
  machineMissing,
  orphanNode,
  windowsVersionUnsupported,
  windowsMemoryLow,
  // Last, and only when nothing above found a warning or an error.
  unexplainedNotReady,
];

/** Every rule id: the node rules, those that read other records' findings, then the rules about a whole cluster. */
export const RULE_IDS = [...RULES.map((r) => r.id), ...AFTER_RULES.map((r) => r.id), ...CLUSTER_RULES.map((r) => r.id)];

export type {
  Rule, RuleContext, RuleHit
} from './rule';
export { ruleKey } from './rule';
export { infrastructureDeleteError } from './shared';
export { HOST_CONFIRMATIONS } from './host';
export type { HostConfirm, HostConfirmation } from './host';
