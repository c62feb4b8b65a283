/**
 * Condition helpers in the spirit of Cluster API's util/conditions. A v1beta2 Machine keeps its old
 * conditions under status.deprecated.v1beta1, and a v1beta1 Machine of CAPI 1.9+ carries the new ones under
 * status.v1beta2, so a lookup checks every list and prefers the top-level one.
 *
 * Lookups scan the raw lists and wrap only what they return: a large cluster has hundreds of thousands of
 * conditions, nearly all of them healthy and never looked at twice.
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

const LISTS = ['status.conditions', 'status.deprecated.v1beta1.conditions', 'status.v1beta2.conditions'] as const;

const NONE: readonly unknown[] = Object.freeze([]);

function rawList(status: Record<string, any>, index: number): readonly any[] {
  if (index === 0) {
    return asArray(status.conditions);
  }
  if (index === 1) {
    return status.deprecated ? asArray(asObject(asObject(status.deprecated).v1beta1).conditions) : NONE;
  }

  return status.v1beta2 ? asArray(asObject(status.v1beta2).conditions) : NONE;
}

function wrap(raw: unknown, list: string): Condition | null {
  const c = asObject(raw);
  const type = asString(c.type);

  if (!type) {
    return null;
  }
  const status = asString(c.status);

  return {
    type,
    status:             status === 'True' || status === 'False' ? status : 'Unknown',
    reason:             asString(c.reason),
    message:            asString(c.message),
    lastTransitionTime: rawTransitionTime(c),
    list,
  };
}

/** Every condition of an object, from all lists. */
export function conditions(obj: KubeObject): Condition[] {
  const status = statusOf(obj);
  const out: Condition[] = [];

  for (let i = 0; i < LISTS.length; i++) {
    for (const raw of rawList(status, i)) {
      const c = wrap(raw, LISTS[i]);

      if (c) {
        out.push(c);
      }
    }
  }

  return out;
}

function findCondition(status: Record<string, any>, type: string): Condition | null {
  for (let i = 0; i < LISTS.length; i++) {
    const list = rawList(status, i);

    for (let j = 0; j < list.length; j++) {
      const raw = list[j];

      if (raw !== null && typeof raw === 'object' && raw.type === type) {
        const c = wrap(raw, LISTS[i]);

        if (c) {
          return c;
        }
      }
    }
  }

  return null;
}

/** The condition of this type, else of the fallback type (the name it had in another API version); top-level lists first. */
/**
 * The status of the condition getCondition finds, read without making a Condition of it: the healthy path asks
 * this of every record, and most conditions are what they should be. Null when there is none.
 */
export function conditionStatus(obj: KubeObject, type: string): Condition['status'] | null {
  const raw = rawCondition(obj, type);

  return raw ? (raw.status === 'True' || raw.status === 'False' ? raw.status : 'Unknown') : null;
}

/**
 * The raw condition of this type getCondition would wrap (top-level lists first), for readers of a field or two of
 * a condition every record has: nothing is made of it.
 */
export function rawCondition(obj: KubeObject, type: string): Record<string, any> | null {
  const status = statusOf(obj);

  for (let i = 0; i < LISTS.length; i++) {
    const list = rawList(status, i);

    for (let j = 0; j < list.length; j++) {
      const raw = list[j];

      // A type that is a non-empty string is one wrap() keeps: the condition getCondition returns.
      if (raw !== null && typeof raw === 'object' && raw.type === type && type) {
        return raw;
      }
    }
  }

  return null;
}

/** The lastTransitionTime of a condition as a Condition has it (the older lastUpdateTime where there is none). */
export function rawTransitionTime(raw: Record<string, any>): string | null {
  return asString(raw.lastTransitionTime) ?? asString(raw.lastUpdateTime);
}

export function getCondition(obj: KubeObject, type: string, fallbackType?: string): Condition | null {
  const status = statusOf(obj);

  return findCondition(status, type) ?? (fallbackType ? findCondition(status, fallbackType) : null);
}

