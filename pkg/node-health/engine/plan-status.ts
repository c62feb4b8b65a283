/**
 * The plan status of a machine, derived the way Rancher's planner does (pkg/capr/planner/store.go):
 * no plan → waiting for agent (no applied plan) → probes → in sync → failed → waiting for plan to be applied.
 * The planner's own verdict is on the Machine's Reconciled condition; the plan secret's non-sensitive keys
 * confirm it or stand in for it. The values of plan, appliedPlan and the outputs are never read.
 */
import type { InputAvailability, JoinedObjects, KubeObject, PlanStatus } from './types';
import { conditionStatus, getCondition, rawCondition, rawTransitionTime } from './conditions';
import {
  asObject, asString, base64Equal, base64UnixDate, base64Includes, base64Is, base64NonEmpty, base64Number, decodeBase64, annotation, isPlainObject
} from './fields';
import { ANNOTATIONS } from './vocabulary';
import { bootstrapRef } from './objects';

/** Keys of the machine-plan secret that carry no secret material. */
export const PLAN_SECRET_STATUS_KEYS = [
  'applied-checksum',
  'failure-count',
  'success-count',
  'failed-checksum',
  'last-apply-time',
  'probe-statuses',
  'plan-state',
  'plan-revision',
  'max-failures',
  'failure-threshold',
] as const;

export type PlanSecretStatusKey = typeof PLAN_SECRET_STATUS_KEYS[number];

const STATUS_KEYS = new Set<string>(PLAN_SECRET_STATUS_KEYS);

const SHA256_HEX = /^[0-9a-f]{64}$/;
const COUNT = /^\d{1,15}$/;
/** max-failures and failure-threshold: a count, or -1, which Rancher writes on every normal plan (retry for ever). */
const LIMIT = /^(-1|\d{1,15})$/;
/** Go's time.UnixDate as the agent writes it ("Mon Jan  2 15:04:05 MST 2006"), or RFC3339 */
const AGENT_TIME = /^(\w{3} \w{3} [ \d]\d \d{2}:\d{2}:\d{2} [A-Z]{1,5}(?:[+-]\d{4})? \d{4}|\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2}))$/;
/** The states the agent writes to plan-state (system-agent 0.15) */
const PLAN_STATES = new Set(['pending', 'in-progress', 'succeeded', 'failed', 'cancelled']);
const PROBE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;
const PROBE_FIELDS: Record<string, 'boolean' | 'count'> = {
  healthy: 'boolean', successCount: 'count', failureCount: 'count'
};

/** Why a decoded probe-statuses value is not the agent's JSON, or null when it is. */
function probeStatusesProblem(text: string): string | null {
  let parsed: unknown;

  try {
    parsed = JSON.parse(text);
  } catch {
    return 'not JSON';
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return 'not a JSON object of probes';
  }
  for (const [name, probe] of Object.entries(parsed as Record<string, unknown>)) {
    if (!PROBE_NAME.test(name)) {
      return 'a probe name that is not a name';
    }
    if (probe === null || typeof probe !== 'object' || Array.isArray(probe)) {
      return 'a probe that is not an object';
    }
    for (const [field, value] of Object.entries(probe as Record<string, unknown>)) {
      const type = PROBE_FIELDS[field];

      if (!type) {
        return 'a probe field the agent does not write';
      }
      if (type === 'boolean' ? typeof value !== 'boolean' : !(typeof value === 'number' && Number.isInteger(value) && value >= 0)) {
        return `a probe ${ field } of the wrong type`;
      }
    }
  }

  return null;
}

