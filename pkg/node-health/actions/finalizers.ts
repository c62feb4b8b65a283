/**
 * The finalizer cleanup as a JSON Patch and who may be offered it, and what the guarded writes share: reading
 * an object's identity, whether the user may update it, what changed since the review.
 *
 * The patches begin with `test` operations on what the user reviewed. The API server applies a JSON
 * Patch atomically: if the Machine (or RKEBootstrap) changed after the dialog read it, a test fails,
 * the server answers 422 and nothing is written. That is what makes the dialog's review meaningful.
 */
import {
  ANNOTATIONS, annotationsOf, asObject, infrastructureDeleteError, linkChain, metadata, STEVE_TYPES
} from '../engine';
import type { ActionId, KubeObject, NodeRecord, PreflightCheck } from '../engine';
import type { JsonPatchOperation, Message } from './types';

export const CAPI_MACHINE_FINALIZER = 'machine.cluster.x-k8s.io';

export const KEY = 'nodeHealth.actions';

export function resourceVersionOf(obj: unknown): string | null {
  const rv = metadata(obj).resourceVersion;

  return typeof rv === 'string' && rv !== '' ? rv : null;
}

export function metadataString(obj: unknown, field: 'uid' | 'deletionTimestamp'): string | null {
  const value = metadata(obj)[field];

  return typeof value === 'string' && value !== '' ? value : null;
}

export function finalizersOf(obj: unknown): string[] {
  const finalizers = metadata(obj).finalizers;

  return Array.isArray(finalizers) ? finalizers.map(String) : [];
}

/** "Machine fleet-default/custom-1": how the action log and the dialogs name an object. */
export function describeTarget(kindLabel: string, obj: unknown): string {
  const meta = metadata(obj);
  const name = typeof meta.name === 'string' ? meta.name : '?';

  return typeof meta.namespace === 'string' && meta.namespace ? `${ kindLabel } ${ meta.namespace }/${ name }` : `${ kindLabel } ${ name }`;
}

/** RFC 6901: `~` and `/` inside a key must be escaped for the key to be one path segment. */
export function escapeJsonPointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * Steve sets links.update only when the current user may update the object; a plain object (as the
 * tab passes) and a store model both carry it. Rancher's management objects may carry the link with the
 * value "blocked" instead: not allowed either.
 */
export function canUpdate(obj: unknown): boolean {
  const links = asObject(asObject(obj).links);

  return typeof links.update === 'string' && links.update !== '' && links.update !== 'blocked';
}

/** Steve sets links.remove only when the current user may delete the object. */
export function canRemove(obj: unknown): boolean {
  const links = asObject(asObject(obj).links);

  return typeof links.remove === 'string' && links.remove !== '' && links.remove !== 'blocked';
}

/**
 * Removes every finalizer of the Machine, provided it is still the very Machine the user saw (its uid: a
 * custom machine deleted and registered again comes back under the same name), still being deleted since
 * the same moment, with the same resourceVersion and exactly the finalizers the user saw. Throws when the
 * object lacks any of them: without them there is nothing to guard the removal with, and the eligibility
 * check below never offers the action then.
 */
export function buildFinalizerRemovalPatch(machine: KubeObject): JsonPatchOperation[] {
  const resourceVersion = resourceVersionOf(machine);
  const uid = metadataString(machine, 'uid');
  const deletionTimestamp = metadataString(machine, 'deletionTimestamp');
  const finalizers = finalizersOf(machine);

  if (!resourceVersion) {
    throw new Error('the Machine has no metadata.resourceVersion to guard the patch with');
  }
  if (!uid) {
    throw new Error('the Machine has no metadata.uid to guard the patch with');
  }
  if (!deletionTimestamp) {
    throw new Error('the Machine is not being deleted (no metadata.deletionTimestamp)');
  }
  if (!finalizers.length) {
    throw new Error('the Machine has no finalizers to remove');
  }

  return [
    {
      op: 'test', path: '/metadata/uid', value: uid
    },
    {
      op: 'test', path: '/metadata/deletionTimestamp', value: deletionTimestamp
    },
    {
      op: 'test', path: '/metadata/resourceVersion', value: resourceVersion
    },
    {
      op: 'test', path: '/metadata/finalizers', value: finalizers
    },
    { op: 'remove', path: '/metadata/finalizers' },
  ];
}

/**
 * Whether the tab shows an action's button: `offered` says whether the engine proposes the action for
 * this record at all (if not, nothing is shown); `allowed` whether this user may run it (if not, the
 * reason is shown instead of the button).
 */
export interface Eligibility {
  offered: boolean;
  allowed: boolean;
  reason: Message | null;
  /** the engine's check the refusal comes from (its words are `reason`): a dialog that lists the checks points to it */
  check?: Pick<PreflightCheck, 'id' | 'ok'>;
}

