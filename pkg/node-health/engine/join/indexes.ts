/**
 * The indexes the join matches objects by: clusters, machines and the parts of a machine (plan secret, bootstrap,
 * infrastructure machine), each read once into an entry that later passes fill in, and the look-ups rules make
 * later, built on first use.
 */
import type { ClusterIdentity, ClusterInfo, KubeObject } from '../types';
import {
  annotation, asString, metadata, nameOf, namespaceOf
} from '../fields';
import { infrastructureRef, machineClusterName, nodeRefName, planSecretMachineName } from '../objects';
import { ANNOTATIONS } from '../vocabulary';
import { readClusterInfo, unknownCluster } from '../cluster-info';
import type { Buckets } from './buckets';
import type { JoinContext } from './result';

/**
 * Objects by scope (a namespace or a cluster) and name. Nested maps rather than "ns/name" keys: a large
 * cluster means hundreds of thousands of look-ups, and a concatenated key is a new string to hash each time.
 */
export class ScopedIndex<T> {
  private readonly scopes = new Map<string, Map<string, T>>();
  // Nearly every look-up is in the scope of the one before (one namespace, one cluster): that scope's names are
  // found without hashing the scope again.
  private lastScope: string | null = null;
  private lastNames: Map<string, T> | undefined = undefined;

  private namesOf(scope: string): Map<string, T> | undefined {
    if (scope !== this.lastScope) {
      this.lastScope = scope;
      this.lastNames = this.scopes.get(scope);
    }

    return this.lastNames;
  }

  set(scope: string | null, name: string | null, value: T): void {
    let names = this.namesOf(scope ?? '');

    if (!names) {
      names = new Map();
      this.scopes.set(scope ?? '', names);
      this.lastNames = names;
    }
    names.set(name ?? '', value);
  }

  get(scope: string | null, name: string | null | undefined): T | undefined {
    return this.namesOf(scope ?? '')?.get(name ?? '');
  }
}

export function nsName(ns: string | null, name: string | null): string {
  return `${ ns ?? '' }/${ name ?? '' }`;
}

/** A machine and what the join has found for it so far. */
export interface MachineEntry {
  obj: KubeObject;
  namespace: string | null;
  name: string;
  cluster: ClusterInfo | null;
  node: NodeEntry | null;
  /** How the node was matched: 3 machine uid label, 2 nodeRef, 1 annotation */
  nodeStrength: number;
  mgmtNode: KubeObject | undefined;
}

export interface NodeEntry {
  obj: KubeObject;
  name: string;
  cluster: ClusterInfo | null;
  mgmtNode: KubeObject | undefined;
  /** its kubelet's Lease, where leases were read */
  lease?: KubeObject;
  /** the machine it was joined to */
  takenBy: string | null;
}

export interface SecretEntry {
  obj: KubeObject;
  machineName: string | null;
  used: boolean;
}

export function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);

  if (list) {
    list.push(value);
  } else {
    map.set(key, [value]);
  }
}

/** Clusters, addressable by namespace/name and by management id; a machine or Node naming an unknown one adds it. */
export interface ClusterIndex {
  clusters: ClusterInfo[];
  byNsName: ScopedIndex<ClusterInfo>;
  byMgmtId: Map<string, ClusterInfo>;
  objects: Map<ClusterInfo, KubeObject>;
  forMachine(ns: string | null, clusterName: string | null): ClusterInfo | null;
  forMgmtId(id: string | null): ClusterInfo | null;
  /** the cluster objects without one belong to: the one asked for, or the only one there is */
  fallback(): ClusterInfo | null;
}

export function clusterKey(c: ClusterInfo | null): string {
  return c?.mgmtId ?? c?.name ?? '';
}

/**
 * The clusters of the objects, each under the identity given for it (by namespace and name) or, where none was
 * given, the one its object tells.
 */
