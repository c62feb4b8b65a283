/**
 * Builders for the objects Rancher keeps about a node of a provisioned cluster, in the shape `kubectl get -o json`
 * prints them, one module per kind of object. Low-level builders take explicit fields; `buildNode` and
 * `buildCluster` (composite.ts) derive a consistent set (conditions, plan data, join keys) from a few knobs that
 * say what is wrong with a node.
 */
export {
  DEFAULT_SECRET_MARKER, DEFAULT_NAMESPACE, DEFAULT_SERVER_URL, CAPI_V1BETA1, CAPI_V1BETA2, MACHINE_FINALIZER,
  PRE_TERMINATE_HOOK_ANNOTATION, ETCD_FORCE_REMOVE_ANNOTATION, MACHINE_UID_LABEL, MACHINE_PLAN_SECRET_TYPE,
  PLAN_APPLY_ERROR_MESSAGE, NO_AGENT_MESSAGE, WAITING_PLAN_MESSAGE, FAILED_PLAN_MESSAGE,
  SENSITIVE_PLAN_SECRET_KEYS, uidFor, runtimeOf, canaryValues
} from './common';
export type { Roles, OperatingSystem } from './common';
export * from './machine';
export * from './plan-secret';
export * from './bootstrap';
export * from './infrastructure';
export * from './agent';
export * from './node';
export * from './management-node';
export * from './cluster';
export * from './registration';
export * from './composite';
export * from './capi';
export * from './history';
