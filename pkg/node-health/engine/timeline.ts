/**
 * What happened to one record, in order: every condition transition its objects record, the plan Secret's own
 * times (plan written, applied, failing), when its objects were created and asked to be deleted, when its Node was
 * given a taint that carries its time (timeAdded: the node controller's unreachable and not-ready taints, an
 * out-of-service taint), the Kubernetes
 * Events about them (core/v1 and events.k8s.io/v1, with count and first and last seen), the logs of Rancher's
 * provisioning jobs for a node-driver machine, and the actions taken from the tab (the Events they record).
 *
 * The record's own objects give the first five; Events and job logs are read when a row is opened (they are not
 * part of the table's load) and passed in as TimelineInputs. Entries are oldest first, each once.
 */
import type { Finding, KubeObject, NodeRecord } from './types';
import type { MessageArgs } from './vocabulary';
import { conditions } from './conditions';
import {
  asArray, asNumber, asObject, asString, label, metadata, nameOf, namespaceOf
} from './fields';
import { JOB_LOG_FIELD, LABELS } from './vocabulary';
import { taintText } from './objects';
import { objectLabel } from './rules/rule';

export type TimelineSource = 'lifecycle' | 'condition' | 'taint' | 'plan' | 'event' | 'log' | 'action';

export interface TimelineEntry {
  /** RFC3339 */
  at: string;
  source: TimelineSource;
  /** "Machine fleet-default/custom-1" */
  object: string;
  /** nodeHealth.timeline.<what>, with its args (which hold the cluster's own words as untrusted text) */
  key: string;
  args: MessageArgs;
  /** A job's log, last lines last, already redacted by whoever read it */
  lines?: string[];
}

/** The last lines of the pod of one of Rancher's create or delete jobs for an infrastructure machine. */
export interface JobLog {
  /** `<infrastructure machine>-machine-provision` (rancher pkg/controllers/capr/machineprovision) */
  job: string;
  /** rke.cattle.io/infra-remove: "true" for the delete job, "false" for the create job */
  remove: boolean;
  /** The job's own times and failure, where its status says them */
  startTime: string | null;
  completionTime: string | null;
  failedMessage: string | null;
  lines: string[];
}

export interface TimelineInputs {
  /** Events of the management cluster (the Machine's namespace) and of the downstream cluster (the Node) */
  events?: KubeObject[];
  jobLogs?: JobLog[];
}

/** Kubernetes keeps up to this many log lines per job in the timeline: the end of a log says why it failed. */
export const JOB_LOG_LINES = 200;

const OBJECT_KINDS = ['machine', 'infraMachine', 'bootstrap', 'planSecret', 'mgmtNode', 'node'] as const;

type ObjectKind = typeof OBJECT_KINDS[number];

const EVENT_KINDS: Record<string, ObjectKind> = {
  Machine: 'machine', RKEBootstrap: 'bootstrap', Secret: 'planSecret', Node: 'node'
};

function validTime(value: unknown): string | null {
  const text = asString(value);

  return text && !Number.isNaN(Date.parse(text)) ? text : null;
}

function lifecycleEntries(kind: ObjectKind, obj: KubeObject, label: string): TimelineEntry[] {
  const out: TimelineEntry[] = [];
  const created = validTime(metadata(obj).creationTimestamp);
  const deleting = validTime(metadata(obj).deletionTimestamp);

  if (created) {
    out.push({
      at: created, source: 'lifecycle', object: label, key: `nodeHealth.timeline.created.${ kind }`, args: {}
    });
  }
  if (deleting) {
    out.push({
      at: deleting, source: 'lifecycle', object: label, key: 'nodeHealth.timeline.deleting', args: {}
    });
  }

  return out;
}

function conditionEntries(obj: KubeObject, label: string): TimelineEntry[] {
  return conditions(obj).filter((c) => !!validTime(c.lastTransitionTime)).map((c): TimelineEntry => {
    // reason and message are the writer's own words, shown as they are.
    const detail = [c.reason, c.message].filter((x) => !!x).join(' — ');

    return {
      at:     c.lastTransitionTime as string,
      source: 'condition' as const,
      object: label,
      key:    detail ? 'nodeHealth.timeline.condition' : 'nodeHealth.timeline.conditionBare',
      args:   detail ? {
        type: c.type, status: c.status, detail
      } as MessageArgs : { type: c.type, status: c.status },
    };
  });
}

