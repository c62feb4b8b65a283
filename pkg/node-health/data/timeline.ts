/**
 * What a record's timeline needs beyond the table's load, read when its row is opened: the Kubernetes Events
 * about its objects (management cluster and downstream cluster) and, for a node-driver machine, Rancher's create
 * and delete jobs with the last lines of their pods' logs. Read through the dashboard store's requests, one
 * record's objects only. What the user may not read is left out with a note; the rest of the timeline stays.
 * Event messages and log lines pass the export's pattern redaction before they reach the screen.
 */
import {
  asArray, asObject, asString, jobLogOf, metadata, nameOf, namespaceOf, JOB_LOG_FIELD, JOB_LOG_LINES, LABELS
} from '../engine';
import type { KubeObject, MessageArgs, NodeRecord, TimelineInputs } from '../engine';
import { redactString } from '../export/redact';
import { describeFailure } from './errors';
import { byLabel, path, queryString, UNUSED_FIELDS } from './requests';
import type { ListForm } from './requests';

/** Rancher's labels on the jobs and pods that create and delete an infrastructure machine (machineprovision/template.go). */
export const INFRA_MACHINE_NAME_LABEL = LABELS.infraMachineName;
export const INFRA_REMOVE_LABEL = LABELS.infraRemove;
/** The container of those pods that runs the machine driver. */
export const JOB_CONTAINER = 'machine';

export interface TimelineRequester {
  dispatch(type: string, payload?: unknown): Promise<any>;
}

export interface TimelineLoad {
  inputs: TimelineInputs;
  /** The Jobs read, each with its pod's last log lines (JOB_LOG_FIELD), redacted: what a report keeps of them */
  jobs: KubeObject[];
  /** What could not be read, and why: translation keys with args */
  notes: { key: string; args?: MessageArgs }[];
}

function eventsUrl(clusterId: string | null, namespace: string | null, uid: string): string {
  const prefix = clusterId ? `/k8s/clusters/${ encodeURIComponent(clusterId) }` : '';
  const where = namespace ? path('v1', 'events', namespace) : path('v1', 'events');

  return `${ prefix }${ where }${ queryString([['filter', `involvedObject.uid=${ uid }`], ...UNUSED_FIELDS]) }`;
}

/**
 * The Event lists to read: by the uid of each object (the one field Steve's SQL cache indexes besides the kind),
 * and for a Node also by its name, which the kubelet records as the uid of the Events it writes about its Node.
 */
export function eventRequests(r: NodeRecord): string[] {
  const urls: string[] = [];

  for (const obj of [r.objects.machine, r.objects.infraMachine, r.objects.bootstrap]) {
    const uid = asString(metadata(obj).uid);

    if (obj && uid) {
      urls.push(eventsUrl(null, namespaceOf(obj), uid));
    }
  }
  const node = r.objects.node;
  const downstream = r.cluster?.mgmtId ?? null;

  if (node && downstream) {
    for (const uid of new Set([asString(metadata(node).uid), nameOf(node)].filter((x): x is string => !!x))) {
      urls.push(eventsUrl(downstream, null, uid));
    }
  }

  return urls;
}

/** The jobs and pods Rancher runs for the record's infrastructure machine; none for a custom host. */
export function jobRequests(r: NodeRecord, form: ListForm): { jobs: string; pods: string } | null {
  const infra = r.objects.infraMachine;
  const name = nameOf(infra);
  const namespace = namespaceOf(infra);

  if (!infra || !name || !namespace || infra.kind === 'CustomMachine') {
    return null;
  }
  const selector = byLabel(`${ INFRA_MACHINE_NAME_LABEL }=${ name }`, form);

  return {
    jobs: `${ path('v1', 'batch.jobs', namespace) }${ queryString([selector, ...UNUSED_FIELDS]) }`,
    pods: `${ path('v1', 'pods', namespace) }${ queryString([selector, ...UNUSED_FIELDS]) }`,
  };
}

export function podLogUrl(namespace: string, pod: string): string {
  return `/k8s/clusters/local${ path('api', 'v1', 'namespaces', namespace, 'pods', pod, 'log') }${ queryString([['container', JOB_CONTAINER], ['tailLines', String(JOB_LOG_LINES)]]) }`;
}

