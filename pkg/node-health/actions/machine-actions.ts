/**
 * The actions Rancher itself has for a machine, offered where the diagnosis calls for them and guarded like the
 * finalizer removal: Force Delete (the infrastructure machine annotated so Rancher stops waiting for a provider
 * that refuses the delete, as rancher/dashboard's Machine model does), Delete (the machine's pool creates a new
 * one, as Rancher's Delete and Scale Down do), and Resume (a machine's `cluster.x-k8s.io/paused` removed).
 *
 * Each is one entry of MACHINE_ACTIONS: the object it writes, the write built from that object as read again at
 * confirmation, and which of the engine's preflight checks depend on that object alone, so they are judged again
 * on it. The checks over the whole cluster (etcd quorum, the last of a role, a pause above the machine) stand as
 * the diagnosis judged them.
 */
import {
  ANNOTATIONS, annotation, infrastructureRef, metadata, preflightOf, userConfirmable
} from '../engine';
import type { ActionPreflight, KubeObject, NodeRecord, PreflightCheckId } from '../engine';
import {
  ALLOWED, checkRefusal, describeTarget, escapeJsonPointer, isReplacement, metadataString, notOffered, offeredBy, resourceVersionOf, MACHINE_TYPE
} from './finalizers';
import type { Eligibility, Recheck } from './finalizers';
import {
  gone, notWritten, readAgain, runWrite, unreadable
} from './requests';
import type { ActionOutcome, ConfirmedWrite, WriteRequest } from './requests';
import type { ActionContext, JsonPatchOperation, Message, StoreLike } from './types';

export const FORCE_MACHINE_REMOVE_ANNOTATION = 'provisioning.cattle.io/force-machine-remove';

export type MachineActionId = 'force-delete' | 'delete-machine' | 'resume-machine';

export interface MachineAction {
  id: MachineActionId;
  /** The record's object it writes */
  target: 'machine' | 'infraMachine';
  /** The Steve type the object is read again through */
  steveType(obj: KubeObject): string;
  /** "Machine fleet-default/x", "VmwarevsphereMachine fleet-default/x" */
  label(obj: KubeObject): string;
  /** The write, built from the object as read again: guarded by its uid and resourceVersion */
  write(obj: KubeObject): WriteRequest;
  /** What the action log and the audit Event say it did */
  done(obj: KubeObject): string;
  /** The preflight checks that depend on the written object only: judged again on the object read again */
  ownChecks: PreflightCheckId[];
}

/** Rancher's infrastructure machines are Steve types `rke-machine.cattle.io.<kind in lower case>`. */
function infraSteveType(obj: KubeObject): string {
  const group = String(obj.apiVersion ?? 'rke-machine.cattle.io/v1').split('/')[0];

  return `${ group }.${ String(obj.kind ?? '').toLowerCase() }`;
}

function guard(obj: KubeObject): JsonPatchOperation[] {
  const uid = metadataString(obj, 'uid');
  const resourceVersion = resourceVersionOf(obj);

  if (!uid || !resourceVersion) {
    throw new Error(`${ describeTarget(String(obj.kind ?? 'object'), obj) } has no uid or resourceVersion to guard the write with`);
  }

  return [{
    op: 'test', path: '/metadata/uid', value: uid
  }, {
    op: 'test', path: '/metadata/resourceVersion', value: resourceVersion
  }];
}

/** Adds an annotation; JSON Patch cannot add a key to a map that is not there, so a bare object gets the map. */
function addAnnotation(obj: KubeObject, key: string, value: string): JsonPatchOperation {
  return metadata(obj).annotations && typeof metadata(obj).annotations === 'object' ? {
    op: 'add', path: `/metadata/annotations/${ escapeJsonPointer(key) }`, value
  } : {
    op: 'add', path: '/metadata/annotations', value: { [key]: value }
  };
}

/** Where Steve serves the object for a JSON Patch (the shell's own patch() uses `links.view`). */
function patchUrl(obj: KubeObject, steveType: string): string {
  const links = (obj.links ?? {}) as Record<string, unknown>;
  const meta = metadata(obj);

  return typeof links.view === 'string' && links.view ? links.view : `/v1/${ steveType }s/${ encodeURIComponent(String(meta.namespace)) }/${ encodeURIComponent(String(meta.name)) }`;
}

