/**
 * Host identity across records (engine/hosts.ts), on the ghost etcd machine and the orphan Node of dev-k3s as the
 * scenario builds them: every signal is first taken away from both, then given back one at a time, so each test
 * shows that one signal alone relates them (or does not), and that without it they are not related.
 */
import { diagnose, readHostReport } from '@pkg/node-health/engine';
import type { DiagnosisReport, KubeObject, NodeRecord } from '@pkg/node-health/engine';
import { identifyingAddress } from '@pkg/node-health/engine/hosts';
import { buildScenario, GHOST_MACHINE } from '../../../scenarios/catalog';
import { ghostHostReport } from '../../../scenarios/host-reports';
import { clusterObjects } from './helpers';

const s = buildScenario('ghost-etcd');
const ORPHAN = 'dev-k8s-node01';

function base(): KubeObject[] {
  return JSON.parse(JSON.stringify(clusterObjects(s, s.clusters[0].mgmtId)));
}

function find(objects: KubeObject[], kind: string, name: string, apiVersion?: string): KubeObject {
  const found = objects.find((o) => o.kind === kind && o.metadata?.name === name && (!apiVersion || o.apiVersion === apiVersion));

  if (!found) {
    throw new Error(`no ${ kind } ${ name }`);
  }

  return found;
}

const ghostMachine = (objects: KubeObject[]) => find(objects, 'Machine', GHOST_MACHINE);
const ghostSecret = (objects: KubeObject[]) => find(objects, 'Secret', `${ GHOST_MACHINE }-machine-plan`);
const orphanNode = (objects: KubeObject[]) => find(objects, 'Node', ORPHAN, 'v1');

/** The two records with nothing in common: other addresses, no host name, no ids. */
function apart(): KubeObject[] {
  const objects = base();
  const m = ghostMachine(objects);
  const secret = ghostSecret(objects);
  const node = orphanNode(objects);

  delete m.status.addresses;
  delete m.status.nodeInfo;
  secret.metadata.annotations['rke.cattle.io/address'] = '10.20.9.99';
  secret.metadata.annotations['rke.cattle.io/internal-address'] = '10.20.9.99';
  secret.metadata.annotations['rke.cattle.io/join-url'] = 'https://10.20.9.99:6443';
  node.status.addresses = [{ type: 'InternalIP', address: '10.20.1.21' }];

  return objects;
}

function run(objects: KubeObject[], hostReports: unknown[] = []): DiagnosisReport {
  return diagnose(objects, {
    now: s.now, defaultCluster: s.clusters[0].mgmtId, hostReports: hostReports.map(readHostReport)
  });
}

function ghostOf(report: DiagnosisReport): NodeRecord {
  return report.records.find((r) => r.machineName === GHOST_MACHINE && r.objects.machine) as NodeRecord;
}

function orphanOf(report: DiagnosisReport): NodeRecord {
  return report.records.find((r) => r.nodeName === ORPHAN && !r.objects.machine) as NodeRecord;
}

/** How the ghost is related to the orphan Node: null when it is not. */
function relation(report: DiagnosisReport) {
  const orphan = orphanOf(report);
  const entry = ghostOf(report).related.find((x) => x.key === orphan.key);

  return entry?.sameHost ? { sameHost: entry.sameHost, signals: entry.shared.map((x) => x.signal) } : null;
}

describe('host identity: the records start apart', () => {
  it('relates nothing when the ghost and the orphan share no signal', () => {
    const report = run(apart());

    expect(relation(report)).toBeNull();
    expect(orphanOf(report).related.filter((x) => x.sameHost)).toStrictEqual([]);
  });
});

