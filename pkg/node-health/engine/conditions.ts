/**
 * Condition helpers in the spirit of Cluster API's util/conditions. A v1beta2 Machine keeps its old
 * conditions under status.deprecated.v1beta1, and a v1beta1 Machine of CAPI 1.9+ carries the new ones under
 * status.v1beta2, so a lookup checks every list and prefers the top-level one.
 */
import type { KubeObject } from './types';
import { asArray, asObject, asString, statusOf } from './fields';

export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason: string | null;
  message: string | null;
  lastTransitionTime: string | null;
  /** The list the condition was found in, for evidence paths */
  list: string;
}

/** Field path of a condition, for evidence: built only when a finding needs it. */
export function conditionPath(c: Condition): string {
  return `${ c.list }[${ c.type }]`;
}

function readList(list: unknown, path: string): Condition[] {
  const out: Condition[] = [];

  for (const raw of asArray(list)) {
    const c = asObject(raw);
    const type = asString(c.type);

    if (!type) {
      continue;
    }
    const status = asString(c.status);

    out.push({
      type,
      status:             status === 'True' || status === 'False' ? status : 'Unknown',
      reason:             asString(c.reason),
      message:            asString(c.message),
      lastTransitionTime: asString(c.lastTransitionTime) ?? asString(c.lastUpdateTime),
      list:               path,
    });
  }

  return out;
}

// Rules read the same object's conditions many times. The cache is keyed by the status object, which a
// store replaces (rather than edits) when a newer version of the object arrives.
const cache = new WeakMap<object, Condition[]>();

export function conditions(obj: KubeObject): Condition[] {
  const status = statusOf(obj);
  const cached = cache.get(status);

  if (cached) {
    return cached;
  }
  const list = readList(status.conditions, 'status.conditions');

  // Most objects have only the top-level list; the other two exist on Cluster API machines in transition.
  if (status.deprecated) {
    list.push(...readList(asObject(asObject(status.deprecated).v1beta1).conditions, 'status.deprecated.v1beta1.conditions'));
  }
  if (status.v1beta2) {
    list.push(...readList(asObject(status.v1beta2).conditions, 'status.v1beta2.conditions'));
  }

  cache.set(status, list);

  return list;
}

export function getCondition(obj: KubeObject, ...types: string[]): Condition | null {
  const all = conditions(obj);

  for (const type of types) {
    const found = all.find((c) => c.type === type);

    if (found) {
      return found;
    }
  }

  return null;
}

export function isFalse(c: Condition | null): boolean {
  return !!c && c.status === 'False';
}

export function isTrue(c: Condition | null): boolean {
  return !!c && c.status === 'True';
}

/** Conditions whose message mentions a pattern, across all lists. */
export function findConditionMessage(obj: KubeObject, pattern: RegExp): Condition | null {
  return conditions(obj).find((c) => !!c.message && pattern.test(c.message)) ?? null;
}