const NO_CONDITIONS: readonly Condition[] = Object.freeze([]);

/**
 * The conditions that are True and whose type passes the test, each type once (the first list that has it).
 * Nothing is wrapped or allocated for an object that has none: the healthy path of the condition table.
 */
export function trueConditions(obj: KubeObject, wanted: (type: string) => boolean): readonly Condition[] {
  const status = statusOf(obj);
  let out: Condition[] | null = null;

  for (let i = 0; i < LISTS.length; i++) {
    const list = rawList(status, i);

    for (let j = 0; j < list.length; j++) {
      const raw = list[j];

      if (raw === null || typeof raw !== 'object' || raw.status !== 'True' || typeof raw.type !== 'string' || !wanted(raw.type) ||
        out?.some((c) => c.type === raw.type)) {
        continue;
      }
      const c = wrap(raw, LISTS[i]);

      if (c) {
        (out ??= []).push(c);
      }
    }
  }

  return out ?? NO_CONDITIONS;
}

/** The first condition that is not True and matches; healthy conditions are skipped without wrapping. */
export function findUnhealthyCondition(obj: KubeObject, test: (c: Condition) => boolean): Condition | null {
  const status = statusOf(obj);

  for (let i = 0; i < LISTS.length; i++) {
    const list = rawList(status, i);

    for (let j = 0; j < list.length; j++) {
      const raw = list[j];

      if (raw !== null && typeof raw === 'object' && raw.status === 'True') {
        continue;
      }
      const c = wrap(raw, LISTS[i]);

      if (c && test(c)) {
        return c;
      }
    }
  }

  return null;
}

/**
 * findUnhealthyCondition for a test of the message alone (of conditions of one type, when given): the first
 * condition that is not True and whose message (none reads as '') matches, wrapped only when it does.
 */
export function findUnhealthyConditionSaying(obj: KubeObject, pattern: RegExp, type?: string): Condition | null {
  const status = statusOf(obj);

  for (let i = 0; i < LISTS.length; i++) {
    const list = rawList(status, i);

    for (let j = 0; j < list.length; j++) {
      const raw = list[j];

      if (raw === null || typeof raw !== 'object' || raw.status === 'True' || (type !== undefined && raw.type !== type)) {
        continue;
      }
      const c = pattern.test(asString(raw.message) ?? '') ? wrap(raw, LISTS[i]) : null;

      if (c) {
        return c;
      }
    }
  }

  return null;
}

/** Whether a condition of one of these types is not True: findUnhealthyCondition on the type alone, wrapping nothing. */
export function hasUnhealthyConditionOf(obj: KubeObject, types: ReadonlySet<string>): boolean {
  const status = statusOf(obj);

  for (let i = 0; i < LISTS.length; i++) {
    const list = rawList(status, i);

    for (let j = 0; j < list.length; j++) {
      const raw = list[j];

      if (raw === null || typeof raw !== 'object' || raw.status === 'True') {
        continue;
      }
      const type = asString(raw.type);

      if (type && types.has(type)) {
        return true;
      }
    }
  }

  return false;
}

export function isFalse(c: Condition | null): boolean {
  return !!c && c.status === 'False';
}

export function isTrue(c: Condition | null): boolean {
  return !!c && c.status === 'True';
}

/** A Node's Ready condition: what the kubelet last reported. */
export function nodeReadyCondition(node: KubeObject): Condition | null {
  return getCondition(node, 'Ready');
}

/**
 * When the kubelet last wrote its Node's status, as its Ready condition says it (lastHeartbeatTime), or null. The
 * wrapped Condition keeps no heartbeat: it is read from the raw one. Rancher's copy of a Node has none.
 */
export function readyHeartbeat(node: KubeObject): string | null {
  return asString(rawCondition(node, 'Ready')?.lastHeartbeatTime) ?? null;
}
