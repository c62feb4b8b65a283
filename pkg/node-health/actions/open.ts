/**
 * Opens the action dialogs through the shell's modal (`management/promptModal`). The shell finds the
 * component by file name among the extension's dialog/ folder. Everything a dialog needs goes in
 * `resources`, the one channel every Rancher version's PromptModal passes on.
 */
import type { PropType } from 'vue';
import type { ActionId, ClusterInfo, NodeRecord } from '../engine';
import type { ActionContext, StoreLike } from './types';
import { registrationAccess } from './registration-access';
import type { RegistrationAccess } from './registration-access';

export const REMOVE_FINALIZERS_DIALOG = 'RemoveFinalizersDialog';
export const REGISTRATION_COMMAND_DIALOG = 'RegistrationCommandDialog';
export const MACHINE_ACTION_DIALOG = 'MachineActionDialog';

/** The props the shell's PromptModal gives every dialog: the request as `resources[0]`, and a close hook. */
export const DIALOG_PROPS = {
  /** [the dialog's request], as PromptModal passes the modal's resources */
  resources: {
    type:    Array as PropType<unknown[]>,
    default: () => []
  },
  /** Lets the dialog hear about a close by Escape or a click outside */
  registerBackgroundClosing: {
    type:    Function as PropType<(fn: () => void) => void>,
    default: null
  },
} as const;

/** What RemoveFinalizersDialog receives as `resources[0]`. */
export interface RemoveFinalizersRequest {
  record: NodeRecord;
  context: ActionContext;
  /** Opened from the etcd finding: the dialog starts at the designed release */
  focus: 'finalizers' | 'etcd';
}

/** What MachineActionDialog receives as `resources[0]`: Force Delete, Delete or Resume for this record. */
export interface MachineActionRequest {
  action: ActionId;
  record: NodeRecord;
  context: ActionContext;
}

/** The cluster a registration command is for; an engine ClusterInfo or a provisioning cluster model fits. */
export interface RegistrationClusterRef {
  mgmtId: string | null;
  name: string;
  namespace?: string | null;
}

/** What RegistrationCommandDialog receives as `resources[0]`. */
export interface RegistrationCommandRequest {
  cluster: RegistrationClusterRef;
  /** Set for "Re-register this node": prefills the options from this record */
  record: NodeRecord | null;
  context: Pick<ActionContext, 'clusterId' | 'user'>;
  /** Whether the user may be given the cluster's registration token; decided before the dialog asks for it */
  access: RegistrationAccess;
}

/** The signed-in user's name as the header shows it: the principal's login name, else its id. */
export function currentUserName(store: StoreLike): string {
  const getters = store?.getters ?? {};
  const principalId = getters['auth/principalId'];
  let principal: Record<string, any> | null = null;

  try {
    principal = principalId && typeof getters['rancher/byId'] === 'function' ? getters['rancher/byId']('principal', principalId) : null;
  } catch {
    principal = null;
  }
  const v3User = getters['auth/v3User'] ?? {};
  const candidates = [principal?.loginName, principal?.name, v3User.username, v3User.name, principalId];

  return candidates.find((c): c is string => typeof c === 'string' && c !== '') ?? 'unknown';
}

/** Accepts ClusterInfo ({ mgmtId, name }) or a provisioning cluster model ({ mgmtClusterId, status.clusterName }). */
export function toClusterRef(cluster: unknown): RegistrationClusterRef {
  const c = (cluster ?? {}) as Record<string, any>;
  const mgmtId = [c.mgmtId, c.mgmtClusterId, c.status?.clusterName].find((v) => typeof v === 'string' && v !== '') ?? null;
  const name = [c.name, c.metadata?.name, c.nameDisplay, mgmtId].find((v) => typeof v === 'string' && v !== '') ?? '?';
  const namespace = [c.namespace, c.metadata?.namespace].find((v) => typeof v === 'string' && v !== '') ?? null;

  return {
    mgmtId, name, namespace
  };
}

function openFinalizerDialog(store: StoreLike, request: RemoveFinalizersRequest): Promise<void> {
  return store.dispatch('management/promptModal', {
    component:  REMOVE_FINALIZERS_DIALOG,
    resources:  [request],
    modalWidth: '760px',
    testId:     'node-health-remove-finalizers-modal',
  });
}

export function openRemoveFinalizers(store: StoreLike, record: NodeRecord, context: ActionContext): Promise<void> {
  return openFinalizerDialog(store, {
    record, context, focus: 'finalizers'
  });
}

/**
 * The etcd release lives in the same dialog as the finalizer cleanup, because it is the step to take
 * first; from the etcd finding the dialog opens on it.
 */
export function openEtcdForceRemove(store: StoreLike, record: NodeRecord, context: ActionContext): Promise<void> {
  return openFinalizerDialog(store, {
    record, context, focus: 'etcd'
  });
}

/**
 * `provisioning`: the provisioning cluster with its links (Steve's or the store's), whose update link decides
 * whether the user may be given a registration token; without it the dialog asks for none.
 */
export function openRegistrationCommand(
  store: StoreLike, cluster: ClusterInfo | RegistrationClusterRef | Record<string, any>, record: NodeRecord | null,
  context: Partial<Pick<ActionContext, 'clusterId' | 'user'>> | undefined, provisioning: unknown
): Promise<void> {
  const ref = toClusterRef(cluster);
  const request: RegistrationCommandRequest = {
    cluster: ref,
    record:  record ?? null,
    context: {
      clusterId: context?.clusterId || ref.mgmtId || ref.name,
      user:      context?.user || currentUserName(store),
    },
    access: registrationAccess(provisioning),
  };

  return store.dispatch('management/promptModal', {
    component:  REGISTRATION_COMMAND_DIALOG,
    resources:  [request],
    modalWidth: '820px',
    testId:     'node-health-registration-command-modal',
  });
}

export function openMachineAction(store: StoreLike, action: ActionId, record: NodeRecord, context: ActionContext): Promise<void> {
  const request: MachineActionRequest = {
    action, record, context: { ...context, why: context.why ?? record.resolution?.rootCause ?? null }
  };

  return store.dispatch('management/promptModal', {
    component:  MACHINE_ACTION_DIALOG,
    resources:  [request],
    modalWidth: '720px',
    testId:     `node-health-${ action }-modal`,
  });
}

/**
 * The context a dialog acts in: the tab's, with safe defaults, and why the user acts (the record's root cause),
 * which the audit Event of every write carries.
 */
export function dialogContext(ctx: Partial<ActionContext> | undefined, record: NodeRecord): ActionContext {
  return {
    clusterId: ctx?.clusterId ?? record.cluster?.mgmtId ?? record.cluster?.name ?? '-',
    user:      ctx?.user ?? '-',
    onDone:    typeof ctx?.onDone === 'function' ? ctx.onDone : () => undefined,
    now:       ctx?.now,
    why:       ctx?.why ?? record.resolution?.rootCause ?? null,
  };
}
