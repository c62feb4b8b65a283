/**
 * How a finding names what it read: the object, as the user finds it (`Machine fleet-default/custom-1`), the field
 * and its value. The expected node name and the host relations write evidence too, so it lives below the rules.
 */
import type { Evidence, KubeObject } from './types';
import { describeObject } from './fields';

/**
 * How evidence and the timeline name Rancher's management Node: not a Kubernetes kind but the chain's words, which
 * the tab and the reports say in the reader's language (report/objects.ts sayObject).
 */
export const MGMT_NODE_LABEL = 'Rancher node';

const KIND_LABELS: Record<string, string> = {
  cluster:      'Cluster',
  machine:      'Machine',
  planSecret:   'Secret',
  bootstrap:    'RKEBootstrap',
  infraMachine: 'InfrastructureMachine',
  // As the tab's chain of objects names it (nodeHealth.chain.kind.mgmtNode), so one row never calls it two ways.
  mgmtNode:     MGMT_NODE_LABEL,
  node:         'Node',
  lease:        'Lease',
};

export function objectLabel(kind: keyof typeof KIND_LABELS, obj: KubeObject): string {
  const label = kind === 'infraMachine' && typeof obj?.kind === 'string' ? obj.kind : KIND_LABELS[kind];

  return describeObject(label, obj);
}

export function evidence(object: string, path: string, value: Evidence['value']): Evidence {
  return {
    object, path, value: typeof value === 'string' && value.length > 500 ? `${ value.slice(0, 500) }…` : value
  };
}