export function indexClusters(clusterObjects: KubeObject[], defaultCluster: string | undefined, identities: ClusterIdentity[] = []): ClusterIndex {
  const clusters: ClusterInfo[] = [];
  const byNsName = new ScopedIndex<ClusterInfo>();
  const byMgmtId = new Map<string, ClusterInfo>();
  const objects = new Map<ClusterInfo, KubeObject>();

  const add = (info: ClusterInfo, obj?: KubeObject) => {
    clusters.push(info);
    if (info.namespace !== null) {
      byNsName.set(info.namespace, info.name, info);
    }
    if (info.mgmtId) {
      byMgmtId.set(info.mgmtId, info);
    }
    if (obj) {
      objects.set(info, obj);
    }

    return info;
  };

  const given = new ScopedIndex<ClusterIdentity>();

  for (const identity of identities) {
    given.set(identity.namespace, identity.name, identity);
  }
  for (const c of clusterObjects) {
    add(readClusterInfo(c, given.get(namespaceOf(c), nameOf(c)) ?? undefined), c);
  }

  const forMachine = (ns: string | null, clusterName: string | null): ClusterInfo | null => {
    if (!clusterName) {
      return null;
    }

    return byNsName.get(ns, clusterName) ?? add({
      ...unknownCluster(clusterName, null), namespace: ns, kind: 'provisioned'
    });
  };

  const forMgmtId = (id: string | null): ClusterInfo | null => {
    if (!id) {
      return null;
    }

    return byMgmtId.get(id) ?? add(unknownCluster(id, id));
  };

  const fallback = (): ClusterInfo | null => {
    if (defaultCluster) {
      return byMgmtId.get(defaultCluster) ?? clusters.find((c) => c.name === defaultCluster) ?? forMgmtId(defaultCluster);
    }

    return clusters.length === 1 ? clusters[0] : null;
  };

  return {
    clusters, byNsName, byMgmtId, objects, forMachine, forMgmtId, fallback
  };
}

/** Machines, each read once into an entry that the later passes fill in, and the keys Nodes find them by. */
export interface MachineIndex {
  machines: MachineEntry[];
  byUid: Map<string, MachineEntry>;
  clustersWithMachines: Set<ClusterInfo>;
  byNsName: () => ScopedIndex<MachineEntry>;
  byClusterNodeName: () => ScopedIndex<MachineEntry>;
  /** A Node whose cluster nothing tells (kubectl output of several clusters) by the one machine of any cluster naming it. */
  byNodeRefAnywhere: () => Map<string, MachineEntry | null>;
}

export function indexMachines(machineObjects: KubeObject[], clusters: ClusterIndex): MachineIndex {
  const machines: MachineEntry[] = [];
  const byUid = new Map<string, MachineEntry>();
  const clustersWithMachines = new Set<ClusterInfo>();

  for (let i = 0; i < machineObjects.length; i++) {
    const m = machineObjects[i];
    const ns = namespaceOf(m);
    const name = nameOf(m) as string;
    const uid = asString(metadata(m).uid);
    const cluster = clusters.forMachine(ns, machineClusterName(m)) ?? clusters.fallback();
    const entry: MachineEntry = {
      obj: m, namespace: ns, name, cluster, node: null, nodeStrength: 0, mgmtNode: undefined
    };

    machines.push(entry);
    if (cluster) {
      clustersWithMachines.add(cluster);
    }
    if (uid) {
      byUid.set(uid, entry);
    }
  }

  // Nodes nearly always carry their machine's uid; the weaker keys are indexed only when one does not.
  return {
    machines,
    byUid,
    clustersWithMachines,
    byNsName: lazily(() => {
      const index = new ScopedIndex<MachineEntry>();

      for (const entry of machines) {
        index.set(entry.namespace, entry.name, entry);
      }

      return index;
    }),
    byClusterNodeName: lazily(() => {
      const index = new ScopedIndex<MachineEntry>();

      for (const entry of machines) {
        const refName = nodeRefName(entry.obj);

        if (refName) {
          index.set(clusterKey(entry.cluster), refName, entry);
        }
      }

      return index;
    }),
    byNodeRefAnywhere: lazily(() => {
      const index = new Map<string, MachineEntry | null>();

      for (const entry of machines) {
        const refName = nodeRefName(entry.obj);

        if (refName) {
          index.set(refName, index.has(refName) ? null : entry);
        }
      }

      return index;
    }),
  };
}

/** Plan secrets, bootstraps and infrastructure machines, by namespace and the machine they belong to. */
export interface MachinePartIndex {
  secrets: SecretEntry[];
  secretByMachine: ScopedIndex<SecretEntry>;
  bootstrapByNsName: ScopedIndex<KubeObject>;
  infraFor(ns: string | null, ref: ReturnType<typeof infrastructureRef>): KubeObject | undefined;
}

