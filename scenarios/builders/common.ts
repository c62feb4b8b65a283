/**
 * The pieces every builder shares: the scenarios' constants, object metadata with stable uids and
 * resource versions, role labels, and the canary values no output may contain.
 *
 * No Node built-ins in these builders: the same code runs in jest, the browser and under tsx.
 */

import { stableInt, stableUid } from '../random';
import { KubeObject, Labels, ObjectMeta, OwnerReference } from '../types';

export const DEFAULT_SECRET_MARKER = 'SECRET-VALUE';
export const DEFAULT_NAMESPACE = 'fleet-default';
export const DEFAULT_SERVER_URL = 'https://rancher.example.com';

export const CAPI_V1BETA1 = 'cluster.x-k8s.io/v1beta1';
export const CAPI_V1BETA2 = 'cluster.x-k8s.io/v1beta2';
export const MACHINE_FINALIZER = 'machine.cluster.x-k8s.io';
export const PRE_TERMINATE_HOOK_ANNOTATION = 'pre-terminate.delete.hook.machine.cluster.x-k8s.io/rke-bootstrap-cleanup';
export const ETCD_FORCE_REMOVE_ANNOTATION = 'rke.cattle.io/etcd-force-remove';
export const MACHINE_UID_LABEL = 'rke.cattle.io/machine';
export const MACHINE_PLAN_SECRET_TYPE = 'rke.cattle.io/machine-plan';
export const PLAN_APPLY_ERROR_MESSAGE = 'error applying plan -- check rancher-system-agent.service logs on node for more information';
export const NO_AGENT_MESSAGE = 'waiting for agent to check in and apply initial plan';
export const WAITING_PLAN_MESSAGE = 'waiting for plan to be applied';
export const FAILED_PLAN_MESSAGE = 'failure while applying plan';

/** Plan-secret data keys whose values are secret (join tokens, certificates, command output). */
export const SENSITIVE_PLAN_SECRET_KEYS: readonly string[] = [
  'plan', 'appliedPlan', 'applied-output', 'applied-periodic-output', 'failed-output',
];

export interface Roles {
  etcd?: boolean;
  controlPlane?: boolean;
  worker?: boolean;
}

export type OperatingSystem = 'linux' | 'windows';

function hasKeys(o: object): boolean {
  return Object.keys(o).length > 0;
}

function resourceVersionFor(key: string): string {
  return String(stableInt(`rv:${ key }`, 100000, 9999999));
}

export function meta(kind: string, o: {
  name: string; namespace?: string; createdAt: string; uid?: string; labels?: Labels; annotations?: Labels;
  finalizers?: string[]; ownerReferences?: OwnerReference[]; deletionTimestamp?: string; generation?: number;
  generateName?: string;
}): ObjectMeta {
  const key = `${ kind }/${ o.namespace ?? '' }/${ o.name }`;
  // field order as the API server writes ObjectMeta; callers hand over fresh objects, used as they are
  const m = { name: o.name } as ObjectMeta;

  if (o.generateName) m.generateName = o.generateName;
  if (o.namespace) m.namespace = o.namespace;
  m.uid = o.uid ?? cachedUid(key);
  m.resourceVersion = resourceVersionFor(key);
  if (o.generation !== undefined) m.generation = o.generation;
  m.creationTimestamp = o.createdAt;
  if (o.deletionTimestamp) {
    m.deletionTimestamp = o.deletionTimestamp;
    m.deletionGracePeriodSeconds = 0;
  }
  if (o.labels && hasKeys(o.labels)) m.labels = o.labels;
  if (o.annotations && hasKeys(o.annotations)) m.annotations = o.annotations;
  if (o.ownerReferences && o.ownerReferences.length) m.ownerReferences = o.ownerReferences;
  if (o.finalizers && o.finalizers.length) m.finalizers = o.finalizers;

  return m;
}

/** Stable uid for an object of `kind` named `name` in `namespace`, the same one the builders use. */
export function uidFor(kind: string, namespace: string | undefined, name: string): string {
  return cachedUid(`${ kind }/${ namespace ?? '' }/${ name }`);
}

// A node's objects refer to each other's uids several times over; a small cache saves the rehashing.
const recentUids = new Map<string, string>();

function cachedUid(key: string): string {
  let uid = recentUids.get(key);

  if (uid === undefined) {
    if (recentUids.size >= 1024) recentUids.clear();
    uid = stableUid(key);
    recentUids.set(key, uid);
  }

  return uid;
}

export function roleLabels(roles: Roles): Labels {
  const labels: Labels = {};

  if (roles.etcd) labels['rke.cattle.io/etcd-role'] = 'true';
  if (roles.controlPlane) {
    labels['rke.cattle.io/control-plane-role'] = 'true';
  }
  if (roles.worker) labels['rke.cattle.io/worker-role'] = 'true';

  return labels;
}

export function runtimeOf(kubernetesVersion: string): 'k3s' | 'rke2' {
  return kubernetesVersion.includes('k3s') ? 'k3s' : 'rke2';
}

/* ------------------------------------------------------------------------------------------------ */
/* CAPI Machine                                                                                      */
/* ------------------------------------------------------------------------------------------------ */

export function dropUndefined<T extends object>(o: T): T {
  const out = {} as T;

  for (const [k, v] of Object.entries(o)) {
    if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  }

  return out;
}

/** Values that must never appear in any output: the marker and each raw sensitive value. */
export function canaryValues(objects: KubeObject[], secretMarker = DEFAULT_SECRET_MARKER): string[] {
  const values = new Set<string>([secretMarker]);

  for (const o of objects) {
    if (o.kind === 'Secret' && o.data && typeof o.data === 'object') {
      const data = o.data as Record<string, string>;
      const sensitiveKeys = o.type === MACHINE_PLAN_SECRET_TYPE ? SENSITIVE_PLAN_SECRET_KEYS : Object.keys(data).filter((k) => k !== 'namespace');

      for (const k of sensitiveKeys) {
        if (data[k]) values.add(data[k]);
      }
    }
    if (o.kind === 'ClusterRegistrationToken') {
      const token = (o.status as { token?: string } | undefined)?.token;

      if (token) values.add(token);
    }
  }

  return [...values];
}