export function offeredBy(record: NodeRecord, action: ActionId): boolean {
  return (record?.findings ?? []).some((f) => (f.actions ?? []).includes(action));
}

export function notOffered(reason: string): Eligibility {
  return {
    offered: false, allowed: false, reason: { key: `${ KEY }.reason.${ reason }` }
  };
}

export function refused(reason: string, args: Message['args'] = {}): Eligibility {
  return {
    offered: true, allowed: false, reason: { key: `${ KEY }.reason.${ reason }`, args }
  };
}

export const ALLOWED: Eligibility = {
  offered: true, allowed: true, reason: null
};

/**
 * The engine's preflight for the action on this record (engine/preflight.ts), as a refusal: the first safety
 * check that failed or could not be judged, in its own words (what it found, and what to do instead). The
 * permission check is judged on the object itself, by the caller; `settled` names checks the dialog settles
 * itself before this write (the etcd release it offers first).
 */
export function preflightRefusal(record: NodeRecord, action: ActionId, settled: string[] = []): Eligibility | null {
  const preflight = (record?.preflight ?? []).find((p) => p.id === action);
  const failed = preflight?.checks.find((c) => c.id !== 'mayUpdate' && !settled.includes(c.id) && c.ok !== true);

  return failed ? checkRefusal(failed) : null;
}

/** A refusal in the words of the check that made it. */
export function checkRefusal(failed: PreflightCheck): Eligibility {
  return {
    offered: true,
    allowed: false,
    reason:  { key: failed.key, args: failed.args },
    check:   { id: failed.id, ok: failed.ok }
  };
}

/**
 * The finalizer cleanup: only where the engine offers it (stuck deleting past the threshold, with finalizers),
 * judged on the Machine as last read: the dialog passes the object it read again, and a Machine that is no
 * longer being deleted (or never was) is never offered the removal, whatever the findings said before.
 */
export function finalizerRemovalEligibility(record: NodeRecord): Eligibility {
  const machine = record?.objects?.machine;

  // Checked before the offer, so a record that changed since the findings were made is still refused: while the
  // infrastructure reports a failed delete, its server may run, and removing the finalizers would orphan it.
  if (machine && infrastructureDeleteError(record)) {
    return notOffered('infrastructureDeleteFailed');
  }
  if (!machine || !offeredBy(record, 'remove-finalizers')) {
    return notOffered('notStuck');
  }
  if (!metadataString(machine, 'deletionTimestamp')) {
    return notOffered('notDeleting');
  }
  const unsafe = preflightRefusal(record, 'remove-finalizers', ['etcdReleased']);

  if (unsafe) {
    return unsafe;
  }
  const target = describeTarget('Machine', machine);

  if (!canUpdate(machine)) {
    return refused('noUpdatePermission', { object: target });
  }
  if (!resourceVersionOf(machine) || !metadataString(machine, 'uid')) {
    return refused('noResourceVersion', { object: target });
  }
  if (!finalizersOf(machine).length) {
    return refused('noFinalizers', { object: target });
  }

  return ALLOWED;
}

/** What a finalizer guards, in words; unknown finalizers get a warning that nobody here knows. */
export function finalizerPurpose(finalizer: string): Message {
  switch (finalizer) {
  case CAPI_MACHINE_FINALIZER:
    return { key: `${ KEY }.finalizer.capiMachine` };
  case 'foregroundDeletion':
    return { key: `${ KEY }.finalizer.foregroundDeletion` };
  case 'orphan':
    return { key: `${ KEY }.finalizer.orphan` };
  default:
    return { key: `${ KEY }.finalizer.unknown`, args: { finalizer } };
  }
}

/**
 * The facts that make the Machine look stuck, for the dialog to state before any write: how long the
 * deletion has been pending, whether the agent ever checked in, whether the Node is gone.
 */
export function stuckFacts(record: NodeRecord, nowMs: number): Message[] {
  const facts: Message[] = [];
  const since = record?.deleting ? Date.parse(record.deleting) : NaN;

  if (!Number.isNaN(since)) {
    facts.push({ key: `${ KEY }.fact.deleting`, args: { duration: Math.max(0, nowMs - since), since: record.deleting as string } });
  }
  if (record?.plan?.state === 'waiting-for-agent') {
    facts.push({ key: `${ KEY }.fact.agentNeverCheckedIn` });
  }
  const nodeLink = record?.objects ? linkChain(record).find((link) => link.kind === 'node') : undefined;

  if (nodeLink?.state === 'missing') {
    facts.push({ key: `${ KEY }.fact.nodeGone`, args: { node: nodeLink.name ?? record.nodeName ?? '-' } });
  }
  if ((record?.roles ?? []).includes('etcd')) {
    facts.push({ key: `${ KEY }.fact.etcdMember` });
  }

  return facts;
}