export function indexPlanSecrets(buckets: Buckets): MachinePartIndex {
  const secrets: SecretEntry[] = [];
  const secretByMachine = new ScopedIndex<SecretEntry>();

  for (let i = 0; i < buckets.planSecret.length; i++) {
    const s = buckets.planSecret[i];
    const entry: SecretEntry = {
      obj: s, machineName: planSecretMachineName(s), used: false
    };

    secrets.push(entry);
    secretByMachine.set(namespaceOf(s), entry.machineName, entry);
  }
  const bootstrapByNsName = new ScopedIndex<KubeObject>();

  for (let i = 0; i < buckets.bootstrap.length; i++) {
    const b = buckets.bootstrap[i];

    bootstrapByNsName.set(namespaceOf(b), nameOf(b), b);
  }
  // Infrastructure machines of different kinds may share a name; the reference's kind picks one. A name nearly
  // always has one: a list is made only for a name that has more.
  const infraByNsName = new ScopedIndex<KubeObject>();
  const sharedInfraNames = new ScopedIndex<KubeObject[]>();

  for (let i = 0; i < buckets.infraMachine.length; i++) {
    const infra = buckets.infraMachine[i];
    const ns = namespaceOf(infra);
    const name = nameOf(infra);
    const first = infraByNsName.get(ns, name);

    if (!first) {
      infraByNsName.set(ns, name, infra);
    } else {
      const same = sharedInfraNames.get(ns, name);

      if (same) {
        same.push(infra);
      } else {
        sharedInfraNames.set(ns, name, [first, infra]);
      }
    }
  }
  const infraFor = (ns: string | null, ref: ReturnType<typeof infrastructureRef>): KubeObject | undefined => {
    const first = ref ? infraByNsName.get(ns, ref.name) : undefined;
    const candidates = first && ref ? sharedInfraNames.get(ns, ref.name) : undefined;

    if (!candidates) {
      return first;
    }

    return candidates.find((i) => !ref?.kind || asString(i.kind) === ref.kind || !asString(i.kind)) ?? candidates[0];
  };

  return {
    secrets, secretByMachine, bootstrapByNsName, infraFor
  };
}

/** Indexes a join keeps for the next one (engine/incremental.ts), each with the objects it was built from. */
export interface KeptIndexes {
  /** plan secrets, bootstraps and infrastructure machines (the lists, in order), their index and the joined-to look-up */
  parts: { lists: KubeObject[][]; index: MachinePartIndex; joinedTo: JoinContext['machinesJoinedTo'] };
}

/** Downstream Nodes and what they were joined to. */
export interface NodeIndex {
  nodes: NodeEntry[];
  byClusterName: ScopedIndex<NodeEntry>;
}

/** A value built on first use: indexes that only some inputs need. */
export function lazily<T>(build: () => T): () => T {
  let value: { built: T } | null = null;

  return () => {
    value ??= { built: build() };

    return value.built;
  };
}

/** Only the name-mismatch rule asks, and only for machines without a Node. */
export function lazyNodesByLowerName(nodes: NodeEntry[]): JoinContext['nodesNamedLike'] {
  const index = lazily(() => {
    const byCluster = new Map<ClusterInfo | null, Map<string, KubeObject[]>>();

    for (const { obj, name, cluster } of nodes) {
      let byName = byCluster.get(cluster);

      if (!byName) {
        byName = new Map();
        byCluster.set(cluster, byName);
      }
      pushTo(byName, name.toLowerCase(), obj);
    }

    return byCluster;
  });

  return (cluster, lowerName) => index().get(cluster)?.get(lowerName) ?? [];
}

/**
 * Which machines joined the cluster through which server: a deleting etcd machine waits for them.
 * rke.cattle.io/joined-to holds the server's join URL, which that server's own secret carries as join-url.
 * Only a deleting etcd machine asks.
 */
export function lazyJoinedTo(secrets: SecretEntry[]): JoinContext['machinesJoinedTo'] {
  const index = lazily(() => {
    const joinedTo = new Map<string, string[]>();
    const machineByJoinUrl = new ScopedIndex<string>();

    for (const { obj, machineName } of secrets) {
      const url = annotation(obj, ANNOTATIONS.joinUrl);

      if (url && machineName) {
        machineByJoinUrl.set(namespaceOf(obj), url, machineName);
      }
    }
    for (const { obj, machineName: source } of secrets) {
      const joinedUrl = annotation(obj, ANNOTATIONS.joinedTo);
      const target = joinedUrl ? machineByJoinUrl.get(namespaceOf(obj), joinedUrl) ?? joinedUrl : null;

      if (target && source && target !== source) {
        pushTo(joinedTo, nsName(namespaceOf(obj), target), source);
      }
    }

    return joinedTo;
  });

  return (namespace, machineName) => index().get(nsName(namespace, machineName)) ?? [];
}
