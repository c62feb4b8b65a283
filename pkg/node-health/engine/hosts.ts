/**
 * Which records are the same host. The join links a machine to its Node only by the keys Rancher itself uses
 * (the machine's uid label, nodeRef, Cluster API's annotation), so a host whose Node lost its machine, or whose
 * machine never got its Node, shows as two records: a ghost machine and an orphan Node, a machine waiting for
 * its node ref and the Node its host registered under another name. Here such records are related by what
 * identifies a host, whichever object carries it:
 *
 * - the agent's id: the Machine's rke.cattle.io/machine-id label, a host report's cattle-id;
 * - the firmware's system UUID and the OS machine id, which kubelet reports in nodeInfo (Cluster API copies it
 *   to the Machine);
 * - the providerID, on the Machine and on the Node;
 * - what a host report read on the host says of itself: the agent there serves this record's plan secret (its
 *   connection info), and the host and node name it reports are another record's Node;
 * - an address: the plan secret's rke.cattle.io/address and internal-address (the node IP the plan is written
 *   for) and its own join URL, the Machine's, the infrastructure machine's and the Node's status.addresses;
 * - a host name, which only supports an address: two hosts of one name are the duplicate-node-name case.
 *
 * Ids make two records the same host ("certain"), an address makes it "likely". Nothing relates records of two
 * clusters (private addresses and host names repeat across sites), a loopback, link-local or unspecified address
 * is no one's, and a value that two records with a Ready Node both carry (a NAT's external address, a VM template's
 * machine id) identifies no host: two kubelets posting Ready are two hosts.
 *
 * Only records that lack a part (a machine without its Node, a Node, management Node or plan secret without a
 * machine) are indexed; every other record of their cluster is only looked up, so a healthy cluster costs one
 * pass over its records.
 */
import type {
  Evidence, HostSignal, KubeObject, NodeRecord, RelatedRecord, SharedValue
} from './types';
import {
  annotation, asArray, asObject, asString, label, nameOf, specOf, statusOf
} from './fields';
import { nodeReadyCondition } from './conditions';
import { ANNOTATIONS, LABELS } from './vocabulary';
import { parseIPv4, parseIPv6 } from './addresses';
import { evidence, objectLabel } from './rules/rule';

/** Signals that identify a host by themselves; an address only makes it likely, a host name only supports. */
const CERTAIN: ReadonlySet<HostSignal> = new Set(['machineId', 'systemUuid', 'osMachineId', 'providerId', 'hostReport']);

/** How the signals are shown, strongest first. */
const SIGNAL_ORDER: readonly HostSignal[] = ['hostReport', 'machineId', 'systemUuid', 'osMachineId', 'providerId', 'address', 'hostname'];

type SourceKind = 'machine' | 'planSecret' | 'infraMachine' | 'mgmtNode' | 'node' | 'host';

/** One value a record carries; its evidence is written only when another record shares it. */
interface Carried {
  record: NodeRecord;
  signal: HostSignal;
  value: string;
  kind: SourceKind;
  obj: KubeObject | null;
  path: string;
  raw: string;
}

type Emit = (signal: HostSignal, raw: string | null, kind: SourceKind, obj: KubeObject | null, path: string) => void;

/** An address as one spelling (IPv6 in full), or null for one that identifies no host. */
export function identifyingAddress(raw: string): string | null {
  const text = raw.trim();
  const v4 = parseIPv4(text);

  if (v4 !== null) {
    const first = Math.floor(v4 / 16777216);
    const second = Math.floor(v4 / 65536) % 256;

    // 0.0.0.0/8 (this network), 127/8 (loopback), 169.254/16 (link-local), 224/4 and above (multicast, reserved).
    if (first === 0 || first === 127 || (first === 169 && second === 254) || first >= 224) {
      return null;
    }

    return text;
  }
  const v6 = parseIPv6(text.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));

  if (!v6) {
    return null;
  }
  const unspecifiedOrLoopback = v6.slice(0, 7).every((g) => g === 0) && (v6[7] === 0 || v6[7] === 1);
  // fe80::/10 link-local, ff00::/8 multicast; an IPv4-mapped address is that IPv4 address.
  const linkLocal = (v6[0] & 0xffc0) === 0xfe80;
  const multicast = (v6[0] & 0xff00) === 0xff00;

  if (unspecifiedOrLoopback || linkLocal || multicast) {
    return null;
  }
  if (v6.slice(0, 5).every((g) => g === 0) && v6[5] === 0xffff) {
    return identifyingAddress(`${ v6[6] >> 8 }.${ v6[6] & 255 }.${ v6[7] >> 8 }.${ v6[7] & 255 }`);
  }

  return v6.map((g) => g.toString(16)).join(':');
}

