/**
 * Every action a finding can offer, in one place: the object it writes (whose permission decides whether the
 * row detail offers it), the dialog that opens it, and the name the action log keeps for it. The tab opens an
 * action through its entry here and the row detail asks its entry who may run it, so adding an action means
 * an entry here, its module (patch, eligibility, write), its dialog and its translations
 * (`nodeHealth.tab.actions.<id>`, `nodeHealth.actions.name.<log name>`).
 */
import type { ActionId, ClusterInfo, Finding, NodeRecord } from '../engine';
import { canRemove, canUpdate } from './finalizers';
import {
  openEtcdForceRemove, openMachineAction, openRegistrationCommand, openRemoveFinalizers, MACHINE_ACTION_DIALOG, REGISTRATION_COMMAND_DIALOG,
  REMOVE_FINALIZERS_DIALOG
} from './open';
import type { RegistrationClusterRef } from './open';
import type { ActionContext, StoreLike } from './types';

/** How the action log names an action (kept as it was: logs already written use these names). */
export type ActionLogName = 'remove-finalizers' | 'etcd-force-remove' | 'copy-registration-command' | 'force-delete' | 'delete-machine' | 'resume-machine';

/**
 * The record's object the user must be allowed to update for an action: the one it writes, or for the
 * registration command the provisioning cluster, since Rancher gives its registration token only to who may
 * update the cluster (registration-access.ts).
 */
export type ActionTarget = 'machine' | 'bootstrap' | 'cluster' | 'infraMachine';

/** What the tab hands an action's opener. */
export interface ActionInvocation {
  record: NodeRecord;
  context: ActionContext;
  /** The cluster the record belongs to, as the registration command names it */
  cluster: ClusterInfo | RegistrationClusterRef | Record<string, any>;
  /** Set where nothing may be done (a bundle served as a cluster): the reason, as actionOffers gives it; nothing opens */
  readOnlyKey?: string | null;
}

export interface ActionEntry {
  /** The object the user must be allowed to change; null when the action needs no permission (it only shows something) */
  target: ActionTarget | null;
  /** What the user must be allowed to do to it: update it (the default), or delete it */
  permission?: 'update' | 'remove';
  /** Its dialog: the file name in ../dialog/ that the shell's modal opens */
  dialog: string;
  logName: ActionLogName;
  open(store: StoreLike, invocation: ActionInvocation): Promise<void>;
}

export const ACTION_CATALOGUE: Readonly<Record<ActionId, ActionEntry>> = {
  'remove-finalizers': {
    target:  'machine',
    dialog:  REMOVE_FINALIZERS_DIALOG,
    logName: 'remove-finalizers',
    open:    (store, { record, context }) => openRemoveFinalizers(store, record, context),
  },
  'etcd-force-remove': {
    target:  'bootstrap',
    dialog:  REMOVE_FINALIZERS_DIALOG,
    logName: 'etcd-force-remove',
    open:    (store, { record, context }) => openEtcdForceRemove(store, record, context),
  },
  're-register': {
    target:  'cluster',
    dialog:  REGISTRATION_COMMAND_DIALOG,
    logName: 'copy-registration-command',
    open:    (store, { record, context, cluster }) => openRegistrationCommand(store, cluster, record, { clusterId: context.clusterId, user: context.user }, record.objects.cluster),
  },
  'force-delete': {
    target:  'infraMachine',
    dialog:  MACHINE_ACTION_DIALOG,
    logName: 'force-delete',
    open:    (store, { record, context }) => openMachineAction(store, 'force-delete', record, context),
  },
  'delete-machine': {
    target:     'machine',
    permission: 'remove',
    dialog:     MACHINE_ACTION_DIALOG,
    logName:    'delete-machine',
    open:       (store, { record, context }) => openMachineAction(store, 'delete-machine', record, context),
  },
  'resume-machine': {
    target:  'machine',
    dialog:  MACHINE_ACTION_DIALOG,
    logName: 'resume-machine',
    open:    (store, { record, context }) => openMachineAction(store, 'resume-machine', record, context),
  },
};

export const ACTION_IDS = Object.keys(ACTION_CATALOGUE) as ActionId[];

export const ACTION_LOG_NAMES: ActionLogName[] = ACTION_IDS.map((id) => ACTION_CATALOGUE[id].logName);

/** The catalogue's entry of an id that came from outside the type system (an event, a stored value). */
export function actionEntry(id: string): ActionEntry | null {
  return Object.prototype.hasOwnProperty.call(ACTION_CATALOGUE, id) ? ACTION_CATALOGUE[id as ActionId] : null;
}

/** Opens the action's dialog; an id the catalogue does not know opens nothing. */
export function openAction(store: StoreLike, id: string, invocation: ActionInvocation): Promise<void> {
  if (invocation.readOnlyKey) {
    return Promise.resolve();
  }

  return actionEntry(id)?.open(store, invocation) ?? Promise.resolve();
}

export interface ActionOffer {
  id: ActionId;
  /** false: the button is hidden and `reasonKey` says why */
  allowed: boolean;
  reasonKey: string | null;
}

/**
 * Whether the row detail shows a finding's actions: an action needs its target object read and the user's
 * permission to update it (Steve drops `links.update` where not allowed); one without a target is always shown.
 * `readOnlyKey`: nothing may be done in this view (a bundle served as a cluster), every action is refused with
 * that reason, the registration command too.
 */
export function actionOffers(finding: Pick<Finding, 'actions'>, record: NodeRecord, readOnlyKey: string | null = null): ActionOffer[] {
  return finding.actions.map((id) => {
    const entry = actionEntry(id);
    const target = entry?.target ?? null;

    if (readOnlyKey) {
      return {
        id, allowed: false, reasonKey: readOnlyKey
      };
    }
    if (!target) {
      return {
        id, allowed: true, reasonKey: null
      };
    }
    const obj = record.objects[target];

    if (!obj) {
      return {
        id, allowed: false, reasonKey: `nodeHealth.tab.actions.notLoaded.${ target }`
      };
    }

    const remove = entry?.permission === 'remove';

    return (remove ? canRemove(obj) : canUpdate(obj)) ? {
      id, allowed: true, reasonKey: null
    } : {
      id, allowed: false, reasonKey: `nodeHealth.tab.actions.${ remove ? 'noDeletePermission' : 'noPermission' }.${ target }`
    };
  });
}
