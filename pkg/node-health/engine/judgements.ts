/**
 * What judging one record said, kept so that a later diagnosis can say it again without running the rules:
 * only for a record whose joined objects are the very same, whose rules read neither the clock (when the time
 * moved) nor anything across records (other records' names, claims, the cluster's Cluster API objects), and that
 * no host report or same-host relation touches. Everything else is judged again.
 */
import type {
  ClusterInfo, Finding, InputAvailability, NodeRecord, RecordStatus
} from './types';
import type { RuleContext } from './rules';
import { NO_RELATIONS } from './hosts';

export interface Judgement {
  findings: Finding[];
  notes: NodeRecord['notes'];
  status: RecordStatus;
  statusSince: string | null;
  /** a rule read the clock: judged again when the time differs */
  clock: boolean;
  /** a rule's "not yet" turns at this moment (epoch ms; Infinity for none): judged again from then on */
  until: number;
}

/** The common case, shared: no finding, no note, healthy since created, nothing read but the record's own objects. */
const PLAIN: Judgement = Object.freeze({
  findings: [], notes: [], status: 'healthy', statusSince: null, clock: false, until: Infinity
}) as Judgement;

/** What a record's rules read beyond its own objects, reset before each record. */
export interface Reads {
  clock: boolean;
  others: boolean;
  /** the earliest moment a rule's "not yet" turns (RuleContext.passed) */
  until: number;
}

/** The look-ups across records: a record whose rules made one is judged again next time. */
const ACROSS_RECORDS = [
  'nodesNamedLike', 'machinesJoinedTo', 'hasMachine', 'clusterObjectsOf', 'capiObjectsOf', 'machineOfNode', 'expectedNames',
  'clustersWithMachines', 'nameClaims'
] as const;

/** The rules' context, telling `reads` what they read. */
export function trackedContext(ctx: RuleContext, reads: Reads): RuleContext {
  const tracked = { ...ctx };

  // A moment that has come stays come only as long as the time does not go back: that answer reads the clock.
  tracked.passed = (at) => {
    if (ctx.now >= at) {
      reads.clock = true;

      return true;
    }
    reads.until = Math.min(reads.until, at);

    return false;
  };

  Object.defineProperty(tracked, 'now', {
    enumerable: true,
    get:        () => {
      reads.clock = true;

      return ctx.now;
    }
  });
  for (const key of ACROSS_RECORDS) {
    const value = ctx[key];

    Object.defineProperty(tracked, key, {
      enumerable: true,
      get:        () => {
        reads.others = true;

        return value;
      }
    });
  }

  return tracked;
}

/** The judgement to keep for a record just judged, or null when it cannot be said again without judging. */
export function judgementOf(record: NodeRecord, reads: Reads): Judgement | null {
  if (reads.others || record.hostReport || record.related !== NO_RELATIONS) {
    return null;
  }
  if (!reads.clock && reads.until === Infinity && record.status === 'healthy' && record.findings.length === 0 && record.notes.length === 0 &&
    record.statusSince === record.created) {
    return PLAIN;
  }

  return {
    // Later passes add to these lists and to the findings' actions: what is kept is a copy.
    findings:    record.findings.map((f) => ({ ...f })),
    notes:       [...record.notes],
    status:      record.status,
    statusSince: record.statusSince,
    clock:       reads.clock,
    until:       reads.until,
  };
}

/** Says a kept judgement again on a record carried over from the earlier join; false when it has to be judged. */
export function sayAgain(record: NodeRecord, judgement: Judgement | undefined, timeMoved: boolean, now: number): boolean {
  if (!judgement || (judgement.clock && timeMoved) || now >= judgement.until || record.hostReport || record.related !== NO_RELATIONS) {
    return false;
  }
  if (judgement === PLAIN) {
    // What later passes added to this record last time (another record's finding naming it) goes; they add it again.
    if (record.findings.length) {
      record.findings = [];
    }
    if (record.notes.length) {
      record.notes = [];
    }
    record.status = 'healthy';
    record.statusSince = record.created;

    return true;
  }
  record.findings = judgement.findings.map((f) => ({ ...f }));
  record.notes = [...judgement.notes];
  record.status = judgement.status;
  record.statusSince = judgement.statusSince;

  return true;
}

/** What judging adds to a cluster: not part of what its records' rules read. */
const JUDGED_CLUSTER_FIELDS = new Set(['findings', 'notes', 'resolution', 'agent']);

/** One text for what every record's rules depend on alike: the clusters as joined, and each distinct availability of the inputs. */
export function sharedGround(clusters: ClusterInfo[], inputs: Iterable<InputAvailability>): string {
  const distinct = new Set<string>();

  for (const i of inputs) {
    distinct.add(JSON.stringify(i));
  }
  const joined = clusters.map((c) => JSON.stringify(c, (key, value) => (JUDGED_CLUSTER_FIELDS.has(key) ? undefined : value)));

  return JSON.stringify([joined, [...distinct].sort()]);
}