/** Why a status value does not have the shape its key has, or null when it does (an empty value has every shape). */
export function planStatusValueProblem(key: PlanSecretStatusKey, value: unknown): string | null {
  if (typeof value !== 'string') {
    return 'not base64 text';
  }
  const text = decodeBase64(value);

  if (text === null) {
    return 'not base64 text';
  }
  if (text === '') {
    return null;
  }
  switch (key) {
  case 'applied-checksum':
  case 'failed-checksum':
    return SHA256_HEX.test(text) ? null : 'not a SHA-256 checksum';
  case 'failure-count':
  case 'success-count':
  case 'plan-revision':
    return COUNT.test(text) ? null : 'not a whole number';
  case 'max-failures':
  case 'failure-threshold':
    return LIMIT.test(text) ? null : 'neither a whole number nor -1';
  case 'last-apply-time':
    return AGENT_TIME.test(text) ? null : 'not a time as the agent writes it';
  case 'plan-state':
    return PLAN_STATES.has(text) ? null : 'not a plan state';
  case 'probe-statuses':
    return probeStatusesProblem(text);
  }

  return 'not a status key';
}

/**
 * The one whitelist of a machine-plan secret's data: what may be kept (status keys whose values have the
 * shape the agent writes, kept byte for byte), the names of what must go, and the status values that went
 * because of their shape (a key, a token or an object where a checksum, a count or a time belongs). The
 * tab's loader and every export apply it.
 */
export function splitPlanSecretData(data: unknown): {
  kept: Record<string, unknown>; dropped: string[]; malformed: { key: string; reason: string }[];
} {
  const kept: Record<string, unknown> = {};
  const dropped: string[] = [];
  const malformed: { key: string; reason: string }[] = [];

  if (isPlainObject(data)) {
    for (const [key, value] of Object.entries(data)) {
      if (!STATUS_KEYS.has(key)) {
        dropped.push(key);
        continue;
      }
      const problem = planStatusValueProblem(key as PlanSecretStatusKey, value);

      if (problem) {
        malformed.push({ key, reason: problem });
      } else {
        kept[key] = value;
      }
    }
  }

  return {
    kept, dropped, malformed
  };
}

const MESSAGE_PATTERNS: { pattern: RegExp; state: PlanStatus['state'] }[] = [
  { pattern: /waiting for agent to check in and apply initial plan/i, state: 'waiting-for-agent' },
  { pattern: /waiting for probes/i, state: 'probes-failing' },
  { pattern: /failure while applying plan|error applying plan/i, state: 'apply-failed' },
  { pattern: /waiting for plan to be applied/i, state: 'waiting-for-plan' },
  { pattern: /waiting for (bootstrap etcd|etcd|control plane) to be available/i, state: 'no-plan' },
];

export function planStateFromMessage(message: string | null): PlanStatus['state'] | null {
  if (!message) {
    return null;
  }
  for (const { pattern, state } of MESSAGE_PATTERNS) {
    if (pattern.test(message)) {
      return state;
    }
  }

  return null;
}

/**
 * The probes a "waiting for probes: a, b" message names. The planner joins the machine's messages with ", ", so
 * what it adds after the list ("draining node", "drain completed", "error draining machine …") follows the names
 * in the same way: the list ends at the first part that is not a probe's name.
 */
export function probesFromMessage(message: string | null): string[] {
  const m = message ? /waiting for probes:\s*(.+)$/i.exec(message) : null;
  const names: string[] = [];

  for (const part of m ? m[1].split(/,\s*/) : []) {
    const name = part.trim();

    if (!PROBE_NAME.test(name)) {
      break;
    }
    names.push(name);
  }

  return names;
}

function secretData(secret: KubeObject | undefined): Record<string, any> {
  return secret ? asObject(asObject(secret).data) : asObject(null);
}

function statusValue(data: Record<string, any>, key: PlanSecretStatusKey): string | null {
  const raw = data[key];

  return raw === undefined || raw === null ? null : decodeBase64(raw);
}

/** Reads one whitelisted status key of a plan secret, decoded. */
export function planSecretValue(secret: KubeObject | undefined, key: PlanSecretStatusKey): string | null {
  return secret ? statusValue(secretData(secret), key) : null;
}

/** No unhealthy probe: what nearly every record has, shared and frozen. */
const NO_PROBES: string[] = Object.freeze([]) as unknown as string[];