/** Names every default install has: they tell no host from another. */
const GENERIC_HOSTNAMES = new Set(['localhost', 'localhost.localdomain', 'ubuntu', 'debian', 'raspberrypi', 'node', 'worker', 'master']);

function normalise(signal: HostSignal, raw: string): string | null {
  const text = raw.trim();

  if (!text) {
    return null;
  }
  switch (signal) {
  case 'address':
    return identifyingAddress(text);
  case 'hostname':
  case 'hostReport': {
    const lower = text.toLowerCase();

    return GENERIC_HOSTNAMES.has(lower) ? null : lower;
  }
  case 'systemUuid':
  case 'osMachineId': {
    const lower = text.toLowerCase();

    // Firmware that reports no UUID fills it with zeros (or ones): every such host would read alike.
    return /^[0-]+$|^[f-]+$/.test(lower) ? null : lower;
  }
  case 'machineId':
    return text.toLowerCase();
  default:
    return text;
  }
}

/** The host's addresses and host name in a status.addresses list (Machine, infrastructure machine, Node). */
function emitAddressList(emit: Emit, kind: SourceKind, obj: KubeObject, list: unknown, base: string): void {
  const addresses = asArray(list);

  for (let i = 0; i < addresses.length; i++) {
    const a = asObject(addresses[i]);
    const type = a.type;
    const value = asString(a.address);

    if (!value) {
      continue;
    }
    if (type === 'InternalIP' || type === 'ExternalIP') {
      emit('address', value, kind, obj, `${ base }[${ i }].address`);
    } else if (type === 'Hostname' || type === 'InternalDNS') {
      emit('hostname', value, kind, obj, `${ base }[${ i }].address`);
    }
  }
}

function emitNodeInfo(emit: Emit, kind: SourceKind, obj: KubeObject, info: unknown, base: string): void {
  const nodeInfo = asObject(info);

  emit('systemUuid', asString(nodeInfo.systemUUID), kind, obj, `${ base }.systemUUID`);
  emit('osMachineId', asString(nodeInfo.machineID), kind, obj, `${ base }.machineID`);
}

/** The host of a server's own join URL (https://10.20.1.21:9345). */
function joinUrlHost(url: string | null): string | null {
  const m = url ? /^[a-z]+:\/\/(\[[^\]]+\]|[^/:]+)/i.exec(url) : null;

  return m ? m[1] : null;
}

