/**
 * The writes and reads behind the dialogs, through the dashboard store (never a bare HTTP client), with
 * the outcome recorded in the action log. No Vue: the dialogs present what these return.
 */
import type { ActionId, KubeObject, NodeRecord } from '../engine';
import { readRegistrationToken, isTokenError } from '../registration';
import type { RegistrationOptions, RegistrationToken, TokenReadError } from '../registration';
import { recordAction } from './action-log';
import { auditDetail, recordAuditEvent } from './audit-event';
import type { AuditResult } from './audit-event';
import { ACTION_CATALOGUE } from './catalogue';
import type { ActionLogEntry } from './action-log';
import { describeActionError, failureDetail } from './errors';
import type { ActionFailure } from './errors';
import {
  buildFinalizerRemovalPatch, describeTarget, finalizersOf, objectUrls, recheckFinalizerRemoval, MACHINE_TYPE
} from './finalizers';
import type { Recheck } from './finalizers';
import type { RegistrationAccess } from './registration-access';
import type {
  ActionContext, ActionResult, JsonPatchOperation, Message, StoreLike
} from './types';

export const JSON_PATCH_CONTENT_TYPE = 'application/json-patch+json';
export const REGISTRATION_TOKENS_URL = '/v3/clusterregistrationtokens';

/**
 * Sends a JSON Patch. `redirectUnauthorized: false` keeps the store from logging the user out on a 401
 * in the middle of the dialog: the dialog says the session ended and that nothing was changed.
 */
export function sendJsonPatch(store: StoreLike, url: string, patch: JsonPatchOperation[]): Promise<any> {
  return store.dispatch('management/request', {
    url,
    method:               'PATCH',
    headers:              { 'content-type': JSON_PATCH_CONTENT_TYPE },
    data:                 patch,
    redirectUnauthorized: false,
  });
}

export interface ActionOutcome {
  result: ActionResult;
  /** Set unless the write succeeded */
  failure: ActionFailure | null;
  /** What went into the action log */
  entry: ActionLogEntry;
  /** The object as the server returned it after a successful write */
  updated: KubeObject | null;
}

/** One write: a guarded JSON Patch, or a DELETE whose body carries the preconditions the API server checks. */
export type WriteRequest =
  | { method: 'PATCH'; url: string; patch: JsonPatchOperation[] }
  | { method: 'DELETE'; url: string; body: Record<string, unknown> };

function send(store: StoreLike, write: WriteRequest): Promise<any> {
  if (write.method === 'PATCH') {
    return sendJsonPatch(store, write.url, write.patch);
  }

  return store.dispatch('management/request', {
    url:                  write.url,
    method:               'DELETE',
    headers:              { 'content-type': 'application/json' },
    data:                 write.body,
    redirectUnauthorized: false,
  });
}

/**
 * Sends the write and logs it; once it succeeded, the object it changed gets an audit Event (`object`, as
 * reviewed: the Event names its uid) saying `successDetail`.
 */
export async function runWrite(
  store: StoreLike, context: ActionContext, action: WriteAction, target: string, write: WriteRequest, successDetail: string, object: KubeObject
): Promise<ActionOutcome> {
  let failure: ActionFailure | null = null;
  let updated: KubeObject | null = null;

  try {
    const response = await send(store, write);

    updated = response && typeof response === 'object' ? response : null;
  } catch (err) {
    failure = describeActionError(err);
  }
  const result: ActionResult = failure ? failure.result : 'succeeded';
  const audit = failure ? null : await recordAuditEvent(store, object, action, {
    user: context.user, what: successDetail, why: context.why
  });
  const entry = recordAction({
    user:    context.user,
    cluster: context.clusterId,
    action:  ACTION_CATALOGUE[action].logName,
    target,
    result,
    detail:  failure ? failureDetail(failure) : `${ successDetail }; ${ auditDetail(audit as AuditResult) }`,
  });

  if (!failure || failure.countsAsDone) {
    context.onDone();
  }

  return {
    result, failure, entry, updated
  };
}

/** Removes the Machine's finalizers, guarded by the resourceVersion and finalizer list the user reviewed. */
export function removeMachineFinalizers(store: StoreLike, machine: KubeObject, context: ActionContext): Promise<ActionOutcome> {
  const patch = buildFinalizerRemovalPatch(machine);

  return runWrite(store, context, 'remove-finalizers', describeTarget('Machine', machine), {
    method: 'PATCH', url: objectUrls(machine, MACHINE_TYPE).write, patch
  },
  `removed the finalizers ${ finalizersOf(machine).join(', ') }`, machine);
}

