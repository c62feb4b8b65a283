import { diagnose } from '@pkg/node-health/engine';
import type { KubeObject } from '@pkg/node-health/engine';
import {
  createBundle, createObfuscator, parseIPv4, parseIPv6, redactObjects
} from '@pkg/node-health/export';
import { cliTranslator } from '../../../cli/l10n';
import { SCENARIO_NAMES } from '../../../scenarios/catalog';
import { kubectlObjects, scenario, steveObjects } from './fixtures';

const t = cliTranslator('en-us');
const NOW = '2026-01-15T08:00:00Z';

function node(name: string, extra: Record<string, any> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind:       'Node',
    metadata:   {
      name,
      labels:      { 'kubernetes.io/hostname': name, 'rke.cattle.io/machine': `uid-${ name }` },
      annotations: { 'rke2.io/internal-ip': '192.168.10.5', 'alpha.kubernetes.io/provided-node-ip': 'fd00:10::5' },
    },
    spec:   { providerID: `rke2://${ name }` },
    status: {
      addresses:  [{ type: 'InternalIP', address: '192.168.10.5' }, { type: 'Hostname', address: name }],
      conditions: [{
        type: 'Ready', status: 'True', message: `kubelet on ${ name } (192.168.10.5) is posting ready status`, lastTransitionTime: NOW
      }],
    },
    ...extra,
  };
}

function machine(name: string, nodeName: string | null, extra: Record<string, any> = {}): KubeObject {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta1',
    kind:       'Machine',
    metadata:   {
      name, namespace: 'fleet-default', uid: `uid-${ nodeName ?? name }`, labels: { 'cluster.x-k8s.io/cluster-name': 'c1' }
    },
    spec:   { clusterName: 'c1', ...(nodeName ? { providerID: `rke2://${ nodeName }` } : {}) },
    status: { phase: 'Running', ...(nodeName ? { nodeRef: { kind: 'Node', name: nodeName } } : {}) },
    ...extra,
  };
}

describe('address parsing', () => {
  it.each([
    ['10.0.0.1', 167772161],
    ['255.255.255.255', 4294967295],
    ['10.0.0.256', null],
    ['10.0.0', null],
    ['01.2.3.4.5', null],
  ])('IPv4 %s', (text, value) => {
    expect(parseIPv4(text)).toBe(value);
  });

  it.each([
    ['fd00::5', [0xfd00, 0, 0, 0, 0, 0, 0, 5]],
    ['FD00:0:0:0:0:0:0:5', [0xfd00, 0, 0, 0, 0, 0, 0, 5]],
    ['::ffff:10.0.0.1', [0, 0, 0, 0, 0, 0xffff, 0x0a00, 0x0001]],
    ['2001:db8:1:2:3:4:5:6', [0x2001, 0xdb8, 1, 2, 3, 4, 5, 6]],
    ['12:30:45', null],
    ['aa:bb:cc:dd:ee:ff', null],
    ['1::2::3', null],
    ['2001:db8:1:2:3:4:5:6:7', null],
  ])('IPv6 %s', (text, groups) => {
    expect(parseIPv6(text)).toEqual(groups);
  });
});

