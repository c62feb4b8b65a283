/**
 * The writes and reads behind the dialogs, through the dashboard store (never a bare HTTP client), with
 * the outcome recorded in the action log. No Vue: the dialogs present what these return.
 */
import type { KubeObject } from '../engine';
import { readRegistrationToken, isTokenError } from '../registration';
import type { RegistrationOptions, RegistrationToken, TokenReadError } from '../registration';
import { recordAction } from './action-log';
import type { ActionLogEntry } from './action-log';
import { describeActionError, failureDetail } from './errors';
import type { ActionFailure } from './errors';
import {
  buildEtcdForceRemovePatch, buildFinalizerRemovalPatch, describeTarget, finalizersOf, objectUrls, BOOTSTRAP_TYPE, MACHINE_TYPE
} from './finalizers';
import type { ActionContext, ActionResult, JsonPatchOperation, StoreLike } from './types';

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

async function runPatch(
  store: StoreLike, context: ActionContext, action: 'remove-finalizers' | 'etcd-force-remove', target: string,
  url: string, patch: JsonPatchOperation[], successDetail: string
): Promise<ActionOutcome> {
  let failure: ActionFailure | null = null;
  let updated: KubeObject | null = null;

  try {
    const response = await sendJsonPatch(store, url, patch);

    updated = response && typeof response === 'object' ? response : null;
  } catch (err) {
    failure = describeActionError(err);
  }
  const result: ActionResult = failure ? failure.result : 'succeeded';
  const entry = recordAction({
    user:    context.user,
    cluster: context.clusterId,
    action,
    target,
    result,
    detail:  failure ? failureDetail(failure) : successDetail,
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

  return runPatch(store, context, 'remove-finalizers', describeTarget('Machine', machine), objectUrls(machine, MACHINE_TYPE).write, patch,
    `removed ${ finalizersOf(machine).join(', ') }`);
}

/** Annotates the RKEBootstrap so Rancher stops waiting for the etcd member's removal. */
export function releaseEtcdMember(store: StoreLike, bootstrap: KubeObject, context: ActionContext): Promise<ActionOutcome> {
  const patch = buildEtcdForceRemovePatch(bootstrap);

  return runPatch(store, context, 'etcd-force-remove', describeTarget('RKEBootstrap', bootstrap), objectUrls(bootstrap, BOOTSTRAP_TYPE).write, patch,
    'rke.cattle.io/etcd-force-remove=true');
}

export type ReloadResult =
  | { state: 'found'; object: KubeObject }
  | { state: 'gone' }
  | { state: 'failed'; failure: ActionFailure };

/** Reads the object again, for "review again" after a conflict. */
export async function reloadObject(store: StoreLike, obj: KubeObject, steveType: string = MACHINE_TYPE): Promise<ReloadResult> {
  try {
    const object = await store.dispatch('management/request', {
      url: objectUrls(obj, steveType).read, method: 'GET', redirectUnauthorized: false
    });

    return { state: 'found', object };
  } catch (err) {
    const failure = describeActionError(err);

    return failure.kind === 'gone' ? { state: 'gone' } : { state: 'failed', failure };
  }
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
  | { state: 'noCluster' };

/** The cluster's registration token from Norman, as Rancher's own Registration tab reads it. */
export async function loadRegistrationToken(store: StoreLike, mgmtId: string | null | undefined): Promise<TokenLoad> {
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
    action:  'copy-registration-command',
    target:  `Cluster ${ mgmtId }`,
    result:  'succeeded',
    detail:  parts.join(' '),
  });
}