export function unhealthyProbesFromSecret(secret: KubeObject | undefined): string[] {
  // Only a literal false can make a probe unhealthy. Nearly every secret reports all probes healthy, and on
  // a large cluster decoding and parsing each of them was a good part of the diagnosis.
  const data = secretData(secret);

  if (!base64Includes(data['probe-statuses'], 'false')) {
    return NO_PROBES;
  }
  const raw = statusValue(data, 'probe-statuses');

  if (!raw) {
    return NO_PROBES;
  }
  try {
    const parsed = asObject(JSON.parse(raw));

    return Object.keys(parsed).filter((name) => asObject(parsed[name]).healthy === false).sort();
  } catch {
    return [];
  }
}

/** The agent failed a plan other than the one it applied last. */
function failedOtherChecksum(data: Record<string, any>): boolean {
  return base64NonEmpty(data['failed-checksum']) && !base64Equal(data['failed-checksum'], data['applied-checksum']);
}

/** The agent failed the plan it was given: a failure count, or a failed checksum it has not applied since. */
function agentFailed(data: Record<string, any>): boolean {
  const failedChecksum = base64NonEmpty(data['failed-checksum']);

  if (failedChecksum && base64Equal(data['failed-checksum'], data['applied-checksum'])) {
    return false;
  }

  return failedChecksum || (base64Number(data['failure-count']) ?? 0) > 0;
}

/** Any sign in the plan secret that the agent ever acted on a plan: applied, tried, or failed. */
export function agentEverActed(secret: KubeObject | undefined): boolean {
  const data = secretData(secret);

  return base64NonEmpty(data['applied-checksum']) || base64NonEmpty(data['last-apply-time']) ||
    (base64Number(data['failure-count']) ?? 0) > 0 || base64NonEmpty(data['failed-checksum']);
}

/** PlanApplied False because applying failed: reason Error, or the planner's "error applying plan" prefix. */
function planAppliedFailed(machine: KubeObject | undefined): boolean {
  // Nearly always True: settled without making the condition.
  const c = machine && conditionStatus(machine, 'PlanApplied') === 'False' ? getCondition(machine, 'PlanApplied') : null;

  return !!c && c.status === 'False' && (c.reason === 'Error' || /^error applying plan/i.test(c.message ?? ''));
}

/**
 * The agent applied this machine's plan and failed: a failure count, a failed checksum, or PlanApplied False
 * with reason Error, whatever max-failures says. A planner that reports the plan in sync with PlanApplied not
 * failed has the last word: the failure is history.
 */
export function planApplyFailure(secret: KubeObject | undefined, plan: PlanStatus): boolean {
  // derivePlanStatus has read PlanApplied already: failed, it made the state apply-failed.
  if (plan.state === 'apply-failed') {
    return true;
  }
  if (plan.state === 'in-sync' && plan.source === 'condition') {
    return false;
  }

  return !!secret && agentFailed(secretData(secret));
}

/**
 * Whether the failures count as a failed plan, as the planner's store decides (pkg/capr/planner/store.go): with
 * no failure-threshold any failure does; with -1 none does (the agent retries for ever); otherwise the count
 * must reach it. max-failures is the agent's number of attempts, not the planner's verdict.
 */
function failureThresholdReached(data: Record<string, any>, failures: number): boolean {
  const raw = decodeBase64(data['failure-threshold']);

  if (raw === null || raw === '') {
    return failures > 0;
  }
  if (raw === '-1') {
    return false;
  }
  const threshold = Number(raw);

  return Number.isInteger(threshold) ? failures >= threshold : failures > 0;
}

