/**
 * The Node Health tab on one object's page (a Machine in Cluster Management, a Node in the Explorer): which
 * provisioning cluster the object belongs to, and which of that cluster's rows is its record. Plain TypeScript.
 */
import { LABELS, label, nameOf, namespaceOf } from '../engine';
import type { KubeObject } from '../engine';
import type { NodeRow } from './types';

/** The object a detail page shows, as the record tab looks for it. */
export interface RecordSubject {
  kind: 'machine' | 'node';
  name: string;
  namespace: string | null;
}

/** The Steve types of the pages that carry the record tab. */
export const MACHINE_TYPE = 'cluster.x-k8s.io.machine';
export const NODE_TYPE = 'node';
export const PROVISIONING_CLUSTER_TYPE = 'provisioning.cattle.io.cluster';

/** The Machine or Node a detail page shows; null for any other object, or one without a name. */
export function recordSubject(resource: unknown): RecordSubject | null {
  const obj = (resource ?? {}) as KubeObject;
  const name = nameOf(obj);
  const type = (obj as { type?: unknown }).type;

  if (!name) {
    return null;
  }
  if (type === MACHINE_TYPE || (obj.kind === 'Machine' && String(obj.apiVersion ?? '').startsWith('cluster.x-k8s.io/'))) {
    return {
      kind: 'machine', name, namespace: namespaceOf(obj)
    };
  }
  if (type === NODE_TYPE || (obj.kind === 'Node' && obj.apiVersion === 'v1')) {
    return {
      kind: 'node', name, namespace: null
    };
  }

  return null;
}

/** A Machine's provisioning cluster: the `cluster.x-k8s.io/cluster-name` label, in the Machine's namespace. */
export function machineClusterId(machine: unknown): string | null {
  const name = label(machine, LABELS.capiClusterName);
  const namespace = namespaceOf(machine as KubeObject);

  return name && namespace ? `${ namespace }/${ name }` : null;
}

/** The provisioning cluster whose management cluster is `mgmtId` (a Node page's cluster in the Explorer). */
export function clusterOfMgmtId(clusters: readonly unknown[], mgmtId: string): unknown | null {
  return clusters.find((c) => (c as KubeObject)?.status?.clusterName === mgmtId) ?? null;
}

/**
 * The subject's row: a Machine's is keyed by the Machine; a Node's is the record that holds it (its Machine's
 * record, or the Node's own when no machine has it), the one with a machine first where several name it.
 */
export function subjectRow(rows: readonly NodeRow[], subject: RecordSubject): NodeRow | null {
  if (subject.kind === 'machine') {
    return rows.find((r) => r.key === `machine:${ subject.namespace }/${ subject.name }`) ?? null;
  }
  const named = rows.filter((r) => r.node === subject.name);

  return named.find((r) => !!r.machine) ?? named[0] ?? null;
}
