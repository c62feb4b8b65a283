/** Records of one cluster that are the same host: the values they share, and how sure that makes it. */
import type {
  HostSignal, KubeObject, NodeRecord, RelatedRecord, SharedValue
} from '../types';
import {
  asArray, asObject, asString, nameOf, specOf, statusOf
} from '../fields';
import {
  CERTAIN, SIGNAL_ORDER, emitSignals, evidenceOf, hasReadyNode, identifyingAddress, lacksAPart, normalise
} from './signals';
import type { Carried } from './signals';
import { NO_RELATIONS, entryFor } from './relations';

/** A host report's names are matched against the other records' host names. */
function classOf(signal: HostSignal): HostSignal {
  return signal === 'hostReport' ? 'hostname' : signal;
}

/** Candidates' values per signal, by their one spelling; a lookup tries the value as written first. */
type SignalIndex = Map<HostSignal, Map<string, Carried[]>>;

/**
 * The list a value of another record joins, or undefined. Candidates are indexed under their value as written and
 * in upper case too (system UUIDs are written in upper case, names in lower case): only an IPv6 address is spelled
 * out, so a look-up costs one map read.
 */
function listFor(byValue: Map<string, Carried[]> | undefined, signal: HostSignal, raw: string): Carried[] | undefined {
  if (!byValue) {
    return undefined;
  }

  return byValue.get(raw) ?? (signal === 'address' && raw.includes(':') ? byValue.get(identifyingAddress(raw) ?? '') : undefined);
}

/** The candidates' lists of the signals a Node is looked up by, read once per cluster. */
interface NodeLookUp {
  hostname?: Map<string, Carried[]>;
  address?: Map<string, Carried[]>;
  systemUuid?: Map<string, Carried[]>;
  providerId?: Map<string, Carried[]>;
}

type Found = (list: Carried[], signal: HostSignal, raw: string, path: string, at: number) => void;

/**
 * A record that has its machine and its Node, looked up by its Node alone: the Machine's addresses, providerID and
 * nodeInfo are copies of the Node's, and this pass reads every record of a large cluster. The system UUID stands
 * for the OS machine id beside it.
 */
function lookUpByNode(n: KubeObject, maps: NodeLookUp, found: Found): void {
  const name = nameOf(n);
  let list = name ? listFor(maps.hostname, 'hostname', name) : undefined;

  if (list && name) {
    found(list, 'hostname', name, 'metadata.name', -1);
  }
  const status = statusOf(n);
  const addresses = asArray(status.addresses);

  for (let i = 0; i < addresses.length; i++) {
    const a = asObject(addresses[i]);
    const value = asString(a.address);
    const signal = a.type === 'InternalIP' || a.type === 'ExternalIP' ? 'address' : (a.type === 'Hostname' ? 'hostname' : null);

    list = value && signal ? listFor(signal === 'address' ? maps.address : maps.hostname, signal, value) : undefined;
    if (list && value && signal) {
      found(list, signal, value, 'status.addresses', i);
    }
  }
  if (maps.systemUuid) {
    const value = asString(asObject(status.nodeInfo).systemUUID);

    list = value ? listFor(maps.systemUuid, 'systemUuid', value) : undefined;
    if (list && value) {
      found(list, 'systemUuid', value, 'status.nodeInfo.systemUUID', -1);
    }
  }
  if (maps.providerId) {
    const value = asString(specOf(n).providerID);

    list = value ? listFor(maps.providerId, 'providerId', value) : undefined;
    if (list && value) {
      found(list, 'providerId', value, 'spec.providerID', -1);
    }
  }
}