export function derivePlanStatus(machine: KubeObject | undefined, secret: KubeObject | undefined): PlanStatus {
  const data = secretData(secret);
  const status: PlanStatus = {
    state:            'unknown',
    message:          null,
    source:           'none',
    unhealthyProbes:  NO_PROBES,
    failureCount:     base64Number(data['failure-count']),
    lastApplyTime:    null,
    planLastUpdated:  secret ? annotation(secret, ANNOTATIONS.planLastUpdated) : null,
    since:            null,
  };
  const rawLastApply = data['last-apply-time'];
  const lastApply = rawLastApply === undefined || rawLastApply === null ? null : base64UnixDate(rawLastApply);

  status.lastApplyTime = lastApply === null ? null : new Date(lastApply).toISOString();

  // Every machine has one: read where it is rather than made a Condition of.
  const reconciled = machine ? rawCondition(machine, 'Reconciled') : null;

  if (reconciled) {
    const message = asString(reconciled.message);
    const fromMessage = planStateFromMessage(message);

    if (fromMessage) {
      status.state = fromMessage;
      status.message = message;
      status.source = 'condition';
      status.since = rawTransitionTime(reconciled);
    } else if (reconciled.status === 'True') {
      status.state = 'in-sync';
      status.source = 'condition';
      status.since = rawTransitionTime(reconciled);
    }
  }
  const planApplied = planAppliedFailed(machine) ? getCondition(machine as KubeObject, 'PlanApplied') : null;

  if (planApplied) {
    status.state = 'apply-failed';
    status.message = planApplied.message;
    status.source = 'condition';
    status.since = planApplied.lastTransitionTime;
  }

  if (secret) {
    const planState = data['plan-state'];
    const applied = base64NonEmpty(data['applied-checksum']);
    // Only status keys count, so the tab (which never receives plan or appliedPlan), a bundle and raw
    // kubectl output all give the same answer.
    // Nearly every secret has an applied checksum: it settles this before anything else is decoded.
    const neverApplied = !applied && !lastApply && !!status.planLastUpdated && !agentEverActed(secret) && !base64Number(data['success-count']);

    status.unhealthyProbes = unhealthyProbesFromSecret(secret);

    // "waiting for agent to check in" means no appliedPlan yet; a secret where the agent applied, tried or
    // failed says it did check in, so the planner's words must not be read as "never".
    if (status.state === 'waiting-for-agent' && agentEverActed(secret)) {
      status.state = agentFailed(data) ? 'apply-failed' : 'waiting-for-plan';
    }

    if (status.source === 'none' || status.state === 'in-sync') {
      let fromSecret: PlanStatus['state'] | null = null;

      if (base64Is(planState, 'failed')) {
        fromSecret = 'apply-failed';
      } else if (base64Is(planState, 'pending') || base64Is(planState, 'in-progress')) {
        fromSecret = 'applying';
      } else if (neverApplied) {
        fromSecret = 'waiting-for-agent';
      } else if ((status.failureCount ?? 0) > 0 && failedOtherChecksum(data) && failureThresholdReached(data, status.failureCount ?? 0)) {
        fromSecret = 'apply-failed';
      } else if (status.unhealthyProbes.length > 0) {
        fromSecret = 'probes-failing';
      } else if (applied && status.source === 'none') {
        fromSecret = 'in-sync';
      } else if (status.source === 'none' && !status.planLastUpdated && !lastApply && !agentEverActed(secret) && !base64Number(data['success-count'])) {
        // Nothing written yet, by Rancher or the agent: the planner has given this machine no plan (it stops before
        // it writes one while it waits for something of the cluster's, pkg/capr/planner/planner.go Process).
        fromSecret = 'no-plan';
      }
      if (fromSecret && (status.source === 'none' || fromSecret !== 'in-sync')) {
        status.state = fromSecret;
        status.source = 'secret';
        status.since = status.planLastUpdated ?? status.lastApplyTime;
      }
    }
  }
  if (status.state === 'probes-failing' && status.unhealthyProbes.length === 0) {
    status.unhealthyProbes = probesFromMessage(status.message);
  }

  return status;
}

/**
 * The machine's plan secret is known not to exist: its bootstrap is an RKEBootstrap, which owns one, and every plan
 * secret was read (the list holds them all) without it.
 */
export function planSecretKnownMissing(objects: Pick<JoinedObjects, 'machine' | 'planSecret'>, inputs: InputAvailability): boolean {
  const m = objects.machine;

  return !!m && !objects.planSecret && inputs.planSecrets === 'ok' && bootstrapRef(m)?.kind === 'RKEBootstrap';
}
