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
  annotation, asArray, asObject, asString, label, nameOf, namespaceOf, specOf, statusOf
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
  kind: SourceKind;
  obj: KubeObject | null;
  /** the field, or the list whose element `index` holds the value */
  path: string;
  index: number;
  raw: string;
}

/** `index` >= 0: the value is element `index` of the list at `path` (its path is made only when it is shown). */
type Emit = (signal: HostSignal, raw: string | null, kind: SourceKind, obj: KubeObject | null, path: string, index?: number) => void;

const PATHS = {
  machineId:       `metadata.labels[${ LABELS.machineId }]`,
  nodeNameLabel:   `metadata.labels[${ LABELS.nodeName }]`,
  address:         `metadata.annotations[${ ANNOTATIONS.address }]`,
  internalAddress: `metadata.annotations[${ ANNOTATIONS.internalAddress }]`,
  joinUrl:         `metadata.annotations[${ ANNOTATIONS.joinUrl }]`,
  hostnameLabel:   'metadata.labels[kubernetes.io/hostname]',
};

function pathOf(c: Carried): string {
  return c.index >= 0 ? `${ c.path }[${ c.index }].address` : c.path;
}

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
      emit('address', value, kind, obj, base, i);
    } else if (type === 'Hostname' || type === 'InternalDNS') {
      emit('hostname', value, kind, obj, base, i);
    }
  }
}

function emitNodeInfo(emit: Emit, kind: SourceKind, obj: KubeObject, info: unknown): void {
  const nodeInfo = asObject(info);

  emit('systemUuid', asString(nodeInfo.systemUUID), kind, obj, 'status.nodeInfo.systemUUID');
  emit('osMachineId', asString(nodeInfo.machineID), kind, obj, 'status.nodeInfo.machineID');
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

    emit('address', annotation(s, ANNOTATIONS.address), 'planSecret', s, PATHS.address);
    emit('address', annotation(s, ANNOTATIONS.internalAddress), 'planSecret', s, PATHS.internalAddress);
    emit('address', joinUrlHost(annotation(s, ANNOTATIONS.joinUrl)), 'planSecret', s, PATHS.joinUrl);
  }
  if (o.machine) {
    const m = o.machine;

    emit('machineId', label(m, LABELS.machineId), 'machine', m, PATHS.machineId);
    emit('hostname', label(m, LABELS.nodeName), 'machine', m, PATHS.nodeNameLabel);
    emit('providerId', asString(specOf(m).providerID), 'machine', m, 'spec.providerID');
    emitAddressList(emit, 'machine', m, statusOf(m).addresses, 'status.addresses');
    emitNodeInfo(emit, 'machine', m, statusOf(m).nodeInfo);
  }
  if (o.infraMachine) {
    emitAddressList(emit, 'infraMachine', o.infraMachine, statusOf(o.infraMachine).addresses, 'status.addresses');
  }
  if (o.node) {
    const n = o.node;

    emit('hostname', nameOf(n), 'node', n, 'metadata.name');
    emit('hostname', label(n, 'kubernetes.io/hostname'), 'node', n, PATHS.hostnameLabel);
    emit('providerId', asString(specOf(n).providerID), 'node', n, 'spec.providerID');
    emitAddressList(emit, 'node', n, statusOf(n).addresses, 'status.addresses');
    emitNodeInfo(emit, 'node', n, statusOf(n).nodeInfo);
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
    const e = evidence(`Host ${ c.record.hostReport?.hostname ?? '?' }`, pathOf(c), c.raw);

    e.confirmed = true;

    return e;
  }

  return evidence(objectLabel(c.kind, c.obj as KubeObject), pathOf(c), c.raw);
}

/**
 * The relations of a record that has none: one frozen list for all of them, so that a large healthy cluster
 * allocates nothing; a record's own list is made when it gets its first relation.
 */
export const NO_RELATIONS = Object.freeze([]) as unknown as RelatedRecord[];

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
    if (r.related === NO_RELATIONS) {
      r.related = [];
    }
    r.related.push(entry);
  }

  return entry;
}

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
  const named: { r: NodeRecord; kind: 'node' | 'machine'; name: string; rule: string }[] = [];
  // Per cluster, the names of the Nodes and, per namespace, of the machines that findings name.
  const wanted = new Map<NodeRecord['cluster'], { nodes: Set<string>; machines: Map<string, Set<string>> }>();

  for (const r of records) {
    if (r.findings.length === 0 || !r.cluster) {
      continue;
    }
    for (const x of namedObjects(r)) {
      let w = wanted.get(r.cluster);

      if (!w) {
        w = { nodes: new Set(), machines: new Map() };
        wanted.set(r.cluster, w);
      }
      if (x.kind === 'node') {
        w.nodes.add(x.name);
      } else {
        const slash = x.name.indexOf('/');
        const ns = slash >= 0 ? x.name.slice(0, slash) : '';
        const names = w.machines.get(ns) ?? new Set<string>();

        names.add(slash >= 0 ? x.name.slice(slash + 1) : x.name);
        w.machines.set(ns, names);
      }
      named.push({
        r, kind: x.kind, name: x.name, rule: x.rule
      });
    }
  }
  if (named.length === 0) {
    return [];
  }
  // One pass over the records finds the named ones, by look-ups that make no key; only a hit makes one.
  const found = new Map<NodeRecord['cluster'], Map<string, NodeRecord>>();
  const keep = (r: NodeRecord, key: string) => {
    let byKey = found.get(r.cluster);

    if (!byKey) {
      byKey = new Map();
      found.set(r.cluster, byKey);
    }
    byKey.set(key, r);
  };

  for (const r of records) {
    const w = wanted.get(r.cluster);

    if (!w) {
      continue;
    }
    const { node, machine } = r.objects;

    if (node && w.nodes.has(nameOf(node) ?? '')) {
      keep(r, `node:${ nameOf(node) }`);
    }
    if (machine && w.machines.get(namespaceOf(machine) ?? '')?.has(nameOf(machine) ?? '')) {
      keep(r, `machine:${ objectLabel('machine', machine).slice(8) }`);
    }
  }
  const touched: NodeRecord[] = [];

  for (const {
    r, kind, name, rule
  } of named) {
    const other = found.get(r.cluster)?.get(`${ kind }:${ name }`);

    if (!other || other === r) {
      continue;
    }
    const mine = entryFor(r, other);
    const theirs = entryFor(other, r);

    if (!mine.names.includes(rule)) {
      mine.names.push(rule);
    }
    if (!theirs.namedBy.includes(rule)) {
      theirs.namedBy.push(rule);
    }
    touched.push(other);
  }

  return touched;
}