describe('host identity: each signal, shared and not', () => {
  it.each([
    ['the plan secret\'s rke.cattle.io/address', (o: KubeObject[]) => {
      ghostSecret(o).metadata.annotations['rke.cattle.io/address'] = '10.20.1.21';
    }],
    ['the plan secret\'s rke.cattle.io/internal-address', (o: KubeObject[]) => {
      ghostSecret(o).metadata.annotations['rke.cattle.io/internal-address'] = '10.20.1.21';
    }],
    ['the plan secret\'s own join URL', (o: KubeObject[]) => {
      ghostSecret(o).metadata.annotations['rke.cattle.io/join-url'] = 'https://10.20.1.21:6443';
    }],
    ['the Machine\'s status.addresses', (o: KubeObject[]) => {
      ghostMachine(o).status.addresses = [{ type: 'ExternalIP', address: '10.20.1.21' }];
    }],
  ])('an address from %s makes them likely the same host', (_, give) => {
    const objects = apart();

    give(objects);
    expect(relation(run(objects))).toStrictEqual({ sameHost: 'likely', signals: ['address'] });
  });

  it('an address in another spelling is the same address (IPv6)', () => {
    const objects = apart();

    ghostSecret(objects).metadata.annotations['rke.cattle.io/address'] = 'fd00:20::21';
    orphanNode(objects).status.addresses = [{ type: 'InternalIP', address: 'FD00:0020:0:0:0:0:0:21' }];
    expect(relation(run(objects))).toStrictEqual({ sameHost: 'likely', signals: ['address'] });
  });

  it('a host name alone does not relate them: two hosts of one name are the duplicate-name case', () => {
    const objects = apart();

    ghostMachine(objects).status.addresses = [{ type: 'Hostname', address: 'DEV-K8S-NODE01' }];
    expect(relation(run(objects))).toBeNull();
  });

  it('a host name supports an address, in any case', () => {
    const objects = apart();

    ghostMachine(objects).status.addresses = [{ type: 'InternalIP', address: '10.20.1.21' }, { type: 'Hostname', address: 'DEV-K8S-NODE01' }];
    expect(relation(run(objects))).toStrictEqual({ sameHost: 'likely', signals: ['address', 'hostname'] });
  });

  it.each([
    ['systemUUID', 'systemUuid', 'C5042411-2062-4D7A-BD40-32DC66F9650C', 'c5042411-2062-4d7a-bd40-32dc66f9650c'],
    ['machineID', 'osMachineId', 'accc19a3b1b64af9b87aa086a4ad7ec9', 'accc19a3b1b64af9b87aa086a4ad7ec9'],
  ])('nodeInfo.%s the Machine shares with the Node makes them the same host', (field, signal, nodeValue, machineValue) => {
    const objects = apart();

    expect(orphanNode(objects).status.nodeInfo[field]).toBe(nodeValue);
    ghostMachine(objects).status.nodeInfo = { [field]: machineValue };
    expect(relation(run(objects))).toStrictEqual({ sameHost: 'certain', signals: [signal] });

    ghostMachine(objects).status.nodeInfo = { [field]: `${ machineValue.slice(0, -1) }0` };
    expect(relation(run(objects))).toBeNull();
  });

  it('a system UUID of zeros (firmware that reports none) is no one\'s', () => {
    const objects = apart();
    const zeros = '00000000-0000-0000-0000-000000000000';

    orphanNode(objects).status.nodeInfo.systemUUID = zeros;
    ghostMachine(objects).status.nodeInfo = { systemUUID: zeros };
    expect(relation(run(objects))).toBeNull();
  });

  it('the providerID the Machine and the Node share makes them the same host', () => {
    const objects = apart();

    ghostMachine(objects).spec.providerID = 'k3s://dev-k8s-node01';
    expect(relation(run(objects))).toStrictEqual({ sameHost: 'certain', signals: ['providerId'] });
    ghostMachine(objects).spec.providerID = 'k3s://dev-k8s-node07';
    expect(relation(run(objects))).toBeNull();
  });

  it('a host report joined to the ghost that names the orphan\'s Node makes them the same host', () => {
    const objects = apart();
    const doc = ghostHostReport(s);

    // Joined by the agent id the Machine carries; the host says it is dev-k8s-node01.
    expect(doc.machineId).toBe(ghostMachine(objects).metadata.labels['rke.cattle.io/machine-id']);
    const report = run(objects, [doc]);

    expect(ghostOf(report).hostReport).not.toBeNull();
    expect(relation(report)).toStrictEqual({ sameHost: 'certain', signals: ['hostReport'] });
    const shared = ghostOf(report).related[0].shared[0];

    expect(shared.evidence[0]).toMatchObject({
      object: 'Host dev-k8s-node01', path: 'hostname', confirmed: true
    });
    expect(shared.evidence[1]).toMatchObject({ object: `Node ${ ORPHAN }` });

    expect(relation(run(objects, [{ ...doc, hostname: 'dev-k8s-node09' }]))).toBeNull();
  });

  it('the agent id two records share makes them the same host: a host report joined to one by its plan secret', () => {
    const objects = apart();
    const other = 'custom-f489526f114a';
    const leftover = JSON.parse(JSON.stringify(ghostSecret(objects)));

    // The plan secret of the orphan's machine, left behind; the host's agent serves it, with the ghost's agent id.
    leftover.metadata.name = `${ other }-machine-plan`;
    leftover.metadata.uid = 'c0ffee00-0000-4000-8000-000000000001';
    leftover.metadata.labels['rke.cattle.io/machine-name'] = other;
    leftover.metadata.annotations['rke.cattle.io/address'] = '10.20.8.88';
    leftover.metadata.annotations['rke.cattle.io/internal-address'] = '10.20.8.88';
    leftover.metadata.annotations['rke.cattle.io/join-url'] = 'https://10.20.8.88:6443';
    objects.push(leftover);
    const doc = { ...ghostHostReport(s), hostname: 'somewhere-else' };
    const report = run(objects, [doc]);
    const secretRecord = report.records.find((r) => r.key.startsWith('secret:'))!;

    expect(secretRecord.hostReport).not.toBeNull();
    expect(ghostOf(report).related.find((x) => x.key === secretRecord.key)).toMatchObject({ sameHost: 'certain', shared: [{ signal: 'machineId' }] });

    expect(run(objects, [{ ...doc, machineId: 'f'.repeat(64) }]).records.find((r) => r.key === secretRecord.key)?.related).toStrictEqual([]);
  });
});

