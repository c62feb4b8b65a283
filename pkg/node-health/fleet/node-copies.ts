/**
 * Rancher keeps a copy of every downstream Node in its management Node (status.internalNodeStatus,
 * spec.internalNodeSpec, nodeLabels, nodeAnnotations; the node syncer of pkg/controllers/managementagent). The
 * fleet reads that copy instead of asking each downstream cluster, and gives the engine a Node built from it:
 * conditions, addresses, OS image and memory, provider id and taints, labels and annotations, all as Rancher
 * copied them. The copy says which management Node it
 * came from, so that evidence and reports can tell it from the Node itself.
 */
import {
  asObject, COPIED_FROM_ANNOTATION, metadata, specOf, statusOf
} from '../engine';
import type { KubeObject } from '../engine';

export { COPIED_FROM_ANNOTATION };

function text(value: unknown): string | null {
  return typeof value === 'string' && value ? value : null;
}

function strings(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};

  for (const [k, v] of Object.entries(asObject(value))) {
    if (typeof v === 'string') {
      out[k] = v;
    }
  }

  return out;
}

/**
 * The downstream Node as the management Node copied it, or null when there is no copy: the node never
 * registered (no nodeName) or Rancher has not copied its status yet (no conditions), in which case nothing
 * about the Node may be claimed.
 */
export function nodeCopyOf(mgmtNode: unknown): KubeObject | null {
  const meta = metadata(mgmtNode);
  const status = statusOf(mgmtNode);
  const nodeName = text(status.nodeName);
  const clusterId = text(meta.namespace);
  const copied = asObject(status.internalNodeStatus);

  if (!nodeName || !clusterId || !Array.isArray(copied.conditions)) {
    return null;
  }

  return {
    apiVersion: 'v1',
    kind:       'Node',
    id:         nodeName,
    type:       'node',
    // Where the engine reads which cluster a Node belongs to (the self link of a Node Steve served).
    links:      { self: `/k8s/clusters/${ encodeURIComponent(clusterId) }/v1/nodes/${ encodeURIComponent(nodeName) }` },
    metadata:   {
      name:              nodeName,
      creationTimestamp: text(meta.creationTimestamp) ?? undefined,
      labels:            strings(status.nodeLabels),
      annotations:       { ...strings(status.nodeAnnotations), [COPIED_FROM_ANNOTATION]: `${ clusterId }/${ text(meta.name) ?? '' }` },
    },
    spec:   { ...asObject(specOf(mgmtNode).internalNodeSpec) },
    status: copied,
  };
}

/** Node copies of every management Node that carries one. */
export function nodeCopies(mgmtNodes: unknown[]): KubeObject[] {
  const out: KubeObject[] = [];

  for (const mn of mgmtNodes) {
    const copy = nodeCopyOf(mn);

    if (copy) {
      out.push(copy);
    }
  }

  return out;
}
