/**
 * Rancher's management.cattle.io Node, its copy of a downstream Node.
 */

import { stableSuffix } from '../random';
import { KubeObject, Labels, NodeObject, RancherCondition } from '../types';
import { dropUndefined, meta, Roles } from './common';

export interface ManagementNodeOptions {
  /** management Node name (Norman style `machine-xxxxx`) */
  name?: string;
  mgmtId: string;
  createdAt: string;
  /** the downstream Node it mirrors; absent for a node that never registered */
  node?: NodeObject;
  requestedHostname: string;
  roles: Roles;
  imported?: boolean;
}

export function managementNode(o: ManagementNodeOptions): KubeObject {
  const name = o.name ?? `machine-${ stableSuffix(`mgmt-node:${ o.mgmtId }/${ o.requestedHostname }`) }`;
  const node = o.node;
  const nodeName = node?.metadata.name;
  const labels: Labels = { 'cattle.io/creator': 'norman' };

  if (nodeName) labels['management.cattle.io/nodename'] = nodeName;
  const ready = node?.status.conditions.find((c) => c.type === 'Ready');
  const conditions: RancherCondition[] = [
    {
      type: 'Initialized', status: 'True', lastUpdateTime: o.createdAt
    },
    {
      type: 'Provisioned', status: 'True', lastUpdateTime: o.createdAt
    },
    {
      type: 'Registered', status: node ? 'True' : 'Unknown', message: node ? 'registered with kubernetes' : undefined, lastUpdateTime: o.createdAt
    },
  ];

  if (ready) {
    conditions.push({
      type: 'Ready', status: ready.status, reason: ready.reason, message: ready.message, lastUpdateTime: ready.lastHeartbeatTime, lastTransitionTime: ready.lastTransitionTime
    });
  }
  const status: Record<string, unknown> = { conditions: conditions.map(dropUndefined) };

  if (node) {
    status.nodeName = nodeName;
    status.nodeAnnotations = { ...(node.metadata.annotations ?? {}) };
    status.nodeLabels = { ...(node.metadata.labels ?? {}) };
    status.internalNodeStatus = copyNodeStatus(node.status);
    status.requested = {
      cpu: '350m', memory: '200Mi', pods: '9'
    };
    status.limits = { memory: '340Mi' };
  }
  const spec: Record<string, unknown> = {
    controlPlane:      Boolean(o.roles.controlPlane),
    etcd:              Boolean(o.roles.etcd),
    worker:            Boolean(o.roles.worker),
    imported:          Boolean(o.imported),
    requestedHostname: o.requestedHostname,
    customConfig:      null,
    desiredNodeTaints: null,
    displayName:       '',
    metadataUpdate:    { annotations: {}, labels: {} },
    internalNodeSpec:  node ? {
      ...node.spec, ...(node.spec.taints ? { taints: node.spec.taints.map((t) => ({ ...t })) } : {}), ...(node.spec.podCIDRs ? { podCIDRs: [...node.spec.podCIDRs] } : {})
    } : {},
  };

  return {
    apiVersion: 'management.cattle.io/v3',
    kind:       'Node',
    metadata:   meta('MgmtNode', {
      name,
      namespace:    o.mgmtId,
      createdAt:    o.createdAt,
      generateName: 'machine-',
      generation:   1,
      labels,
      annotations:  { 'management.cattle.io/nodesyncer': 'true', 'lifecycle.cattle.io/create.node-controller': 'true' },
      finalizers:   ['controller.cattle.io/node-controller'],
    }),
    spec,
    status,
  };
}

/**
 * After a scenario changes a Node, copy it again into its management Node, as Rancher's node syncer does: the
 * copy of the spec (taints, unschedulable), the status (conditions) and the labels and annotations follow.
 */
export function recopyNode(mgmtNode: KubeObject | undefined, node: NodeObject): void {
  const copy = mgmtNode as Record<string, any> | undefined;

  if (!copy) {
    return;
  }
  copy.spec.internalNodeSpec = { ...node.spec, ...(node.spec.taints ? { taints: node.spec.taints.map((t) => ({ ...t })) } : {}) };
  copy.status.internalNodeStatus = copyNodeStatus(node.status);
  copy.status.nodeLabels = { ...(node.metadata.labels ?? {}) };
  copy.status.nodeAnnotations = { ...(node.metadata.annotations ?? {}) };
}

function copyNodeStatus(st: NodeObject['status']): NodeObject['status'] {
  return {
    addresses:       st.addresses.map((a) => ({ ...a })),
    allocatable:     { ...st.allocatable },
    capacity:        { ...st.capacity },
    conditions:      st.conditions.map((c) => ({ ...c })),
    daemonEndpoints: { kubeletEndpoint: { ...st.daemonEndpoints.kubeletEndpoint } },
    nodeInfo:        { ...st.nodeInfo },
  };
}