/**
 * The Kubernetes API path of an object in Rancher's local cluster, which Rancher proxies with the user's own
 * permissions: there a DELETE's preconditions (uid, resourceVersion) are checked by the API server itself.
 */
export function kubeObjectUrl(obj: KubeObject, resource: string): string {
  const meta = metadata(obj);
  const apiVersion = String(obj.apiVersion ?? '');
  const base = apiVersion.includes('/') ? `/k8s/clusters/local/apis/${ apiVersion }` : `/k8s/clusters/local/api/${ apiVersion || 'v1' }`;

  return `${ base }/namespaces/${ encodeURIComponent(String(meta.namespace)) }/${ resource }/${ encodeURIComponent(String(meta.name)) }`;
}

export const MACHINE_ACTIONS: Readonly<Record<MachineActionId, MachineAction>> = {
  'force-delete': {
    id:        'force-delete',
    target:    'infraMachine',
    steveType: infraSteveType,
    label:     (obj) => describeTarget(String(obj.kind ?? 'InfrastructureMachine'), obj),
    write:     (obj) => ({
      method: 'PATCH', url: patchUrl(obj, infraSteveType(obj)), patch: [...guard(obj), addAnnotation(obj, FORCE_MACHINE_REMOVE_ANNOTATION, 'true')]
    }),
    done:      () => `annotated ${ FORCE_MACHINE_REMOVE_ANNOTATION }=true`,
    ownChecks: ['deleteFailed', 'mayUpdate'],
  },
  'delete-machine': {
    id:        'delete-machine',
    target:    'machine',
    steveType: () => MACHINE_TYPE,
    label:     (obj) => describeTarget('Machine', obj),
    write:     (obj) => ({
      method: 'DELETE',
      url:    kubeObjectUrl(obj, 'machines'),
      body:   {
        apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { uid: metadataString(obj, 'uid'), resourceVersion: resourceVersionOf(obj) }, propagationPolicy: 'Background'
      },
    }),
    done:      () => 'deleted the machine',
    ownChecks: ['notDeleting', 'replacement', 'mayDelete'],
  },
  'resume-machine': {
    id:        'resume-machine',
    target:    'machine',
    steveType: () => MACHINE_TYPE,
    label:     (obj) => describeTarget('Machine', obj),
    write:     (obj) => ({
      method: 'PATCH',
      url:    patchUrl(obj, MACHINE_TYPE),
      patch:  [
        ...guard(obj),
        {
          op: 'test', path: `/metadata/annotations/${ escapeJsonPointer(ANNOTATIONS.capiPaused) }`, value: annotation(obj, ANNOTATIONS.capiPaused) ?? ''
        },
        { op: 'remove', path: `/metadata/annotations/${ escapeJsonPointer(ANNOTATIONS.capiPaused) }` },
      ],
    }),
    done:      () => `removed ${ ANNOTATIONS.capiPaused }`,
    ownChecks: ['machinePaused', 'mayUpdate'],
  },
};

export function isMachineAction(id: string): id is MachineActionId {
  return Object.prototype.hasOwnProperty.call(MACHINE_ACTIONS, id);
}

export function targetOf(action: MachineAction, record: NodeRecord): KubeObject | null {
  return record?.objects?.[action.target] ?? null;
}

/**
 * The action's preflight on the record as it is now: the checks that depend on the written object alone are
 * judged again on it, the rest stand as the diagnosis judged them over the whole cluster.
 */
export function currentPreflight(action: MachineAction, record: NodeRecord, now: number): ActionPreflight | null {
  const judged = (record?.preflight ?? []).find((p) => p.id === action.id);

  if (!judged) {
    return null;
  }
  const fresh = preflightOf(action.id, record, now, []).checks;
  const checks = judged.checks.map((c) => (action.ownChecks.includes(c.id) ? fresh.find((f) => f.id === c.id) ?? c : c));

  return {
    id: action.id, allowed: checks.every((c) => c.ok === true || (c.ok === null && userConfirmable(c))), checks
  };
}

/**
 * Whether the dialog may write: offered by a finding, every check passed (the user's own confirmations given:
 * `confirmed` names them), and the object carries what guards the write. A safety check the engine could not
 * judge refuses, as it makes the engine's preflight refuse: only a permission the input does not tell (the write
 * itself then answers) and what the user confirms may stay unjudged.
 */
