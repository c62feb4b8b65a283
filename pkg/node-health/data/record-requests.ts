/**
 * The Steve requests of one record's load (record-load.ts): the record tab on a Machine's or a Node's page reads
 * that record's own objects and the few others its diagnosis needs, each list narrowed by a selector, never the
 * cluster's whole lists. Every request is a PlannedRequest as the cluster's (same fields, same access review),
 * with a selector in the form Steve's mode honours (requests.ts): `labelSelector`/`fieldSelector` without the SQL
 * cache, `filter=` with it. Steve's `filter` matches parts of a value in some modes, so every answer is checked
 * against the same selector again (`keep`).
 */
import {
  LABELS, STEVE_TYPES, label, nameOf, statusOverdue
} from '../engine';
import type { InputName, KubeObject } from '../engine';
import {
  MGMT_NODE_LEFT_OUT_PATHS, collection, fieldsOf, leasesAccess, leasesPath, leasesRequest, localAccess, path, planSecretParams, queryString, infraType
} from './requests';
import type { InfraKind, ListForm, Param, PlannedRequest } from './requests';
import type { ClusterTarget } from './types';

/** What one scoped request asks for: labels that must all match, a name, and one label that may take any of several values. */
export interface ListSelector {
  labels?: [string, string][];
  name?: string;
  labelIn?: { key: string; values: string[] };
}

export interface ScopedRequest extends PlannedRequest {
  selector: ListSelector;
}

/** The labels the downstream cluster's Nodes carry per role (kubelet's, as RKE2 and K3s set them). */
export const NODE_ROLE_LABELS = {
  etcd:         'node-role.kubernetes.io/etcd',
  controlplane: 'node-role.kubernetes.io/control-plane',
} as const;

/** The selector as request parameters, in the form Steve's mode honours. */
export function selectorParams(selector: ListSelector, form: ListForm): Param[] {
  const labels = selector.labels ?? [];
  const labelIn = selector.labelIn;

  if (form === 'filter') {
    return [
      ...labels.map(([k, v]): Param => ['filter', `metadata.labels[${ k }]=${ v }`]),
      ...(labelIn ? [['filter', labelIn.values.map((v) => `metadata.labels[${ labelIn.key }]=${ v }`).join(',')] as Param] : []),
      ...(selector.name ? [['filter', `metadata.name=${ selector.name }`] as Param] : []),
    ];
  }
  const terms = [...labels.map(([k, v]) => `${ k }=${ v }`), ...(labelIn ? [`${ labelIn.key } in (${ labelIn.values.join(',') })`] : [])];

  return [
    ...(terms.length ? [['labelSelector', terms.join(',')] as Param] : []),
    ...(selector.name ? [['fieldSelector', `metadata.name=${ selector.name }`] as Param] : []),
  ];
}

/** Whether an object is one the selector asks for (exactly: Steve's `filter` may match parts of a value). */
export function matchesSelector(obj: KubeObject, selector: ListSelector): boolean {
  const labelIn = selector.labelIn;

  return (selector.labels ?? []).every(([k, v]) => label(obj, k) === v) &&
    (!selector.name || nameOf(obj) === selector.name) &&
    (!labelIn || labelIn.values.includes(label(obj, labelIn.key) ?? ''));
}

/**
 * What a load keeps of an answer: where the request was narrowed by a selector, only what matches it (Steve's SQL
 * cache ignores label and field selectors); everything otherwise.
 */
export function keptOf(request: PlannedRequest | ScopedRequest): ((items: KubeObject[]) => KubeObject[]) | undefined {
  const selector = 'selector' in request ? request.selector : null;

  return selector ? (items) => items.filter((o) => matchesSelector(o, selector)) : undefined;
}

function scoped(input: InputName, base: string, selector: ListSelector, form: ListForm, fields: Param[], access: PlannedRequest['access'], infra?: InfraKind): ScopedRequest {
  return {
    input, url: `${ base }${ queryString([...selectorParams(selector, form), ...fields]) }`, access, selector, ...(infra ? { infra } : {})
  };
}

function ofCluster(target: ClusterTarget, ...labels: [string, string][]): [string, string][] {
  return [[LABELS.capiClusterName, target.name], ...labels];
}

/** Machines of the cluster: one by name, or those with a label (a role, a pool). */
export function scopedMachines(target: ClusterTarget, form: ListForm, selector: ListSelector): ScopedRequest {
  return scoped('machines', path('v1', collection(STEVE_TYPES.machine), target.namespace), { ...selector, labels: ofCluster(target, ...(selector.labels ?? [])) }, form,
    fieldsOf('machine'), localAccess('cluster.x-k8s.io', 'machines', target.namespace));
}