describe('host identity: what identifies no host', () => {
  it.each([
    ['loopback', '127.0.0.1'],
    ['link-local', '169.254.10.20'],
    ['unspecified', '0.0.0.0'],
    ['IPv6 loopback', '::1'],
    ['IPv6 link-local', 'fe80::1'],
    ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
  ])('a %s address both carry does not relate them', (_, address) => {
    const objects = apart();

    ghostSecret(objects).metadata.annotations['rke.cattle.io/address'] = address;
    orphanNode(objects).status.addresses = [{ type: 'InternalIP', address }];
    expect(relation(run(objects))).toBeNull();
  });

  it('an address two records with a Ready Node carry (a NAT\'s external address) relates neither to a third', () => {
    const objects = apart();
    const nat = '203.0.113.7';
    const second = JSON.parse(JSON.stringify(orphanNode(objects)));

    second.metadata.name = 'dev-k8s-node99';
    second.metadata.uid = 'c0ffee00-0000-4000-8000-000000000002';
    second.metadata.labels['kubernetes.io/hostname'] = 'dev-k8s-node99';
    objects.push(second);
    for (const n of [orphanNode(objects), second]) {
      n.status.addresses = [{ type: 'ExternalIP', address: nat }];
    }
    ghostMachine(objects).status.addresses = [{ type: 'ExternalIP', address: nat }];
    const report = run(objects);

    expect(report.records.flatMap((r) => r.related.filter((x) => x.sameHost))).toStrictEqual([]);

    // With one of them not Ready (a host renamed, its old Node left behind), the address may be one host's again.
    second.status.conditions.find((c: KubeObject) => c.type === 'Ready').status = 'Unknown';
    expect(ghostOf(run(objects)).related.filter((x) => x.sameHost).map((x) => x.node).sort()).toStrictEqual([ORPHAN, 'dev-k8s-node99']);
  });

  it('two records of two clusters are never related, whatever they share', () => {
    const objects = apart();
    const vs = buildScenario('windows-node-ref');
    const strangers = JSON.parse(JSON.stringify(clusterObjects(vs, vs.clusters[0].mgmtId)));
    const win = strangers.find((o: KubeObject) => o.kind === 'Node' && o.apiVersion === 'v1' && o.metadata.name === 'win-worker-01');

    // A Node of cluster vs-win with the ghost's name and address, and its own ids.
    win.status.addresses = [{ type: 'InternalIP', address: '10.20.9.99' }, { type: 'Hostname', address: ORPHAN }];
    const report = diagnose([...objects, ...strangers], { now: s.now });
    const ghost = ghostOf(report);

    expect(ghost.related.filter((x) => x.sameHost)).toStrictEqual([]);
    expect(report.records.filter((r) => r.cluster?.name === 'vs-win').flatMap((r) => r.related.map((x) => x.key)).filter((k) => k === ghost.key)).toStrictEqual([]);
  });

  it('a healthy cluster, every machine with its Node, has no relation', () => {
    const healthy = buildScenario('healthy');
    const report = diagnose(clusterObjects(healthy, healthy.clusters[0].mgmtId), { now: healthy.now });

    expect(report.records.length).toBeGreaterThan(0);
    expect(report.records.flatMap((r) => r.related)).toStrictEqual([]);
  });
});

describe('identifyingAddress', () => {
  it.each([
    ['10.20.1.21', '10.20.1.21'],
    [' 10.20.1.21 ', '10.20.1.21'],
    ['FD00::21', 'fd00:0:0:0:0:0:0:21'],
    ['[fd00::21]', 'fd00:0:0:0:0:0:0:21'],
    ['::ffff:10.20.1.21', '10.20.1.21'],
  ])('%s reads as %s', (raw, expected) => {
    expect(identifyingAddress(raw)).toBe(expected);
  });

  it.each(['127.0.0.53', '169.254.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255', '::', '::1', 'fe80::abcd', 'ff02::1', 'not-an-address', '010.20.1.21'])(
    '%s identifies no host', (raw) => {
      expect(identifyingAddress(raw)).toBeNull();
    });
});
