/** Downstream Nodes and management Nodes, matched to their machines by the strongest key each carries. */
import type { KubeObject } from '../types';
import {
  annotation, asObject, asString, label, nameOf, namespaceOf, statusOf
} from '../fields';
import { downstreamClusterIdFromLinks } from '../objects';
import { ANNOTATIONS, LABELS } from '../vocabulary';
import { ScopedIndex, clusterKey, lazily } from './indexes';
import type { ClusterIndex, MachineIndex, NodeEntry, NodeIndex } from './indexes';

/** Downstream Nodes: which cluster each belongs to, and which machine, by the strongest key. */
export function attachNodes(nodeObjects: KubeObject[], clusters: ClusterIndex, machines: MachineIndex): NodeIndex {
  const nodes: NodeEntry[] = [];
  const byClusterName = new ScopedIndex<NodeEntry>();

  for (let i = 0; i < nodeObjects.length; i++) {
    const n = nodeObjects[i];
    const annotatedCluster = annotation(n, ANNOTATIONS.capiClusterName);
    const cluster = clusters.forMgmtId(downstreamClusterIdFromLinks(n)) ??
      (annotatedCluster ? clusters.byNsName.get(annotation(n, ANNOTATIONS.capiClusterNamespace), annotatedCluster) ?? null : null) ??
      clusters.fallback();
    const name = nameOf(n) as string;
    const entry: NodeEntry = {
      obj: n, name, cluster, mgmtNode: undefined, takenBy: null
    };

    nodes.push(entry);
    byClusterName.set(clusterKey(cluster), name, entry);

    const uid = label(n, LABELS.machineUid);
    let machine = uid ? machines.byUid.get(uid) : undefined;
    let strength = 3;

    if (!machine) {
      machine = machines.byClusterNodeName().get(clusterKey(cluster), name) ?? (cluster ? undefined : machines.byNodeRefAnywhere().get(name) ?? undefined);
      strength = 2;
    }
    if (!machine) {
      const annotated = annotation(n, ANNOTATIONS.capiMachine);

      machine = annotated ? machines.byNsName().get(annotation(n, ANNOTATIONS.capiClusterNamespace) ?? cluster?.namespace ?? null, annotated) : undefined;
      strength = 1;
    }
    if (machine && machine.nodeStrength < strength) {
      machine.node = entry;
      machine.nodeStrength = strength;
    }
  }
  for (let i = 0; i < machines.machines.length; i++) {
    const node = machines.machines[i].node;

    if (node) {
      node.takenBy = machines.machines[i].name;
      // kubectl output of several clusters does not say whose a Node is; the machine it belongs to does.
      if (!node.cluster && machines.machines[i].cluster) {
        node.cluster = machines.machines[i].cluster;
        byClusterName.set(clusterKey(node.cluster), node.name, node);
      }
    }
  }

  return { nodes, byClusterName };
}

/** Management nodes: to their downstream Node by name, else to a machine by the mirrored annotation; the rest are alone. */
export function attachMgmtNodes(mgmtNodeObjects: KubeObject[], clusters: ClusterIndex, machines: MachineIndex, nodes: NodeIndex): KubeObject[] {
  // Nodes whose cluster nothing has told yet, by name: a management Node of one cluster naming one of them tells.
  const unattributed = lazily(() => {
    const byName = new Map<string, NodeEntry | null>();

    for (const entry of nodes.nodes) {
      if (!entry.cluster) {
        byName.set(entry.name, byName.has(entry.name) ? null : entry);
      }
    }

    return byName;
  });
  const lonely: KubeObject[] = [];

  for (let i = 0; i < mgmtNodeObjects.length; i++) {
    const mn = mgmtNodeObjects[i];
    const cluster = clusters.forMgmtId(namespaceOf(mn));
    const nodeName = asString(statusOf(mn).nodeName) ?? label(mn, LABELS.mgmtNodeName);
    let node = nodeName ? nodes.byClusterName.get(clusterKey(cluster), nodeName) : undefined;

    if (!node && nodeName && cluster && clusters.clusters.length > 1) {
      const named = unattributed().get(nodeName);

      if (named && !named.cluster && !named.mgmtNode) {
        named.cluster = cluster;
        nodes.byClusterName.set(clusterKey(cluster), named.name, named);
        node = named;
      }
    }
    if (node) {
      node.mgmtNode = mn;
      continue;
    }
    const machineName = asString(asObject(statusOf(mn).nodeAnnotations)[ANNOTATIONS.capiMachine]);
    const machine = machineName ? machines.byNsName().get(cluster?.namespace ?? null, machineName) : undefined;

    if (machine && !machine.mgmtNode) {
      machine.mgmtNode = mn;
    } else {
      lonely.push(mn);
    }
  }

  return lonely;
}

/**
 * Each Node's Lease: the one of its cluster with its name (a kubelet names its Lease after its Node). A Lease
 * whose cluster nothing tells (kubectl output) goes to the one Node of that name whose cluster is not told either,
 * or to the only Node of that name.
 */
export function attachLeases(leaseObjects: KubeObject[], clusters: ClusterIndex, nodes: NodeIndex): void {
  if (leaseObjects.length === 0) {
    return;
  }
  const byName = lazily(() => {
    const named = new Map<string, NodeEntry | null>();

    for (const entry of nodes.nodes) {
      named.set(entry.name, named.has(entry.name) ? null : entry);
    }

    return named;
  });

  for (let i = 0; i < leaseObjects.length; i++) {
    const lease = leaseObjects[i];
    const name = nameOf(lease) as string;
    const cluster = clusters.forMgmtId(downstreamClusterIdFromLinks(lease)) ?? clusters.fallback();
    const node = nodes.byClusterName.get(clusterKey(cluster), name) ?? (cluster ? undefined : byName().get(name) ?? undefined);

    if (node && !node.lease) {
      node.lease = lease;
    }
  }
}
