/**
 * The etcd release: Rancher's designed way out for an etcd machine held by the rke-bootstrap-cleanup
 * pre-terminate hook. The RKEBootstrap is annotated `rke.cattle.io/etcd-force-remove: "true"`, guarded by
 * the resourceVersion the user reviewed; who may be offered it; and the write, read again first.
 */
import { ANNOTATIONS, annotationsOf, isPlainObject, metadata } from '../engine';
import type { KubeObject, NodeRecord } from '../engine';
import {
  changedVerdict, deletionChange, describeTarget, escapeJsonPointer, isReplacement, metadataString, notOffered, preflightRefusal,
  objectChanges, objectUrls, offeredBy, refused, resourceVersionOf, sameUid, withFresh, canUpdate, ALLOWED, BOOTSTRAP_TYPE, KEY, MACHINE_TYPE
} from './finalizers';
import type { Eligibility, Recheck } from './finalizers';
import {
  gone, notWritten, readAgain, runWrite, unreadable
} from './requests';
import type { ActionOutcome, ConfirmedWrite } from './requests';
import type { ActionContext, JsonPatchOperation, StoreLike } from './types';

export const ETCD_FORCE_REMOVE_ANNOTATION = ANNOTATIONS.etcdForceRemove;
export const ETCD_HOOK_ANNOTATION = ANNOTATIONS.etcdHook;

/**
 * Rancher's designed release for an etcd machine held by the rke-bootstrap-cleanup hook: the
 * RKEBootstrap annotated `rke.cattle.io/etcd-force-remove: "true"`. JSON Patch cannot add a key to a
 * map that does not exist, so an object without annotations gets the whole map.
 */
export function buildEtcdForceRemovePatch(bootstrap: KubeObject): JsonPatchOperation[] {
  const resourceVersion = resourceVersionOf(bootstrap);

  if (!resourceVersion) {
    throw new Error('the RKEBootstrap has no metadata.resourceVersion to guard the patch with');
  }
  const annotations = metadata(bootstrap).annotations;
  const hasAnnotations = isPlainObject(annotations);

  return [
    {
      op: 'test', path: '/metadata/resourceVersion', value: resourceVersion
    },
    hasAnnotations ? {
      op: 'add', path: `/metadata/annotations/${ escapeJsonPointer(ETCD_FORCE_REMOVE_ANNOTATION) }`, value: 'true'
    } : {
      op: 'add', path: '/metadata/annotations', value: { [ETCD_FORCE_REMOVE_ANNOTATION]: 'true' }
    },
  ];
}

/**
 * The etcd release: where the engine offers it, the Machine (as last read) is still being deleted, and the
 * RKEBootstrap is not already annotated.
 */
export function etcdForceRemoveEligibility(record: NodeRecord): Eligibility {
  const bootstrap = record?.objects?.bootstrap;

  if (!bootstrap || !offeredBy(record, 'etcd-force-remove')) {
    return notOffered('notEtcdHook');
  }
  if (record.objects.machine && !metadataString(record.objects.machine, 'deletionTimestamp')) {
    return notOffered('notDeleting');
  }
  const target = describeTarget('RKEBootstrap', bootstrap);

  if (annotationsOf(bootstrap)[ETCD_FORCE_REMOVE_ANNOTATION] === 'true') {
    return refused('etcdAlreadyReleased', { object: target });
  }
  const unsafe = preflightRefusal(record, 'etcd-force-remove');

  if (unsafe) {
    return unsafe;
  }
  if (!canUpdate(bootstrap)) {
    return refused('noUpdatePermission', { object: target });
  }
  if (!resourceVersionOf(bootstrap)) {
    return refused('noResourceVersion', { object: target });
  }

  return ALLOWED;
}

/**
 * The etcd release judged on the Machine and the RKEBootstrap read again: the Machine must be the one
 * reviewed and still deleting since the same moment (a released bootstrap of a machine registered again
 * would skip its etcd member's removal at its next deletion), the RKEBootstrap the one reviewed.
 */
export function recheckEtcdRelease(
  record: NodeRecord, reviewed: { machine: KubeObject | null; bootstrap: KubeObject }, fresh: { machine: KubeObject | null; bootstrap: KubeObject }
): Recheck {
  if (reviewed.machine && isReplacement(reviewed.machine, fresh.machine)) {
    return { verdict: 'replaced' };
  }
  const machineChanges = reviewed.machine ? deletionChange(reviewed.machine, fresh.machine) : [];
  const bootstrapReplaced = !sameUid(reviewed.bootstrap, fresh.bootstrap);
  const eligibility = etcdForceRemoveEligibility(withFresh(record, { machine: fresh.machine ?? undefined, bootstrap: fresh.bootstrap }));

  if (eligibility.allowed && !machineChanges.length && !bootstrapReplaced) {
    return { verdict: 'unchanged' };
  }

  return changedVerdict([
    ...machineChanges,
    ...(bootstrapReplaced ? [{ key: `${ KEY }.change.replacedObject`, args: { object: describeTarget('RKEBootstrap', fresh.bootstrap) } }] : []),
    ...objectChanges(reviewed.bootstrap, fresh.bootstrap),
  ]);
}

/** Annotates the RKEBootstrap so Rancher stops waiting for the etcd member's removal. */
export function releaseEtcdMember(store: StoreLike, bootstrap: KubeObject, context: ActionContext): Promise<ActionOutcome> {
  const patch = buildEtcdForceRemovePatch(bootstrap);

  return runWrite(store, context, 'etcd-force-remove', describeTarget('RKEBootstrap', bootstrap), {
    method: 'PATCH', url: objectUrls(bootstrap, BOOTSTRAP_TYPE).write, patch
  },
  'annotated rke.cattle.io/etcd-force-remove=true', bootstrap);
}

/** The etcd release as confirmed in the dialog: the Machine and the RKEBootstrap are read again first. */
export async function releaseEtcdMemberIfUnchanged(
  store: StoreLike, record: NodeRecord, reviewed: { machine: KubeObject | null; bootstrap: KubeObject }, context: ActionContext
): Promise<ConfirmedWrite> {
  const action = 'etcd-force-remove';
  const target = describeTarget('RKEBootstrap', reviewed.bootstrap);
  let machine: KubeObject | null = null;

  if (reviewed.machine) {
    const read = await readAgain(store, reviewed.machine, MACHINE_TYPE);

    if ('failure' in read) {
      const machineTarget = describeTarget('Machine', reviewed.machine);

      return read.failure.kind === 'gone' ? gone(context, action, target, 'machine', read.failure) : unreadable(context, action, machineTarget, read.failure);
    }
    machine = read.object;
  }
  const read = await readAgain(store, reviewed.bootstrap, BOOTSTRAP_TYPE);

  if ('failure' in read) {
    return read.failure.kind === 'gone' ? gone(context, action, target, 'bootstrap', read.failure) : unreadable(context, action, target, read.failure);
  }
  const recheck = recheckEtcdRelease(record, reviewed, { machine, bootstrap: read.object });

  if (recheck.verdict !== 'unchanged') {
    return notWritten(context, action, target, recheck, { machine, bootstrap: read.object });
  }

  return { state: 'written', outcome: await releaseEtcdMember(store, read.object, context) };
}