/**
 * A Node's taints that say when they were added (timeAdded): the node lifecycle controller writes it on the
 * unreachable and not-ready taints it adds, NoSchedule and NoExecute alike, and NoExecute taints an admin adds
 * (out-of-service) carry it too. A taint without it is not on the timeline.
 */
function taintEntries(node: KubeObject, label: string): TimelineEntry[] {
  const out: TimelineEntry[] = [];

  for (const taint of asArray(asObject(asObject(node).spec).taints).map(asObject)) {
    const at = validTime(taint.timeAdded);
    const key = asString(taint.key);

    if (at && key) {
      out.push({
        at, source: 'taint', object: label, key: 'nodeHealth.timeline.taintAdded', args: { taint: taintText(taint) }
      });
    }
  }

  return out;
}

function planEntries(r: NodeRecord, label: string): TimelineEntry[] {
  const out: TimelineEntry[] = [];
  const plan = r.plan;

  if (validTime(plan.planLastUpdated)) {
    out.push({
      at: plan.planLastUpdated as string, source: 'plan', object: label, key: 'nodeHealth.timeline.planWritten', args: {}
    });
  }
  if (validTime(plan.lastApplyTime)) {
    out.push({
      at: plan.lastApplyTime as string, source: 'plan', object: label, key: 'nodeHealth.timeline.planApplied', args: {}
    });
  }
  if (validTime(plan.since) && (plan.state === 'apply-failed' || plan.state === 'probes-failing')) {
    out.push({
      at:     plan.since as string,
      source: 'plan',
      object: label,
      key:    plan.state === 'apply-failed' ? 'nodeHealth.timeline.planFailed' : 'nodeHealth.timeline.probesFailing',
      args:   { count: plan.failureCount ?? '?', probes: plan.unhealthyProbes.join(', ') || '-' },
    });
  }

  return out;
}

/** The object an Event is about: core/v1 `involvedObject`, events.k8s.io/v1 `regarding`. */
function subjectOf(event: KubeObject): Record<string, any> {
  return asObject(event.involvedObject ?? event.regarding);
}

/** When an Event last happened, in the fields each of its two API versions keeps. */
function eventTimes(event: KubeObject): { first: string | null; last: string | null } {
  const series = asObject(event.series);
  const last = validTime(event.lastTimestamp) ?? validTime(series.lastObservedTime) ?? validTime(event.deprecatedLastTimestamp) ??
    validTime(event.eventTime) ?? validTime(event.firstTimestamp) ?? validTime(metadata(event).creationTimestamp);
  const first = validTime(event.firstTimestamp) ?? validTime(event.deprecatedFirstTimestamp) ?? validTime(event.eventTime) ?? last;

  return { first, last };
}

function countOf(event: KubeObject): number {
  return asNumber(event.count) ?? asNumber(asObject(event.series).count) ?? asNumber(event.deprecatedCount) ?? 1;
}

/** The record's object an Event is about: by uid where both say it, else by kind, namespace and name. */
function eventObject(r: NodeRecord, event: KubeObject): { kind: ObjectKind; obj: KubeObject } | null {
  const subject = subjectOf(event);
  const uid = asString(subject.uid);

  for (const kind of OBJECT_KINDS) {
    const obj = r.objects[kind];

    if (!obj) {
      continue;
    }
    const objUid = asString(metadata(obj).uid);

    if (uid && objUid) {
      // The kubelet records its Node's name as the uid of the Events it writes about the Node.
      if (uid === objUid || (kind === 'node' && subject.kind === 'Node' && uid === nameOf(obj))) {
        return { kind, obj };
      }
      continue;
    }
    const sameKind = EVENT_KINDS[asString(subject.kind) ?? ''] === kind || (kind === 'infraMachine' && subject.kind === obj.kind) ||
      (kind === 'mgmtNode' && subject.kind === 'Node' && asString(subject.apiVersion)?.startsWith('management.cattle.io'));

    if (sameKind && subject.name === nameOf(obj) && (asString(subject.namespace) ?? null) === (namespaceOf(obj) ?? null)) {
      return { kind, obj };
    }
  }

  return null;
}