/** Plan secrets of the cluster with a label (a machine's name, a role): the status keys only, as every plan secret request. */
export function scopedPlanSecrets(target: ClusterTarget, form: ListForm, ...labels: [string, string][]): ScopedRequest {
  return scoped('planSecrets', path('v1', collection(STEVE_TYPES.planSecret), target.namespace), { labels: [[LABELS.rkeClusterName, target.name], ...labels] }, form,
    planSecretParams(form), localAccess('', 'secrets', target.namespace));
}

export function scopedBootstrap(target: ClusterTarget, form: ListForm, name: string): ScopedRequest {
  return scoped('bootstraps', path('v1', collection(STEVE_TYPES.bootstrap), target.namespace), { name }, form,
    fieldsOf('bootstrap'), localAccess('rke.cattle.io', 'rkebootstraps', target.namespace));
}

export function scopedInfraMachine(target: ClusterTarget, form: ListForm, infra: InfraKind, name: string): ScopedRequest {
  return scoped('infraMachines', path('v1', collection(infraType(infra)), target.namespace), { name }, form,
    fieldsOf('infraMachine'), localAccess(infra.group, `${ infra.kind.toLowerCase() }s`, target.namespace), infra);
}

/** One kubelet's Lease, named as its Node; never watched (leasesRequest). */
export function scopedLease(mgmtId: string, form: ListForm, nodeName: string): ScopedRequest {
  return {
    ...scoped('leases', leasesPath(mgmtId), { name: nodeName }, form, fieldsOf('lease'), leasesAccess(mgmtId)),
    unwatched: true,
  };
}

/** More overdue Nodes than this read their namespace's Leases in one list rather than one request each. */
export const MAX_LEASES_BY_NAME = 10;

/**
 * The requests for the Leases of the Nodes whose status is overdue at `now` (engine statusOverdue): none where no
 * status is, one by name each (a stale Node on a cluster of thousands costs one small answer per refresh, not every
 * Lease), the namespace's list where they are many.
 */
export function leaseRequests(mgmtId: string, form: ListForm, nodes: KubeObject[], now: number): (PlannedRequest | ScopedRequest)[] {
  const overdue = nodes.filter((n) => statusOverdue(n, now));

  if (overdue.length > MAX_LEASES_BY_NAME) {
    return [leasesRequest(mgmtId)];
  }

  return overdue.map((n) => scopedLease(mgmtId, form, nameOf(n) as string));
}

/** The downstream cluster's Nodes: one by name, or those with a label (a role, a machine's uid). */
export function scopedNodes(mgmtId: string, form: ListForm, selector: ListSelector): ScopedRequest {
  return scoped('nodes', path('k8s', 'clusters', mgmtId, 'v1', collection(STEVE_TYPES.node)), selector, form, fieldsOf('node', 'status.images'), {
    cluster: mgmtId, group: '', resource: 'nodes'
  });
}

/** Rancher's copy of one downstream Node: labelled with the Node's name. */
export function scopedMgmtNodes(mgmtId: string, form: ListForm, nodeName: string): ScopedRequest {
  return scoped('mgmtNodes', path('v1', collection(STEVE_TYPES.mgmtNode), mgmtId), { labels: [[LABELS.mgmtNodeName, nodeName]] }, form,
    fieldsOf('mgmtNode', ...MGMT_NODE_LEFT_OUT_PATHS), localAccess('management.cattle.io', 'nodes', mgmtId));
}

/**
 * What the cluster's reasoning needs of the others, whatever the record: its etcd and control-plane machines with
 * their plan secrets and Nodes (quorum, the last of a role, the init node, same-host checks among them).
 */
export function roleContextRequests(target: ClusterTarget, form: ListForm): ScopedRequest[] {
  const out: ScopedRequest[] = [];

  for (const [role, nodeLabel] of [[LABELS.etcdRole, NODE_ROLE_LABELS.etcd], [LABELS.controlPlaneRole, NODE_ROLE_LABELS.controlplane]] as const) {
    out.push(scopedMachines(target, form, { labels: [[role, 'true']] }), scopedPlanSecrets(target, form, [role, 'true']));
    if (target.mgmtId) {
      out.push(scopedNodes(target.mgmtId, form, { labels: [[nodeLabel, 'true']] }));
    }
  }

  return out;
}

/**
 * Whether the cluster has a worker machine at all (a cluster without one is the role-missing finding): the first of
 * them, one object, its name and labels only (`limit` without the SQL cache, `pagesize` with it).
 */
export function workerProbe(target: ClusterTarget, form: ListForm): ScopedRequest {
  const selector: ListSelector = { labels: ofCluster(target, [LABELS.workerRole, 'true']) };

  return {
    input:  'machines',
    url:    `${ path('v1', collection(STEVE_TYPES.machine), target.namespace) }${ queryString([...selectorParams(selector, form), [form === 'filter' ? 'pagesize' : 'limit', '1'], ['include', 'metadata.name'], ['include', 'metadata.labels']]) }`,
    access: localAccess('cluster.x-k8s.io', 'machines', target.namespace),
    selector,
  };
}