describe('createObfuscator', () => {
  const objects = [
    node('worker-a.corp.example.com'),
    node('worker-b'),
    machine('custom-0123456789ab', 'worker-a.corp.example.com'),
    machine('c1-pool1-abcde-xyz12', 'c1-pool1-abcde-xyz12'),
    {
      apiVersion: 'management.cattle.io/v3',
      kind:       'Node',
      metadata:   {
        name: 'm-abc12', namespace: 'c-m-1', labels: { 'management.cattle.io/nodename': 'worker-b' }
      },
      spec:       { requestedHostname: 'worker-b' },
      status:     { nodeName: 'worker-b', internalNodeStatus: { addresses: [{ type: 'InternalIP', address: '192.168.10.6' }] } },
    },
  ];
  const obf = createObfuscator(objects);

  it('gives each host one pseudonym, its domain another, and keeps case as a whole', () => {
    const a = obf.text('worker-a');

    expect(a).toMatch(/^host-\d{3}$/);
    expect(obf.text('worker-a.corp.example.com')).toBe(`${ a }.domain-001.invalid`);
    expect(obf.text('WORKER-A')).toBe(a.toUpperCase());
    expect(obf.text('rancher.corp.example.com')).toBe('rancher.domain-001.invalid');
    expect(obf.text('kubectl describe node worker-b; ssh worker-b:22 rke2://worker-b')).toBe(`kubectl describe node ${ obf.text('worker-b') }; ssh ${ obf.text('worker-b') }:22 rke2://${ obf.text('worker-b') }`);
    expect(obf.text('worker-b')).not.toBe(a);
  });

  it('maps addresses consistently, whatever their IPv6 spelling, and keeps loopback and times', () => {
    const v4 = obf.text('192.168.10.5');

    expect(v4).toMatch(/^10\.255\.\d+\.\d+$/);
    expect(obf.text('dial tcp 192.168.10.5:6443: i/o timeout')).toBe(`dial tcp ${ v4 }:6443: i/o timeout`);
    expect(obf.text('podCIDR 192.168.10.5/24')).toBe(`podCIDR ${ v4 }/24`);
    expect(obf.text('fd00:10::5')).toBe(obf.text('FD00:10:0:0:0:0:0:5'));
    expect(obf.text('fd00:10::5')).toMatch(/^2001:db8::/);
    expect(obf.text('127.0.0.1 ::1 0.0.0.0 at 12:30:45 mac aa:bb:cc:dd:ee:ff v1.30.4+rke2r1 10.0.20348.2227'))
      .toBe('127.0.0.1 ::1 0.0.0.0 at 12:30:45 mac aa:bb:cc:dd:ee:ff v1.30.4+rke2r1 10.0.20348.2227');
  });

  it('keeps machine, cluster and other object names, also a node-driver host named like its machine', () => {
    expect(obf.text('custom-0123456789ab c1-pool1-abcde-xyz12 m-abc12 fleet-default c-m-1'))
      .toBe('custom-0123456789ab c1-pool1-abcde-xyz12 m-abc12 fleet-default c-m-1');
  });

  it('does not depend on the order of the objects', () => {
    expect(createObfuscator([...objects].reverse()).mapping()).toEqual(obf.mapping());
  });

  it('never hands out a pseudonym that is a real name or address', () => {
    const tricky = createObfuscator([node('host-001'), node('zeta'), node('alpha', { status: { addresses: [{ type: 'InternalIP', address: '10.255.0.1' }] } })]);
    const { hosts, ips } = tricky.mapping();

    expect(Object.values(hosts)).not.toContain('host-001');
    expect(Object.values(ips)).not.toContain('10.255.0.1');
    expect(new Set(Object.values(hosts)).size).toBe(Object.keys(hosts).length);
  });

  it('leaves the joins intact: the same records and findings come out', () => {
    const notReady = node('worker-c', {
      status: {
        conditions: [{
          type: 'Ready', status: 'False', reason: 'KubeletNotReady', message: 'runtime down on worker-c', lastTransitionTime: '2026-01-01T00:00:00Z'
        }]
      }
    });
    const input = [...objects, notReady, machine('custom-bbbbbbbbbbbb', 'worker-c')];
    const o = createObfuscator(input);
    const before = diagnose(input, { now: NOW });
    const after = diagnose(input.map((x) => o.object(x)), { now: NOW });
    const summary = (r: typeof before) => r.records.map((x) => [x.key, x.status, x.findings.map((f) => f.rule)]).sort();

    expect(summary(after)).toEqual(summary(before).map(([key, status, rules]) => [o.text(key as string), status, rules]).sort());
    expect(after.records.find((r) => r.machineName === 'custom-bbbbbbbbbbbb')?.findings.map((f) => f.fix.map((s) => s.command ?? ''))).toEqual(
      before.records.find((r) => r.machineName === 'custom-bbbbbbbbbbbb')?.findings.map((f) => f.fix.map((s) => o.text(s.command ?? '')))
    );
  });
});

/** Downstream Node names, hostname labels and every address in the objects, as the scenario set them. */
function originals(objects: KubeObject[]): { hosts: string[]; ips: string[]; machines: Set<string> } {
  const machines = new Set(objects.filter((o) => o.kind === 'Machine').map((o) => o.metadata.name as string));
  const hosts = new Set<string>();

  for (const o of objects) {
    if (o.kind === 'Node' && o.apiVersion === 'v1') {
      hosts.add(o.metadata.name);
      hosts.add(o.metadata.labels?.['kubernetes.io/hostname']);
    }
    if (o.kind === 'Node' && o.apiVersion === 'management.cattle.io/v3') {
      hosts.add(o.spec?.requestedHostname);
    }
  }
  const text = JSON.stringify(objects);
  const ips = new Set((text.match(/(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?![\w]|\.\d)/g) ?? []).filter((ip) => parseIPv4(ip) !== null && !/^(127\.|0\.0\.0\.0)/.test(ip)));

  return {
    hosts: [...hosts].filter((h) => h && !machines.has(h)), ips: [...ips], machines
  };
}