function eventEntries(r: NodeRecord, events: KubeObject[], labels: Map<KubeObject, string>): TimelineEntry[] {
  const out: TimelineEntry[] = [];

  for (const event of events) {
    const about = eventObject(r, event);
    const { first, last } = eventTimes(event);

    if (!about || !last) {
      continue;
    }
    const reason = asString(event.reason) ?? '-';
    // The tab's own writes record Events whose reason says so (actions/audit-event.ts).
    const action = reason.startsWith('NodeHealth');

    out.push({
      at:     last,
      source: action ? 'action' : 'event',
      object: labels.get(about.obj) ?? nameOf(about.obj) ?? '?',
      key:    action ? 'nodeHealth.timeline.action' : 'nodeHealth.timeline.event',
      args:   {
        reason,
        message: asString(event.message) ?? asString(event.note) ?? '-',
        type:    asString(event.type) ?? 'Normal',
        count:   countOf(event),
        first:   first ?? last,
      },
    });
  }

  return out;
}

function jobEntries(r: NodeRecord, jobs: JobLog[]): TimelineEntry[] {
  const infra = r.objects.infraMachine;
  const label = infra ? objectLabel('infraMachine', infra) : 'InfrastructureMachine';

  return jobs.flatMap((job) => {
    const at = validTime(job.completionTime) ?? validTime(job.startTime);

    if (!at) {
      return [];
    }

    return [{
      at,
      source: 'log' as const,
      object: label,
      // Neither finished nor failed: the job still runs (a create job waiting for the server's address, rancher-docs#585).
      key:    job.failedMessage ? 'nodeHealth.timeline.jobFailed' : (validTime(job.completionTime) ? 'nodeHealth.timeline.job' : 'nodeHealth.timeline.jobRunning'),
      args:   {
        job: job.job, kind: job.remove ? 'delete' : 'create', message: job.failedMessage ?? '-', lines: Math.min(job.lines.length, JOB_LOG_LINES)
      },
      lines: job.lines.slice(-JOB_LOG_LINES),
    }];
  });
}

/** A Job as its story tells it: its start, end and failure as its status says them, and its pod's last log lines. */
export function jobLogOf(job: KubeObject): JobLog {
  const status = asObject(job.status);
  const failed = asArray(status.conditions).map(asObject).find((c) => c.type === 'Failed' && c.status === 'True');

  return {
    job:            nameOf(job) ?? '?',
    remove:         label(job, LABELS.infraRemove) === 'true',
    startTime:      asString(status.startTime),
    completionTime: asString(status.completionTime) ?? asString(failed?.lastTransitionTime),
    failedMessage:  failed ? asString(failed.message) ?? asString(failed.reason) : null,
    lines:          asArray(job[JOB_LOG_FIELD]).filter((l): l is string => typeof l === 'string').slice(-JOB_LOG_LINES),
  };
}

/** The Jobs of each record's infrastructure machine (by Rancher's label, in its namespace), as job logs. */
export function jobsIndex(jobs: KubeObject[]): (r: NodeRecord) => JobLog[] {
  const byMachine = new Map<string, KubeObject[]>();

  for (const job of jobs) {
    const key = `${ namespaceOf(job) }/${ label(job, LABELS.infraMachineName) }`;

    byMachine.set(key, [...byMachine.get(key) ?? [], job]);
  }

  return (r) => {
    const infra = r.objects.infraMachine;

    return infra ? (byMachine.get(`${ namespaceOf(infra) }/${ nameOf(infra) }`) ?? []).map(jobLogOf) : [];
  };
}

function entryKey(e: TimelineEntry): string {
  return `${ e.at }\n${ e.source }\n${ e.object }\n${ e.key }\n${ JSON.stringify(e.args) }`;
}