/** Every value of a record that may identify its host, from each of its objects. */
function emitSignals(r: NodeRecord, emit: Emit): void {
  const o = r.objects;

  // The plan's node IP first: the address the host was registered with.
  if (o.planSecret) {
    const s = o.planSecret;

    emit('address', annotation(s, ANNOTATIONS.address), 'planSecret', s, `metadata.annotations[${ ANNOTATIONS.address }]`);
    emit('address', annotation(s, ANNOTATIONS.internalAddress), 'planSecret', s, `metadata.annotations[${ ANNOTATIONS.internalAddress }]`);
    emit('address', joinUrlHost(annotation(s, ANNOTATIONS.joinUrl)), 'planSecret', s, `metadata.annotations[${ ANNOTATIONS.joinUrl }]`);
  }
  if (o.machine) {
    const m = o.machine;

    emit('machineId', label(m, LABELS.machineId), 'machine', m, `metadata.labels[${ LABELS.machineId }]`);
    emit('hostname', label(m, LABELS.nodeName), 'machine', m, `metadata.labels[${ LABELS.nodeName }]`);
    emit('providerId', asString(specOf(m).providerID), 'machine', m, 'spec.providerID');
    emitAddressList(emit, 'machine', m, statusOf(m).addresses, 'status.addresses');
    emitNodeInfo(emit, 'machine', m, statusOf(m).nodeInfo, 'status.nodeInfo');
  }
  if (o.infraMachine) {
    emitAddressList(emit, 'infraMachine', o.infraMachine, statusOf(o.infraMachine).addresses, 'status.addresses');
  }
  if (o.node) {
    const n = o.node;

    emit('hostname', nameOf(n), 'node', n, 'metadata.name');
    emit('hostname', label(n, 'kubernetes.io/hostname'), 'node', n, 'metadata.labels[kubernetes.io/hostname]');
    emit('providerId', asString(specOf(n).providerID), 'node', n, 'spec.providerID');
    emitAddressList(emit, 'node', n, statusOf(n).addresses, 'status.addresses');
    emitNodeInfo(emit, 'node', n, statusOf(n).nodeInfo, 'status.nodeInfo');
  } else if (o.mgmtNode) {
    const mn = o.mgmtNode;

    emit('hostname', asString(specOf(mn).requestedHostname), 'mgmtNode', mn, 'spec.requestedHostname');
    emit('hostname', asString(statusOf(mn).nodeName), 'mgmtNode', mn, 'status.nodeName');
  }
  const report = r.hostReport;

  if (report) {
    emit('machineId', report.machineId, 'host', null, 'machineId');
    // The agent on that host serves this record's plan secret: the names it reports are its Node's.
    emit('hostReport', report.nodeName.value, 'host', null, 'nodeName');
    emit('hostReport', report.hostname, 'host', null, 'hostname');
  }
}

/** A record that lacks a part: the records another record of the same host can be. */
function lacksAPart(r: NodeRecord): boolean {
  return r.objects.machine ? !r.objects.node : !!(r.objects.node || r.objects.mgmtNode || r.objects.planSecret);
}

function hasReadyNode(r: NodeRecord): boolean {
  return !!r.objects.node && nodeReadyCondition(r.objects.node)?.status === 'True';
}

function evidenceOf(c: Carried): Evidence {
  if (c.kind === 'host') {
    const e = evidence(`Host ${ c.record.hostReport?.hostname ?? '?' }`, c.path, c.raw);

    e.confirmed = true;

    return e;
  }

  return evidence(objectLabel(c.kind, c.obj as KubeObject), c.path, c.raw);
}

/** How one record names another: what the other is called in reports and the row detail. */
function relatedTo(other: NodeRecord): Pick<RelatedRecord, 'key' | 'machine' | 'node'> {
  return {
    key: other.key, machine: other.objects.machine ? other.machineName : null, node: other.nodeName
  };
}

function entryFor(r: NodeRecord, other: NodeRecord): RelatedRecord {
  let entry = r.related.find((x) => x.key === other.key);

  if (!entry) {
    entry = {
      ...relatedTo(other), sameHost: null, shared: [], names: [], namedBy: []
    };
    r.related.push(entry);
  }

  return entry;
}

/** A signal value is matched the same way on both sides: a host report's names against the other's host names. */
function indexKey(signal: HostSignal, value: string): string {
  return `${ signal === 'hostReport' ? 'hostname' : signal }\u0000${ value }`;
}

