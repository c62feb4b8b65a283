/**
 * The plan status of a machine, derived the way Rancher's planner does (pkg/capr/planner/store.go):
 * no plan → waiting for agent (no applied plan) → probes → in sync → failed → waiting for plan to be applied.
 * The planner's own verdict is on the Machine's Reconciled condition; the plan secret's non-sensitive keys
 * confirm it or stand in for it. The values of plan, appliedPlan and the outputs are never read.
 */
import type { KubeObject, PlanStatus } from './types';
import { getCondition } from './conditions';
import {
  asObject, base64Equal, base64Includes, base64Is, base64NonEmpty, base64Number, decodeBase64, annotation, parseUnixDate
} from './fields';
import { ANNOTATIONS } from './objects';

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

/**
 * The one whitelist of a machine-plan secret's data: what may be kept (status keys, values as they are)
 * and the names of what must go. The tab's loader and every export apply it.
 */
export function splitPlanSecretData(data: unknown): { kept: Record<string, unknown>; dropped: string[] } {
  const kept: Record<string, unknown> = {};
  const dropped: string[] = [];

  if (data !== null && typeof data === 'object' && !Array.isArray(data)) {
    for (const [key, value] of Object.entries(data)) {
      if (STATUS_KEYS.has(key)) {
        kept[key] = value;
      } else {
        dropped.push(key);
      }
    }
  }

  return { kept, dropped };
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

export function probesFromMessage(message: string | null): string[] {
  const m = message ? /waiting for probes:\s*(.+)$/i.exec(message) : null;

  return m ? m[1].split(/,\s*/).map((s) => s.trim()).filter(Boolean) : [];
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

export function unhealthyProbesFromSecret(secret: KubeObject | undefined): string[] {
  // Only a literal false can make a probe unhealthy. Nearly every secret reports all probes healthy, and on
  // a large cluster decoding and parsing each of them was a good part of the diagnosis.
  const data = secretData(secret);

  if (!base64Includes(data['probe-statuses'], 'false')) {
    return [];
  }
  const raw = statusValue(data, 'probe-statuses');

  if (!raw) {
    return [];
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

function failureThresholdReached(data: Record<string, any>, failures: number): boolean {
  const threshold = base64Number(data['failure-threshold']) ?? base64Number(data['max-failures']);

  return threshold === null || failures >= threshold;
}

export function derivePlanStatus(machine: KubeObject | undefined, secret: KubeObject | undefined): PlanStatus {
  const data = secretData(secret);
  const status: PlanStatus = {
    state:            'unknown',
    message:          null,
    source:           'none',
    unhealthyProbes:  [],
    failureCount:     base64Number(data['failure-count']),
    lastApplyTime:    null,
    planLastUpdated:  secret ? annotation(secret, ANNOTATIONS.planLastUpdated) : null,
    since:            null,
  };
  const lastApply = parseUnixDate(statusValue(data, 'last-apply-time'));

  status.lastApplyTime = lastApply === null ? null : new Date(lastApply).toISOString();

  const reconciled = machine ? getCondition(machine, 'Reconciled') : null;
  const planApplied = machine ? getCondition(machine, 'PlanApplied') : null;

  if (reconciled) {
    const fromMessage = planStateFromMessage(reconciled.message);

    if (fromMessage) {
      status.state = fromMessage;
      status.message = reconciled.message;
      status.source = 'condition';
      status.since = reconciled.lastTransitionTime;
    } else if (reconciled.status === 'True') {
      status.state = 'in-sync';
      status.source = 'condition';
      status.since = reconciled.lastTransitionTime;
    }
  }
  if (planApplied && planApplied.status === 'False' && /error applying plan/i.test(planApplied.message ?? '') && status.state !== 'waiting-for-agent') {
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
    const neverApplied = !applied && !lastApply && !base64Number(data['success-count']) && !!status.planLastUpdated;

    status.unhealthyProbes = unhealthyProbesFromSecret(secret);

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
