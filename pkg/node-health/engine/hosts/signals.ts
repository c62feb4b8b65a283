/**
 * The values a record carries that may identify its host, from each of its objects, each in one spelling: ids,
 * addresses and host names, with the field they were read from, for the evidence when another record shares one.
 */
import type { Evidence, HostSignal, KubeObject, NodeRecord } from '../types';
import {
  annotation, asArray, asObject, asString, label, nameOf, specOf, statusOf
} from '../fields';
import { conditionStatus } from '../conditions';
import { ANNOTATIONS, LABELS } from '../vocabulary';
import { parseIPv4, parseIPv6 } from '../addresses';
import { evidence, objectLabel } from '../evidence';

/** Signals that identify a host by themselves; an address only makes it likely, a host name only supports. */
export const CERTAIN: ReadonlySet<HostSignal> = new Set(['machineId', 'systemUuid', 'osMachineId', 'providerId', 'hostReport']);

/** How the signals are shown, strongest first. */
export const SIGNAL_ORDER: readonly HostSignal[] = ['hostReport', 'machineId', 'systemUuid', 'osMachineId', 'providerId', 'address', 'hostname'];

type SourceKind = 'machine' | 'planSecret' | 'infraMachine' | 'mgmtNode' | 'node' | 'host';

/** One value a record carries; its evidence is written only when another record shares it. */
export interface Carried {
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
export type Emit = (signal: HostSignal, raw: string | null, kind: SourceKind, obj: KubeObject | null, path: string, index?: number) => void;

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

export function normalise(signal: HostSignal, raw: string): string | null {
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
export function emitSignals(r: NodeRecord, emit: Emit): void {
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
export function lacksAPart(r: NodeRecord): boolean {
  return r.objects.machine ? !r.objects.node : !!(r.objects.node || r.objects.mgmtNode || r.objects.planSecret);
}

export function hasReadyNode(r: NodeRecord): boolean {
  return !!r.objects.node && conditionStatus(r.objects.node, 'Ready') === 'True';
}

export function evidenceOf(c: Carried): Evidence {
  if (c.kind === 'host') {
    const e = evidence(`Host ${ c.record.hostReport?.hostname ?? '?' }`, pathOf(c), c.raw);

    e.confirmed = true;

    return e;
  }

  return evidence(objectLabel(c.kind, c.obj as KubeObject), pathOf(c), c.raw);
}