function relateCluster(records: NodeRecord[]): void {
  const index = new Map<string, Carried[]>();

  for (let i = 0; i < records.length; i++) {
    const r = records[i];

    if (!lacksAPart(r)) {
      continue;
    }
    emitSignals(r, (signal, raw, kind, obj, path) => {
      const value = raw ? normalise(signal, raw) : null;

      if (value === null || raw === null) {
        return;
      }
      const key = indexKey(signal, value);
      const list = index.get(key);
      const carried: Carried = {
        record: r, signal, value, kind, obj, path, raw
      };

      if (!list) {
        index.set(key, [carried]);
      } else if (!list.some((c) => c.record === r)) {
        list.push(carried);
      }
    });
  }
  if (index.size === 0) {
    return;
  }
  // Every record of the cluster that carries an indexed value, once per value.
  for (let i = 0; i < records.length; i++) {
    const r = records[i];

    if (lacksAPart(r)) {
      continue;
    }
    emitSignals(r, (signal, raw, kind, obj, path) => {
      const value = raw ? normalise(signal, raw) : null;
      const list = value === null ? undefined : index.get(indexKey(signal, value));

      if (list && raw !== null && value !== null && !list.some((c) => c.record === r)) {
        list.push({
          record: r, signal, value, kind, obj, path, raw
        });
      }
    });
  }
  const pairs = new Map<string, { a: NodeRecord; b: NodeRecord; shared: [Carried, Carried][] }>();

  for (const carriers of index.values()) {
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

    r.related = [];
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

/** The record a record is most likely the same host as, and that has what it lacks: a Node for a machine, a machine for a Node. */
export function sameHostWith(r: NodeRecord, has: 'node' | 'machine'): RelatedRecord | null {
  let best: RelatedRecord | null = null;

  for (const x of r.related) {
    if (!x.sameHost || (has === 'node' ? !x.node : !x.machine)) {
      continue;
    }
    if (!best || (x.sameHost === 'certain' && best.sameHost !== 'certain')) {
      best = x;
    }
  }

  return best;
}

/** A finding's evidence with what says two records are one host, each field once. */
export function withSharedEvidence(own: Evidence[], related: RelatedRecord | null | undefined): Evidence[] {
  if (!related || related.shared.length === 0) {
    return own;
  }
  const seen = new Set(own.map((e) => `${ e.object }\u0000${ e.path }`));
  const out = [...own];

  for (const s of related.shared) {
    for (const e of s.evidence) {
      const key = `${ e.object }\u0000${ e.path }`;

      if (!seen.has(key)) {
        seen.add(key);
        out.push(e);
      }
    }
  }

  return out;
}

/** What a finding's evidence names of other records: `Node <name>` and `Machine <namespace>/<name>`. */
function namedObjects(r: NodeRecord): { rule: string; kind: 'node' | 'machine'; name: string }[] {
  const out: { rule: string; kind: 'node' | 'machine'; name: string }[] = [];
  const ownNode = r.objects.node ? objectLabel('node', r.objects.node) : null;
  const ownMachine = r.objects.machine ? objectLabel('machine', r.objects.machine) : null;

  for (const f of r.findings) {
    // A note-like finding (a node cordoned by hand) is no problem of the record it names.
    if (f.severity === 'info') {
      continue;
    }
    for (const e of f.evidence) {
      if (e.confirmed || e.object === ownNode || e.object === ownMachine) {
        continue;
      }
      if (e.object.startsWith('Node ')) {
        out.push({
          rule: f.rule, kind: 'node', name: e.object.slice(5)
        });
      } else if (e.object.startsWith('Machine ')) {
        out.push({
          rule: f.rule, kind: 'machine', name: e.object.slice(8)
        });
      }
    }
  }

  return out;
}

/**
 * After the rules: records that a finding of another record names (by the objects in its evidence), both ways.
 * Only records with findings are read, and a cluster's records are indexed by name only when one names another.
 */
export function relateNamed(records: NodeRecord[]): NodeRecord[] {
  const touched: NodeRecord[] = [];
  const indexes = new Map<NodeRecord['cluster'], { nodes: Map<string, NodeRecord>; machines: Map<string, NodeRecord> }>();
  const indexOf = (cluster: NodeRecord['cluster']) => {
    let index = indexes.get(cluster);

    if (!index) {
      index = { nodes: new Map(), machines: new Map() };
      for (const r of records) {
        if (r.cluster !== cluster) {
          continue;
        }
        if (r.objects.node) {
          index.nodes.set(`${ nameOf(r.objects.node) }`, r);
        }
        if (r.objects.machine) {
          index.machines.set(objectLabel('machine', r.objects.machine).slice(8), r);
        }
      }
      indexes.set(cluster, index);
    }

    return index;
  };

  for (const r of records) {
    if (r.findings.length === 0 || !r.cluster) {
      continue;
    }
    for (const named of namedObjects(r)) {
      const index = indexOf(r.cluster);
      const other = named.kind === 'node' ? index.nodes.get(named.name) : index.machines.get(named.name);

      if (!other || other === r) {
        continue;
      }
      const mine = entryFor(r, other);
      const theirs = entryFor(other, r);

      if (!mine.names.includes(named.rule)) {
        mine.names.push(named.rule);
      }
      if (!theirs.namedBy.includes(named.rule)) {
        theirs.namedBy.push(named.rule);
      }
      touched.push(other);
    }
  }

  return touched;
}