export type ReloadResult =
  | { state: 'found'; object: KubeObject }
  | { state: 'gone' }
  | { state: 'failed'; failure: ActionFailure };

/** Reads an object again through its Steve link; the dashboard store's request, never a bare HTTP client. */
export async function readAgain(store: StoreLike, obj: KubeObject, steveType: string): Promise<{ object: KubeObject } | { failure: ActionFailure }> {
  try {
    const object = await store.dispatch('management/request', {
      url: objectUrls(obj, steveType).read, method: 'GET', redirectUnauthorized: false
    });

    return object && typeof object === 'object' ? { object } : { failure: describeActionError({ message: 'the object read again is empty' }) };
  } catch (err) {
    return { failure: describeActionError(err) };
  }
}

/** Reads the object again, for "review again" after a conflict. */
export async function reloadObject(store: StoreLike, obj: KubeObject, steveType: string = MACHINE_TYPE): Promise<ReloadResult> {
  const read = await readAgain(store, obj, steveType);

  if ('object' in read) {
    return { state: 'found', object: read.object };
  }

  return read.failure.kind === 'gone' ? { state: 'gone' } : { state: 'failed', failure: read.failure };
}

/**
 * A confirmed action, read again first. `written`: the objects were still what the user reviewed and the
 * write was sent (its own outcome says how it went). Every other state sent no write: the object is gone,
 * another Machine took the name, what was reviewed changed (the fresh objects are given for the dialog to
 * show), or the read failed.
 */
export type ConfirmedWrite =
  | { state: 'written'; outcome: ActionOutcome }
  | { state: 'gone'; which: 'machine' | 'bootstrap'; failure: ActionFailure; entry: ActionLogEntry }
  | { state: 'replaced'; entry: ActionLogEntry }
  | { state: 'changed'; changes: Message[]; machine: KubeObject | null; bootstrap: KubeObject | null; object?: KubeObject; entry: ActionLogEntry }
  | { state: 'unreadable'; failure: ActionFailure; entry: ActionLogEntry };

/** The actions that write to the cluster. */
export type WriteAction = Exclude<ActionId, 're-register'>;

function logUnwritten(context: ActionContext, action: WriteAction, target: string, result: ActionResult, detail: string): ActionLogEntry {
  return recordAction({
    user: context.user, cluster: context.clusterId, action: ACTION_CATALOGUE[action].logName, target, result, detail
  });
}

/**
 * A read that failed before the write: nothing was sent, whatever the status, so the message says so
 * rather than the write's "not certain whether the change was applied".
 */
export function unreadable(context: ActionContext, action: WriteAction, target: string, failure: ActionFailure): ConfirmedWrite {
  const group = failure.kind === 'unauthorized' || failure.kind === 'forbidden' || failure.kind === 'network' ? failure.kind : 'failed';

  return {
    state:   'unreadable',
    failure: {
      ...failure,
      message:        { key: `nodeHealth.actions.reread.${ group }`, args: { object: target, status: failure.status ?? '-' } },
      nothingChanged: true,
      offerReview:    group === 'failed' || group === 'network',
      countsAsDone:   false,
    },
    entry: logUnwritten(context, action, target, 'failed', `${ failureDetail(failure) } reading it again; nothing sent`),
  };
}

export function gone(context: ActionContext, action: WriteAction, target: string, which: 'machine' | 'bootstrap', failure: ActionFailure): ConfirmedWrite {
  const entry = logUnwritten(context, action, target, 'already-gone', `${ failureDetail(failure) } reading it again; nothing sent`);

  context.onDone();

  return {
    state: 'gone', which, failure, entry
  };
}

export function notWritten(
  context: ActionContext, action: WriteAction, target: string, recheck: Exclude<Recheck, { verdict: 'unchanged' }>,
  fresh: { machine: KubeObject | null; bootstrap: KubeObject | null }
): ConfirmedWrite {
  const entry = logUnwritten(context, action, target, 'conflict',
    recheck.verdict === 'replaced' ? 'another object under the reviewed name; nothing sent' : 'changed since the review; nothing sent');

  // The tab shows what it read before; it reads the changed objects again.
  context.onDone();

  return recheck.verdict === 'replaced' ? { state: 'replaced', entry } : {
    state: 'changed', changes: recheck.changes, entry, ...fresh
  };
}

