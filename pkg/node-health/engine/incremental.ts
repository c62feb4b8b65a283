/**
 * A diagnosis that keeps what it joined and judged, for diagnosing the same cluster again after some objects
 * changed: the records whose joined objects are the very same are carried over from the earlier join rather than
 * read again, and what their rules said is said again rather than judged, unless the rules read the clock (and
 * the time moved) or anything across records. Everything that relates records (same host, names, etcd quorum,
 * roles, pools, the cluster's findings, counts) runs again over all of them, so the report is the one a full
 * diagnosis of the new input gives. Whenever the options change (availability, clusters, configuration, host
 * reports) or the changes are many, it is a full diagnosis.
 */
import type { DiagnoseOptions, DiagnosisReport, NodeRecord } from './types';
import { join, sameObjects } from './join';
import type { KeptJoinResult } from './join';
import { judgeJoined } from './diagnose';
import type { JudgingMemo } from './diagnose';
import { metadata, asString } from './fields';

/** Objects changed, added and removed since the state's input, by metadata.uid. */
export interface ObjectChanges {
  /** new versions of objects of the input (same uid) */
  changed?: unknown[];
  /** objects not in the input */
  added?: unknown[];
  /** uids of objects of the input that are gone */
  removed?: string[];
}

export interface DiagnosisState {
  readonly report: DiagnosisReport;
  /** the input diagnosed: the earlier one with the changes made (changed objects in place, added ones at the end) */
  readonly objects: unknown[];
  readonly options: DiagnoseOptions;
  /** how the report was made: 'full', or 'incremental' with how many records were judged again */
  readonly how: { path: 'full' | 'incremental'; judged: number; records: number };
  /** what the next diagnosis says again */
  readonly memo: JudgingMemo;
  /** the join the report's records come from, and how many notes each record had after it */
  readonly joined: KeptJoinResult;
  readonly joinNotes: number[];
}

/** More changed objects than this share of the input: a full diagnosis is as quick. */
const MOST_CHANGES = 0.25;

function uidOf(obj: unknown): string | null {
  return obj !== null && typeof obj === 'object' ? asString(metadata(obj as never).uid) : null;
}

/** Options alike but for the time and the host reports (which the records they join are judged again for). */
function sameOptions(a: DiagnoseOptions, b: DiagnoseOptions): boolean {
  const { now: _a, hostReports: _ha, ...restA } = a;
  const { now: _b, hostReports: _hb, ...restB } = b;

  return JSON.stringify(restA) === JSON.stringify(restB);
}

function diagnoseRemembering(objects: unknown[], options: DiagnoseOptions, earlier: DiagnosisState | null): DiagnosisState {
  const carried = new Set<NodeRecord>();
  const memo: JudgingMemo = {
    earlier: earlier?.memo.next ?? null, carried, next: null, judged: 0
  };
  const byKey = new Map<string, NodeRecord>();

  for (const r of earlier?.report.records ?? []) {
    byKey.set(r.key, r);
  }
  const joined = join(objects, options.availability, options.defaultCluster, options.clusters, earlier ? {
    byKey, carried, kept: earlier.joined.kept
  } : undefined);
  const joinNotes = joined.records.map((r) => r.notes.length);
  const report = judgeJoined(joined, options, memo);

  // The earlier judgements are let go: the next diagnosis reads this one's (memo.next).
  memo.earlier = null;

  return {
    report,
    objects,
    options,
    how: {
      path: earlier ? 'incremental' : 'full', judged: memo.judged, records: report.records.length
    },
    memo,
    joined,
    joinNotes,
  };
}

/**
 * The same objects judged again, at another time or with other host reports, without joining them again: the
 * records of the state's report are judged again where what their rules read moved.
 */
function judgeAgain(state: DiagnosisState, options: DiagnoseOptions): DiagnosisState {
  const { joined, joinNotes } = state;

  joined.records.forEach((r, i) => {
    r.notes.length = joinNotes[i];
    r.hostReport = null;
  });
  const memo: JudgingMemo = {
    earlier: state.memo.next, carried: 'all', next: null, judged: 0
  };
  const report = judgeJoined(joined, options, memo);

  memo.earlier = null;

  return {
    report,
    objects: state.objects,
    options,
    how:     {
      path: 'incremental', judged: memo.judged, records: report.records.length
    },
    memo,
    joined,
    joinNotes,
  };
}

/** A full diagnosis, kept for diagnosing changes to its input later (diagnoseChanges). */
export function diagnoseKeeping(objects: unknown[], options: DiagnoseOptions): DiagnosisState {
  return diagnoseRemembering(Array.isArray(objects) ? objects : [], options, null);
}

/** The earlier input with the changes made, or null when they do not fit it (an unknown uid, an object without one). */
export function applyChanges(objects: unknown[], changes: ObjectChanges): unknown[] | null {
  const replaced = new Map<string, unknown>();
  const removed = new Set(changes.removed ?? []);

  for (const obj of changes.changed ?? []) {
    const uid = uidOf(obj);

    if (!uid || removed.has(uid)) {
      return null;
    }
    replaced.set(uid, obj);
  }
  const adding = new Set<string>();

  for (const obj of changes.added ?? []) {
    const uid = uidOf(obj);

    if (!uid || replaced.has(uid) || removed.has(uid) || adding.has(uid)) {
      return null;
    }
    adding.add(uid);
  }
  const next: unknown[] = [];
  let found = 0;
  const seen = new Set<string>();
  const look = replaced.size > 0 || removed.size > 0 || adding.size > 0;

  for (let i = 0; i < objects.length; i++) {
    const uid = look ? uidOf(objects[i]) : null;

    if (uid !== null && adding.has(uid)) {
      return null;
    }
    if (uid !== null && (replaced.has(uid) || removed.has(uid))) {
      found++;
      seen.add(uid);
      if (!removed.has(uid)) {
        next.push(replaced.get(uid));
      }
    } else {
      next.push(objects[i]);
    }
  }
  if (found !== seen.size || seen.size !== replaced.size + removed.size) {
    return null;
  }
  for (const obj of changes.added ?? []) {
    next.push(obj);
  }

  return next;
}

/**
 * The diagnosis of the state's input with these changes, at options.now (the state's options otherwise), carrying
 * over what the changes leave as it was. `objects`, when given, is the new input as the caller has it (unchanged
 * objects the very ones of the state's input, in any order); otherwise the changes are made to the state's input.
 */
export function diagnoseChanges(state: DiagnosisState, changes: ObjectChanges, options: DiagnoseOptions = state.options, objects?: unknown[]): DiagnosisState {
  const next = objects ?? applyChanges(state.objects, changes);
  const count = (changes.changed?.length ?? 0) + (changes.added?.length ?? 0) + (changes.removed?.length ?? 0);

  if (!next) {
    throw new Error('the changes do not fit the input: an object without a uid, or a uid changed or removed that it does not have');
  }
  if (!sameOptions(state.options, options) || count > state.objects.length * MOST_CHANGES) {
    return diagnoseKeeping(next, options);
  }
  if (count === 0 && (next === state.objects || sameObjects(next, state.objects))) {
    return judgeAgain(state, options);
  }

  return diagnoseRemembering(next, options, state);
}
