/**
 * Every write from the tab leaves a Kubernetes Event on the object it changed (who, what, why), so the cluster
 * keeps its own audit trail next to the browser's action log. The Event goes through the Kubernetes API that
 * Rancher proxies (`/k8s/clusters/local/api/v1/...`): Steve renames an Event's own `type` field, which would
 * make the body ambiguous. A user who may not create Events gets no Event and the write stands; the action log
 * says so.
 */
import { metadata } from '../engine';
import type { KubeObject } from '../engine';
import { describeActionError } from './errors';
import type { StoreLike } from './types';

export const AUDIT_COMPONENT = 'node-health-ui';

/** The Event reason per action, in the CamelCase Kubernetes components use. */
export const AUDIT_REASONS = {
  'remove-finalizers': 'NodeHealthRemovedFinalizers',
  'etcd-force-remove': 'NodeHealthReleasedEtcdMember',
  'force-delete':      'NodeHealthForceDelete',
  'delete-machine':    'NodeHealthDeletedMachine',
  'resume-machine':    'NodeHealthResumedMachine',
} as const;

export type AuditedAction = keyof typeof AUDIT_REASONS;

export interface AuditNote {
  /** Who did it (the signed-in user's name) */
  user: string;
  /** What was done, in a short line: "removed the finalizers machine.cluster.x-k8s.io" */
  what: string;
  /** Why, as the diagnosis said it: the record's root cause (a rule id) */
  why?: string | null;
}

/** A core/v1 Event about `object`, as `kubectl describe` shows them (count, first and last seen). */
export function buildAuditEvent(object: KubeObject, action: AuditedAction, note: AuditNote, now: Date = new Date()): KubeObject {
  const meta = metadata(object);
  const at = now.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const why = note.why ? ` (diagnosis: ${ note.why })` : '';

  return {
    apiVersion: 'v1',
    kind:       'Event',
    metadata:   {
      // Unique per object and millisecond, and still readable next to the object's own Events.
      name:      `${ String(meta.name ?? 'object').slice(0, 200) }.nh${ now.getTime().toString(16) }`,
      namespace: meta.namespace,
      labels:    { 'app.kubernetes.io/managed-by': AUDIT_COMPONENT },
    },
    involvedObject: {
      apiVersion:      object.apiVersion,
      kind:            object.kind,
      name:            meta.name,
      namespace:       meta.namespace,
      uid:             meta.uid,
      resourceVersion: meta.resourceVersion,
    },
    reason:             AUDIT_REASONS[action],
    message:            `${ note.user } ${ note.what } from Node Health${ why }`.slice(0, 1024),
    type:               action === 'remove-finalizers' || action === 'force-delete' ? 'Warning' : 'Normal',
    source:             { component: AUDIT_COMPONENT },
    reportingComponent: AUDIT_COMPONENT,
    reportingInstance:  note.user.slice(0, 128),
    firstTimestamp:     at,
    lastTimestamp:      at,
    count:              1,
  } as KubeObject;
}

export type AuditResult = 'recorded' | 'not-permitted' | 'failed';

/** Records the Event; never throws: the write it documents has happened whatever becomes of the Event. */
export async function recordAuditEvent(store: StoreLike, object: KubeObject, action: AuditedAction, note: AuditNote): Promise<AuditResult> {
  const namespace = metadata(object).namespace;

  if (typeof namespace !== 'string' || !namespace) {
    return 'failed';
  }
  try {
    await store.dispatch('management/request', {
      url:                  `/k8s/clusters/local/api/v1/namespaces/${ encodeURIComponent(namespace) }/events`,
      method:               'POST',
      headers:              { 'content-type': 'application/json' },
      data:                 buildAuditEvent(object, action, note),
      redirectUnauthorized: false,
    });

    return 'recorded';
  } catch (err) {
    const failure = describeActionError(err);

    return failure.kind === 'forbidden' || failure.kind === 'unauthorized' ? 'not-permitted' : 'failed';
  }
}

/** How the action log mentions the Event. */
export function auditDetail(result: AuditResult): string {
  switch (result) {
  case 'recorded':
    return 'event recorded';
  case 'not-permitted':
    return 'no event (may not create events)';
  default:
    return 'no event (the request failed)';
  }
}