function relateCluster(records: NodeRecord[]): void {
  const index: SignalIndex = new Map();

  for (let i = 0; i < records.length; i++) {
    const r = records[i];

    if (!lacksAPart(r)) {
      continue;
    }
    emitSignals(r, (signal, raw, kind, obj, path, at = -1) => {
      const value = raw ? normalise(signal, raw) : null;

      if (value === null || raw === null) {
        return;
      }
      const cls = classOf(signal);
      let byValue = index.get(cls);

      if (!byValue) {
        byValue = new Map();
        index.set(cls, byValue);
      }
      const carried: Carried = {
        record: r, signal, kind, obj, path, index: at, raw
      };

      for (const spelling of new Set([value, raw, raw.toUpperCase()])) {
        const list = byValue.get(spelling);

        if (!list) {
          // One list per value, whatever its spelling: a look-up by any of them joins the same list.
          byValue.set(spelling, spelling === value ? [carried] : byValue.get(value) ?? [carried]);
        } else if (!list.some((c) => c.record === r)) {
          list.push(carried);
        }
      }
    });
  }
  if (index.size === 0) {
    return;
  }
  // Every other record of the cluster, looked up: it joins the lists of the values it shares with a candidate.
  const maps: NodeLookUp = {
    hostname: index.get('hostname'), address: index.get('address'), systemUuid: index.get('systemUuid'), providerId: index.get('providerId')
  };
  let current: NodeRecord = records[0];
  const found: Found = (list, signal, raw, path, at) => {
    if (!list.some((c) => c.record === current)) {
      list.push({
        record: current, signal, kind: 'node', obj: current.objects.node as KubeObject, path, index: at, raw
      });
    }
  };

  for (let i = 0; i < records.length; i++) {
    const r = records[i];

    if (lacksAPart(r)) {
      continue;
    }
    current = r;
    lookUpByNode(r.objects.node as KubeObject, maps, found);
  }
  const pairs = new Map<string, { a: NodeRecord; b: NodeRecord; shared: [Carried, Carried][] }>();

  // A list is indexed under each spelling of its value: each once.
  for (const carriers of new Set([...index.values()].flatMap((byValue) => [...byValue.values()]))) {
    if (carriers.length < 2) {
      continue;
    }
    // Carried by two hosts that both run a Ready kubelet: the value is not one host's.
    if (carriers.filter((c) => hasReadyNode(c.record)).length > 1) {
      continue;
    }
    for (let i = 0; i < carriers.length; i++) {
      for (let j = i + 1; j < carriers.length; j++) {
        const [x, y] = carriers[i].record.key < carriers[j].record.key ? [carriers[i], carriers[j]] : [carriers[j], carriers[i]];
        const id = `${ x.record.key }\u0000${ y.record.key }`;
        let pair = pairs.get(id);

        if (!pair) {
          pair = {
            a: x.record, b: y.record, shared: []
          };
          pairs.set(id, pair);
        }
        pair.shared.push([x, y]);
      }
    }
  }
  for (const { a, b, shared } of pairs.values()) {
    if (hasReadyNode(a) && hasReadyNode(b)) {
      continue;
    }
    // A host report names a host itself; elsewhere a host name only supports another signal.
    const certain = shared.some(([x, y]) => CERTAIN.has(x.signal) || CERTAIN.has(y.signal));
    const likely = certain || shared.some(([x]) => x.signal === 'address');

    if (!likely) {
      continue;
    }
    const sorted = [...shared].sort(([x1, y1], [x2, y2]) => signalRank(x1, y1) - signalRank(x2, y2));
    const sameHost = certain ? 'certain' : 'likely';

    addShared(entryFor(a, b), sameHost, sorted.map(([x, y]) => sharedValue(x, y)));
    addShared(entryFor(b, a), sameHost, sorted.map(([x, y]) => sharedValue(y, x)));
  }
}

function signalRank(x: Carried, y: Carried): number {
  const rank = (c: Carried) => SIGNAL_ORDER.indexOf(c.signal);

  return Math.min(rank(x), rank(y));
}

/** The signal a shared value is told by: a host report's name rather than the host name it matched. */
function sharedValue(mine: Carried, theirs: Carried): SharedValue {
  const signal = mine.signal === 'hostReport' || theirs.signal === 'hostReport' ? 'hostReport' : mine.signal;

  return {
    signal, value: theirs.raw, evidence: [evidenceOf(mine), evidenceOf(theirs)]
  };
}

function addShared(entry: RelatedRecord, sameHost: 'certain' | 'likely', shared: SharedValue[]): void {
  entry.sameHost = sameHost;
  entry.shared = shared;
}

/**
 * Sets every record's `related` to the records that are the same host, per cluster of machines (an imported
 * cluster's Nodes have no machine to be told apart from). Runs before the rules, which use it for their steps.
 */
export function relateHosts(records: NodeRecord[]): void {
  const byCluster = new Map<NodeRecord['cluster'], NodeRecord[]>();
  const withGaps = new Set<NodeRecord['cluster']>();

  for (let i = 0; i < records.length; i++) {
    const r = records[i];

    r.related = NO_RELATIONS;
    if (!r.cluster || !r.machineManaged) {
      continue;
    }
    const list = byCluster.get(r.cluster);

    if (list) {
      list.push(r);
    } else {
      byCluster.set(r.cluster, [r]);
    }
    if (lacksAPart(r)) {
      withGaps.add(r.cluster);
    }
  }
  for (const cluster of withGaps) {
    relateCluster(byCluster.get(cluster) as NodeRecord[]);
  }
}