async function get(store: TimelineRequester, url: string): Promise<{ ok: true; body: any } | { ok: false; status: number | null }> {
  try {
    return {
      ok:   true,
      body: await store.dispatch('management/request', {
        url, method: 'GET', redirectUnauthorized: false
      })
    };
  } catch (err) {
    return { ok: false, status: describeFailure(err).status };
  }
}

function itemsOf(body: unknown): KubeObject[] {
  return asArray(asObject(body).data ?? asObject(body).items) as KubeObject[];
}

function redactEvent(e: KubeObject): KubeObject {
  const message = asString(e.message) ?? asString(e.note);

  return message === null ? e : {
    ...e, message: redactString(message), note: undefined
  };
}

/** The newest pod of the job (a job that retried has several). */
function podOfJob(pods: KubeObject[], job: KubeObject): KubeObject | null {
  const jobName = nameOf(job);
  const own = pods.filter((p) => {
    const labels = asObject(metadata(p).labels);

    return labels['job-name'] === jobName || labels['batch.kubernetes.io/job-name'] === jobName;
  });

  return own.sort((a, b) => String(metadata(b).creationTimestamp ?? '').localeCompare(String(metadata(a).creationTimestamp ?? '')))[0] ?? null;
}

function statusNote(what: 'events' | 'jobs' | 'logs', status: number | null): { key: string; args: MessageArgs } {
  const denied = status === 401 || status === 403 || status === 404;

  return { key: `nodeHealth.timeline.note.${ what }${ denied ? 'Denied' : 'Failed' }`, args: { status: status ?? '-' } };
}

/** Reads the Events and job logs of one record; never throws. */
export async function loadTimelineInputs(store: TimelineRequester, r: NodeRecord, form: ListForm): Promise<TimelineLoad> {
  const notes: TimelineLoad['notes'] = [];
  const events: KubeObject[] = [];
  const seen = new Set<string>();
  const reads = await Promise.all(eventRequests(r).map((url) => get(store, url)));

  const failed = reads.find((read) => !read.ok);

  if (failed && !failed.ok) {
    notes.push(statusNote('events', failed.status));
  }
  for (const read of reads) {
    if (!read.ok) {
      continue;
    }
    for (const e of itemsOf(read.body)) {
      const key = asString(metadata(e).uid) ?? `${ namespaceOf(e) }/${ nameOf(e) }`;

      if (!seen.has(key)) {
        seen.add(key);
        events.push(redactEvent(e));
      }
    }
  }
  const jobObjects: KubeObject[] = [];
  const jobs = jobRequests(r, form);

  if (jobs) {
    const [jobList, podList] = await Promise.all([get(store, jobs.jobs), get(store, jobs.pods)]);

    if (!jobList.ok) {
      notes.push(statusNote('jobs', jobList.status));
    } else {
      const pods = podList.ok ? itemsOf(podList.body) : [];

      let logsNoted = !podList.ok;

      if (!podList.ok) {
        notes.push(statusNote('logs', podList.status));
      }
      for (const job of itemsOf(jobList.body)) {
        const pod = podOfJob(pods, job);
        let lines: string[] = [];

        if (pod) {
          const log = await get(store, podLogUrl(namespaceOf(pod) as string, nameOf(pod) as string));

          if (log.ok) {
            lines = String(typeof log.body === 'string' ? log.body : asString(asObject(log.body).data) ?? '').split('\n').filter((l) => l !== '').slice(-JOB_LOG_LINES)
              .map((l) => redactString(l));
          } else if (!logsNoted) {
            logsNoted = true;
            notes.push(statusNote('logs', log.status));
          }
        }
        // Steve's envelope may lack the kind; the engine recognises a Job by it.
        jobObjects.push({
          apiVersion: 'batch/v1', kind: 'Job', ...job, [JOB_LOG_FIELD]: lines
        });
      }
    }
  }

  return {
    inputs: { events, jobLogs: jobObjects.map(jobLogOf) }, jobs: jobObjects, notes
  };
}