/** The record's story, oldest first, each entry once (Cluster API keeps a condition in up to three lists). */
export function timelineOf(r: NodeRecord, inputs: TimelineInputs = {}): TimelineEntry[] {
  const labels = new Map<KubeObject, string>();
  const entries: TimelineEntry[] = [];

  for (const kind of OBJECT_KINDS) {
    const obj = r.objects[kind];

    if (!obj) {
      continue;
    }
    const label = objectLabel(kind, obj);

    labels.set(obj, label);
    entries.push(...lifecycleEntries(kind, obj, label));
    if (kind !== 'planSecret') {
      entries.push(...conditionEntries(obj, label));
    }
    if (kind === 'node') {
      entries.push(...taintEntries(obj, label));
    }
  }
  if (r.objects.planSecret) {
    entries.push(...planEntries(r, labels.get(r.objects.planSecret) as string));
  }
  entries.push(...eventEntries(r, asArray(inputs.events) as KubeObject[], labels));
  entries.push(...jobEntries(r, inputs.jobLogs ?? []));

  const seen = new Set<string>();
  const unique = entries.filter((e) => {
    const key = entryKey(e);

    return seen.has(key) ? false : !!seen.add(key);
  });

  // Stable: entries of the same moment keep the order above (an object's creation before its conditions).
  return unique.map((e, i) => ({
    e, i, t: Date.parse(e.at)
  })).sort((a, b) => a.t - b.t || a.i - b.i).map((x) => x.e);
}

/**
 * Events by what they are about (uid, and kind/namespace/name), so that many records' timelines are built from
 * one input's Events without reading every Event for every record.
 */
export function eventsIndex(events: KubeObject[]): (r: NodeRecord) => KubeObject[] {
  const byKey = new Map<string, KubeObject[]>();
  const add = (key: string, e: KubeObject) => {
    const list = byKey.get(key);

    if (list) {
      list.push(e);
    } else {
      byKey.set(key, [e]);
    }
  };

  for (const e of events) {
    const subject = subjectOf(e);
    const uid = asString(subject.uid);
    const name = asString(subject.name);

    if (uid) {
      add(`uid:${ uid }`, e);
    }
    if (name) {
      add(`name:${ name }`, e);
    }
  }

  return (r) => {
    const found = new Set<KubeObject>();

    for (const kind of OBJECT_KINDS) {
      const obj = r.objects[kind];

      for (const key of obj ? [`uid:${ asString(metadata(obj).uid) }`, `name:${ nameOf(obj) }`] : []) {
        byKey.get(key)?.forEach((e) => found.add(e));
      }
    }

    return [...found];
  };
}

/**
 * Which entry of a moment tells best why a finding started: what was recorded about it (a job's log, an Event, the
 * plan, a condition the evidence names, then a taint: the node controller taints a Node unreachable in the second
 * its Ready goes Unknown, as its consequence) before the object's own creation or deletion, and those before a
 * condition the finding does not read (a Node registers with all its conditions at once).
 */
const EXPLAINING_RANK: Record<TimelineSource | 'namedCondition', number> = {
  log: 0, event: 1, plan: 2, namedCondition: 3, taint: 4, action: 5, lifecycle: 6, condition: 7
};

/** Seconds: Kubernetes writes times with and without fractions, and a fraction never puts an entry after its moment. */
function second(at: string): number {
  return Math.floor(Date.parse(at) / 1000);
}

/**
 * The timeline entry that explains when a finding started, for "since 02:14, when the agent's last apply failed":
 * of the entries on the objects the finding's evidence names (those whose evidence holds the since itself, where
 * there are such), the one closest at or before the finding's since, and of several at that moment the one
 * EXPLAINING_RANK puts first. Null when the finding has no since or no entry on its objects comes before it.
 */
export function entryExplaining(finding: Pick<Finding, 'since' | 'evidence'>, entries: readonly TimelineEntry[]): TimelineEntry | null {
  const since = finding.since ? second(finding.since) : NaN;

  if (Number.isNaN(since)) {
    return null;
  }
  const atSince = finding.evidence.filter((e) => typeof e.value === 'string' && second(e.value) === since).map((e) => e.object);
  const objects = new Set(atSince.length ? atSince : finding.evidence.map((e) => e.object));
  const named = new Set(finding.evidence.flatMap((e) => [...e.path.matchAll(/conditions\[([^\]]+)\]/g)].map((m) => `${ e.object }\n${ m[1] }`)));
  const rank = (e: TimelineEntry) => EXPLAINING_RANK[e.source === 'condition' && named.has(`${ e.object }\n${ e.args.type }`) ? 'namedCondition' : e.source];
  let best: { e: TimelineEntry; t: number } | null = null;

  for (const e of entries) {
    const t = second(e.at);

    if (!objects.has(e.object) || Number.isNaN(t) || t > since) {
      continue;
    }
    if (!best || t > best.t || (t === best.t && rank(e) < rank(best.e))) {
      best = { e, t };
    }
  }

  return best?.e ?? null;
}