export function machineActionEligibility(action: MachineAction, record: NodeRecord, now: number, confirmed: PreflightCheckId[] = []): Eligibility {
  const obj = targetOf(action, record);

  if (!obj || !offeredBy(record, action.id)) {
    return notOffered(`${ action.id }.notOffered`);
  }
  const preflight = currentPreflight(action, record, now);
  const failed = preflight?.checks.find((c) => c.ok === false || (c.ok === null && (!userConfirmable(c) || (c.byUser && !confirmed.includes(c.id)))));

  if (failed) {
    return checkRefusal(failed);
  }
  if (!resourceVersionOf(obj) || !metadataString(obj, 'uid')) {
    return {
      offered: true, allowed: false, reason: { key: 'nodeHealth.actions.reason.noResourceVersion', args: { object: action.label(obj) } }
    };
  }

  return ALLOWED;
}

/** What differs between the object reviewed and the one read again, for the dialog to show. */
function changesOf(action: MachineAction, before: KubeObject, after: KubeObject): Message[] {
  const out: Message[] = [];
  const deleting = [metadataString(before, 'deletionTimestamp'), metadataString(after, 'deletionTimestamp')];

  if (deleting[0] !== deleting[1]) {
    out.push({ key: 'nodeHealth.actions.change.deletion', args: { before: deleting[0] ?? '-', after: deleting[1] ?? '-' } });
  }
  if (resourceVersionOf(before) !== resourceVersionOf(after)) {
    out.push({ key: 'nodeHealth.actions.change.resourceVersion', args: { before: resourceVersionOf(before) ?? '-', after: resourceVersionOf(after) ?? '-' } });
  }

  return out;
}

/**
 * The object read again at confirmation: unchanged only when it is the very object reviewed, at the same
 * resourceVersion, and the action is still allowed on it. A changed object is shown to the user again; nothing
 * about it was reviewed.
 */
export function recheckMachineAction(
  action: MachineAction, record: NodeRecord, reviewed: KubeObject, fresh: KubeObject, now: number, confirmed: PreflightCheckId[]
): Recheck {
  if (isReplacement(reviewed, fresh)) {
    return { verdict: 'replaced' };
  }
  const eligibility = machineActionEligibility(action, withTarget(action, record, fresh), now, confirmed);
  const changes = changesOf(action, reviewed, fresh);

  if (eligibility.allowed && !changes.length) {
    return { verdict: 'unchanged' };
  }

  return { verdict: 'changed', changes: eligibility.reason && !eligibility.allowed ? [eligibility.reason, ...changes] : changes };
}

export function withTarget(action: MachineAction, record: NodeRecord, obj: KubeObject): NodeRecord {
  return { ...record, objects: { ...record.objects, [action.target]: obj } };
}

/** The confirmed action: the object is read again, judged, and written only if it is still what was reviewed. */
export async function runMachineAction(
  store: StoreLike, action: MachineAction, record: NodeRecord, reviewed: KubeObject, context: ActionContext, confirmed: PreflightCheckId[]
): Promise<ConfirmedWrite> {
  const target = action.label(reviewed);
  const read = await readAgain(store, reviewed, action.steveType(reviewed));

  if ('failure' in read) {
    return read.failure.kind === 'gone' ? gone(context, action.id, target, 'machine', read.failure) : unreadable(context, action.id, target, read.failure);
  }
  const now = context.now ? context.now() : Date.now();
  const recheck = recheckMachineAction(action, record, reviewed, read.object, now, confirmed);

  if (recheck.verdict !== 'unchanged') {
    const unwritten = notWritten(context, action.id, target, recheck, { machine: action.target === 'machine' ? read.object : null, bootstrap: null });

    return unwritten.state === 'changed' ? { ...unwritten, object: read.object } : unwritten;
  }
  const outcome: ActionOutcome = await runWrite(store, context, action.id, target, action.write(read.object), action.done(read.object), read.object);

  return { state: 'written', outcome };
}

/** The infrastructure machine a record's Machine names, as the dialog describes it before it was read. */
export function infraNameOf(record: NodeRecord): string | null {
  const m = record?.objects?.machine;

  return (m ? infrastructureRef(m)?.name : null) ?? (metadata(record?.objects?.infraMachine).name as string | undefined) ?? null;
}