/** Where Steve serves an object: its own links, else the Steve URL built from type, namespace and name. */
export function objectUrls(obj: unknown, steveType: string): { read: string; write: string } {
  const links = asObject(asObject(obj).links);
  const meta = metadata(obj);
  const path = [meta.namespace, meta.name].filter((part) => typeof part === 'string' && part !== '').map((part) => encodeURIComponent(part)).join('/');
  const steve = `/v1/${ steveType }s/${ path }`;

  return {
    read:  typeof links.self === 'string' && links.self ? links.self : steve,
    // Where the shell's own resource patch() sends JSON Patches (dashboard-store resource-class.js).
    write: typeof links.view === 'string' && links.view ? links.view : steve,
  };
}

export const MACHINE_TYPE = STEVE_TYPES.machine;
export const BOOTSTRAP_TYPE = STEVE_TYPES.bootstrap;

/** Whether the object read again is another object under the same name: the reviewed one was deleted. */
export function isReplacement(before: unknown, after: unknown): boolean {
  const uidBefore = metadataString(before, 'uid');

  return !!uidBefore && metadataString(after, 'uid') !== uidBefore;
}

export function deletionChange(before: unknown, after: unknown): Message[] {
  const deletingBefore = metadataString(before, 'deletionTimestamp');
  const deletingAfter = metadataString(after, 'deletionTimestamp');

  return deletingBefore === deletingAfter ? [] : [{ key: `${ KEY }.change.deletion`, args: { before: deletingBefore ?? '-', after: deletingAfter ?? '-' } }];
}

/** What differs between the object the user reviewed and the one just read again, in words. */
export function objectChanges(before: unknown, after: unknown): Message[] {
  const changes: Message[] = deletionChange(before, after);
  const rvBefore = resourceVersionOf(before) ?? '-';
  const rvAfter = resourceVersionOf(after) ?? '-';
  const finBefore = finalizersOf(before);
  const finAfter = finalizersOf(after);
  const annBefore = annotationsOf(before)[ANNOTATIONS.etcdForceRemove];
  const annAfter = annotationsOf(after)[ANNOTATIONS.etcdForceRemove];

  if (finBefore.join('\n') !== finAfter.join('\n')) {
    changes.push({ key: `${ KEY }.change.finalizers`, args: { before: finBefore.join(', ') || '-', after: finAfter.join(', ') || '-' } });
  }
  if (annBefore !== annAfter) {
    changes.push({ key: `${ KEY }.change.etcdRelease`, args: { after: typeof annAfter === 'string' ? annAfter : '-' } });
  }
  if (rvBefore !== rvAfter) {
    changes.push({ key: `${ KEY }.change.resourceVersion`, args: { before: rvBefore, after: rvAfter } });
  }
  if (!changes.length) {
    changes.push({ key: `${ KEY }.change.none` });
  }

  return changes;
}

/**
 * What the objects read again at confirmation say about the write the user confirmed: `unchanged` only
 * when they are the very objects reviewed (same uid), the Machine is deleting since the same moment, and
 * the eligibility that offered the action, judged on the fresh objects, still allows it. The write is then
 * built from the fresh objects, whose resourceVersion guards the short way from this read to the write.
 */
export type Recheck =
  | { verdict: 'unchanged' }
  /** Another Machine took the reviewed one's name: nothing about it was reviewed */
  | { verdict: 'replaced' }
  /** `changes` says in words what differs; an empty list when only the user's permission did */
  | { verdict: 'changed'; changes: Message[] };

export function withFresh(record: NodeRecord, fresh: Partial<Record<'machine' | 'bootstrap', KubeObject>>): NodeRecord {
  return { ...record, objects: { ...record?.objects, ...fresh } };
}

export function changedVerdict(changes: Message[]): Recheck {
  return { verdict: 'changed', changes: changes.filter((c) => c.key !== `${ KEY }.change.none`) };
}

export function sameUid(before: unknown, after: unknown): boolean {
  const uidBefore = metadataString(before, 'uid');

  return !uidBefore || metadataString(after, 'uid') === uidBefore;
}

export function recheckFinalizerRemoval(record: NodeRecord, reviewed: KubeObject, fresh: KubeObject): Recheck {
  if (isReplacement(reviewed, fresh)) {
    return { verdict: 'replaced' };
  }
  const eligibility = finalizerRemovalEligibility(withFresh(record, { machine: fresh }));
  const sameDeletion = metadataString(reviewed, 'deletionTimestamp') === metadataString(fresh, 'deletionTimestamp');
  const sameFinalizers = finalizersOf(reviewed).join('\n') === finalizersOf(fresh).join('\n');

  return eligibility.allowed && sameDeletion && sameFinalizers ? { verdict: 'unchanged' } : changedVerdict(objectChanges(reviewed, fresh));
}
