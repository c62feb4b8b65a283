/**
 * The catalogue. Order matters: among findings of the same severity, the earlier rule is the one a record
 * shows first, so causes that block the whole cluster or explain the others come before their symptoms.
 */
import type { Rule } from './rule';
import { agentNeverCheckedIn, planApplyFailed, planNotApplied, probesFailing } from './plan';
import { blockingClusterOperation, etcdRemovalHookBlocked, stuckDeleting } from './lifecycle';
import {
  infrastructureMissing, machineMissing, nodeMissing, nodeNameMismatch, nodeNotReady, orphanNode, planSecretMissing,
  waitingForNodeRef
} from './nodes';
import { windowsMemoryLow, windowsVersionUnsupported } from './windows';

export const RULES: readonly Rule[] = [
  blockingClusterOperation,
  etcdRemovalHookBlocked,
  stuckDeleting,
  infrastructureMissing,
  agentNeverCheckedIn,
  planApplyFailed,
  nodeMissing,
  nodeNotReady,
  nodeNameMismatch,
  waitingForNodeRef,
  probesFailing,
  planNotApplied,
  planSecretMissing,
  machineMissing,
  orphanNode,
  windowsVersionUnsupported,
  windowsMemoryLow,
];

export const RULE_IDS = RULES.map((r) => r.id);

export type {
  Rule, RuleContext, RuleHit
} from './rule';
export { ruleKey } from './rule';