describe.each(SCENARIO_NAMES)('obfuscated bundle of scenario %s', (name) => {
  const s = scenario(name);
  const objects = kubectlObjects(s);
  const bundle = createBundle({
    objects, now: s.now, t, obfuscate: true
  });
  const text = JSON.stringify(bundle);
  const { hosts, ips, machines } = originals(objects);
  const mapper = createObfuscator(redactObjects(objects).objects);

  it('holds no original hostname or IP address', () => {
    expect(hosts.filter((h) => text.toLowerCase().includes(h.toLowerCase()))).toEqual([]);
    expect(ips.filter((ip) => new RegExp(`(?<![\\w.])${ ip.replace(/\./g, '\\.') }(?![\\w]|\\.\\d)`).test(text))).toEqual([]);
    expect(bundle.obfuscated).toBe(true);
  });

  it('keeps every machine name', () => {
    expect([...machines].filter((m) => !text.includes(m))).toEqual([]);
  });

  it('reads the same host the same everywhere: objects, records, evidence and fix commands', () => {
    for (const record of bundle.records) {
      const obj = bundle.objects.find((o) => o.kind === 'Node' && o.apiVersion === 'v1' && o.metadata.name === record.node);

      if (record.node && record.chain.some((c) => c.kind === 'node' && c.state !== 'missing' && c.state !== 'waiting' && c.state !== 'not-loaded')) {
        expect(obj).toBeDefined();
      }
    }
    for (const h of hosts) {
      const pseudonym = mapper.text(h);

      expect(pseudonym).not.toBe(h);
      expect(text).toContain(pseudonym);
    }
    const commands = bundle.records.flatMap((r) => r.findings.flatMap((f) => f.fix.map((s) => s.command ?? '')));

    for (const c of commands.filter((x) => x.startsWith('kubectl describe node -- '))) {
      const nodeName = c.slice('kubectl describe node -- '.length);

      expect(bundle.objects.some((o) => o.kind === 'Node' && o.metadata.name === nodeName)).toBe(true);
    }
  });

  it('gives the same findings when diagnosed again', () => {
    const before = diagnose(objects, { now: s.now });
    const after = diagnose(bundle.objects, { now: bundle.createdAt, availability: bundle.availability });
    const summary = (r: typeof before, key: (k: string) => string) => r.records.map((x) => `${ key(x.key) } ${ x.status } ${ x.findings.map((f) => f.rule).join(',') }`).sort();

    expect(summary(after, (k) => k)).toEqual(summary(before, (k) => mapper.text(k)));
    expect(bundle.records.map((r) => `${ r.key } ${ r.status } ${ r.findings.map((f) => f.rule).join(',') }`).sort()).toEqual(summary(after, (k) => k));
  });
});

describe('obfuscated bundle of Steve-shaped objects', () => {
  it('holds no original hostname or IP address and keeps the downstream cluster of each Node', () => {
    const s = scenario('every-failure');
    const objects = steveObjects(s);
    const bundle = createBundle({
      objects, now: s.now, t, obfuscate: true
    });
    const text = JSON.stringify(bundle);
    const { hosts, ips } = originals(kubectlObjects(s));

    expect(hosts.filter((h) => text.toLowerCase().includes(h.toLowerCase()))).toEqual([]);
    expect(ips.filter((ip) => text.includes(`"${ ip }"`) || text.includes(` ${ ip }`))).toEqual([]);
    expect(text).not.toContain('rancher.example.com');
    const after = diagnose(bundle.objects, { now: bundle.createdAt, availability: bundle.availability });

    expect(after.records.filter((r) => r.objects.node).every((r) => r.cluster?.mgmtId === s.clusters[0].mgmtId)).toBe(true);
  });
});

describe('createObfuscator: every host name in what is kept', () => {
  const obf = createObfuscator([
    node('dev-k8s-master01'),
    node('edge-01.site.corp.example'),
    machine('custom-0123456789ab', 'dev-k8s-master01'),
    machine('dev-k8s-master01-pool-xyz12', null),
    {
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind:       'Machine',
      metadata:   { name: 'custom-2', namespace: 'fleet-default' },
      status:     {
        conditions: [{
          type:    'Ready',
          status:  'False',
          message: 'pull registry.corp.example:5000/rancher/agent failed via http://proxy.example:3128; db mysql://db.internal.corp.example:3306; server https://rancher.corp.example/v3',
        }],
      },
    },
  ]);

  it.each([
    ['dev-k8s-master01_backup', /^host-\d+_backup$/],
    ['vsphere^dev-k8s-master01-vol', /^vsphere\^host-\d+-vol$/],
    ['DEV-K8S-MASTER01.lab', /^HOST-\d+\.lab$/],
    ['edge-01.site.corp.example', /^host-\d+\.domain-\d+\.invalid$/],
    ['https://rancher.corp.example/v3/settings', /^https:\/\/host-\d+\.domain-\d+\.invalid\/v3\/settings$/],
    ['registry.corp.example:5000/rancher/agent', /^host-\d+\.domain-\d+\.invalid:5000\/rancher\/agent$/],
    ['http://proxy.example:3128', /^http:\/\/host-\d+\.domain-\d+\.invalid:3128$/],
    ['mysql://db.internal.corp.example:3306', /^mysql:\/\/host-\d+\.domain-\d+\.invalid:3306$/],
  ])('replaces the host in %s', (text, pseudonym) => {
    expect(obf.text(text)).toMatch(pseudonym);
  });

  it.each([
    'cluster.x-k8s.io/v1beta1', 'machines.cluster.x-k8s.io', 'rke-machine.cattle.io.vmwarevspheremachine', 'node-role.kubernetes.io/etcd',
    '/etc/rancher/rke2/config.yaml', 'custom-0123456789ab', 'dev-k8s-master01-pool-xyz12', 'the registry answered', 'fleet-default',
  ])('leaves %s as it is', (text) => {
    expect(obf.text(text)).toBe(text);
  });
});