/**
 * The finalizer removal as confirmed in the dialog: reads the Machine again, judges it with the eligibility
 * that offered the removal, and writes only if it is still the Machine reviewed, deleting since the same
 * moment, with the finalizers shown; the patch then carries the fresh resourceVersion.
 */
export async function removeFinalizersIfUnchanged(
  store: StoreLike, record: NodeRecord, reviewed: KubeObject, context: ActionContext
): Promise<ConfirmedWrite> {
  const action = 'remove-finalizers';
  const target = describeTarget('Machine', reviewed);
  const read = await readAgain(store, reviewed, MACHINE_TYPE);

  if ('failure' in read) {
    return read.failure.kind === 'gone' ? gone(context, action, target, 'machine', read.failure) : unreadable(context, action, target, read.failure);
  }
  const recheck = recheckFinalizerRemoval(record, reviewed, read.object);

  if (recheck.verdict !== 'unchanged') {
    return notWritten(context, action, target, recheck, { machine: read.object, bootstrap: null });
  }

  return { state: 'written', outcome: await removeMachineFinalizers(store, read.object, context) };
}

export type TokenLoad =
  | { state: 'ready'; token: RegistrationToken }
  /** The list was readable and holds no token of this cluster (or none this user may see) */
  | { state: 'none' }
  /** Rancher refused to list the tokens: not the same as an empty list */
  | { state: 'forbidden'; failure: ActionFailure }
  /** A token exists but holds no usable command */
  | { state: 'unusable'; error: TokenReadError }
  | { state: 'failed'; failure: ActionFailure }
  | { state: 'noCluster' }
  /** The user may not be given the token (registration-access.ts): it was not asked for */
  | { state: 'notAllowed'; reason: Extract<RegistrationAccess, { allowed: false }>['reason'] };

/**
 * The cluster's registration token from Norman, as Rancher's own Registration tab reads it; only for a user
 * `access` allows, and otherwise without a request.
 */
export async function loadRegistrationToken(store: StoreLike, mgmtId: string | null | undefined, access: RegistrationAccess): Promise<TokenLoad> {
  if (!access.allowed) {
    return { state: 'notAllowed', reason: access.reason };
  }
  if (!mgmtId) {
    return { state: 'noCluster' };
  }
  let response: unknown;

  try {
    response = await store.dispatch('management/request', {
      url:                  `${ REGISTRATION_TOKENS_URL }?clusterId=${ encodeURIComponent(mgmtId) }`,
      method:               'GET',
      redirectUnauthorized: false,
    });
  } catch (err) {
    const failure = describeActionError(err);

    return failure.kind === 'forbidden' || failure.kind === 'unauthorized' ? { state: 'forbidden', failure } : { state: 'failed', failure };
  }
  const token = readRegistrationToken(response, { clusterId: mgmtId });

  if (isTokenError(token)) {
    return ['noTokens', 'clusterNotFound'].includes(token.error.code) ? { state: 'none' } : { state: 'unusable', error: token.error };
  }

  return { state: 'ready', token };
}

/**
 * Logs that a registration command was handed out: which cluster, node and options, never the command
 * or its token.
 */
export function recordRegistrationCopy(
  context: Pick<ActionContext, 'clusterId' | 'user'>, mgmtId: string, options: RegistrationOptions, how: 'clipboard' | 'selected'
): ActionLogEntry {
  const roles = options.os === 'windows' ? ['worker'] : options.roles;
  const parts = [
    `os=${ options.os }`,
    `roles=${ roles.join(',') || '-' }`,
    ...(options.nodeName ? [`node=${ options.nodeName.toLowerCase() }`] : []),
    ...(options.insecure ? ['insecure'] : []),
    how === 'clipboard' ? 'copied to the clipboard' : 'selected for copying by hand',
  ];

  return recordAction({
    user:    context.user,
    cluster: context.clusterId,
    action:  ACTION_CATALOGUE['re-register'].logName,
    target:  `Cluster ${ mgmtId }`,
    result:  'succeeded',
    detail:  parts.join(' '),
  });
}
