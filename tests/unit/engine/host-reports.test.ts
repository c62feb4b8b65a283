/**
 * Host reports as evidence: joined to their machine by the plan secret the host serves or by the machine id,
 * confirming findings ("confirmed": true on the finding and on the evidence read on the host), firing the host
 * rules, listed when they match no machine, and adding nothing on a healthy host. The reports are the Linux
 * script's own output on the fixture hosts, or the shapes in scenarios/host-reports.ts (Windows).
 */
import {
  diagnose, readHostReport, resolveConfig, HostReportError, HOST_CONFIRMATIONS
} from '@pkg/node-health/engine';
import type {
  DiagnosisReport, Finding, HostReport, NodeRecord, RuleContext
} from '@pkg/node-health/engine';
import {
  buildScenario, DUPLICATE_NAME_MACHINE, EVERY_FAILURE_EXPECTED, GHOST_MACHINE, WINDOWS_CASE_MACHINE
} from '../../../scenarios/catalog';
import { buildCluster } from '../../../scenarios/builders';
import { ghostHostReport, linuxHostReport, windowsHostReport } from '../../../scenarios/host-reports';
import type { Scenario } from '../../../scenarios/types';
import { runHostCheck } from '../host-check/fixture-host';
import { HOSTS } from '../host-check/hosts';
import { diagnoseScenario } from './helpers';

const ghost = buildScenario('ghost-etcd');
const every = buildScenario('every-failure');
const windows = buildScenario('windows-node-ref');
const healthy = buildScenario('healthy');

const machineOf = (s: Scenario, name: string) => s.objects.find((o) => o.kind === 'Machine' && o.metadata?.name === name) as any;

function withHost(s: Scenario, ...docs: Record<string, any>[]): DiagnosisReport {
  return diagnoseScenario(s, 'kubectl', { hostReports: docs.map(readHostReport) });
}

function record(report: DiagnosisReport, machine: string): NodeRecord {
  const r = report.records.find((x) => x.machineName === machine && x.objects.machine);

  if (!r) {
    throw new Error(`no record for ${ machine }`);
  }

  return r;
}

function finding(r: NodeRecord, rule: string): Finding {
  const f = r.findings.find((x) => x.rule === rule);

  if (!f) {
    throw new Error(`${ r.machineName }: no ${ rule } (has ${ r.findings.map((x) => x.rule).join(', ') })`);
  }

  return f;
}

/** The script's own report on a fixture host, pointed at one of a scenario's machines. */
function scriptReport(fixture: keyof typeof HOSTS, s: Scenario, machine: string, via: 'plan-secret' | 'machine-id' = 'plan-secret'): Record<string, any> {
  const json = runHostCheck(HOSTS[fixture]).json;

  if (via === 'plan-secret') {
    json.connectionInfo.secretName = `${ machine }-machine-plan`;
  } else {
    json.machineId = machineOf(s, machine).metadata.labels['rke.cattle.io/machine-id'];
  }

  return json;
}

/** The machine of the every-failure scenario whose expected finding is this rule. */
function machineExpecting(rule: string): string {
  return Object.keys(EVERY_FAILURE_EXPECTED).find((m) => EVERY_FAILURE_EXPECTED[m] === rule) as string;
}

/** The every-failure machine whose expected finding is `rule`, diagnosed with the host check's `fixture` run on its host. */
function onItsHost(rule: string, fixture: keyof typeof HOSTS): { machine: string; r: NodeRecord; f: Finding } {
  const machine = machineExpecting(rule);
  const r = record(withHost(every, scriptReport(fixture, every, machine)), machine);

  return {
    machine, r, f: finding(r, rule)
  };
}

describe('host reports in the diagnosis', () => {
  it('seed 000: the ghost machine\'s host confirms agent-never-checked-in, naming the log line\'s time', () => {
    const report = withHost(ghost, ghostHostReport(ghost));
    const r = record(report, GHOST_MACHINE);
    const f = finding(r, 'agent-never-checked-in');

    expect(report.hosts).toEqual([expect.objectContaining({ record: r.key, by: 'machine-id' })]);
    expect(r.hostReport?.hostname).toBe('dev-k8s-node01');
    expect(f.confirmed).toBe(true);
    expect(f.confirmation).toEqual({
      key:  'nodeHealth.confirmed.agentCredentialsOtherSecret',
      args: {
        host: 'dev-k8s-node01', count: 1, last: '2026-01-15T08:04:03Z', secret: 'custom-f489526f114a-machine-plan'
      },
    });
    const fromHost = f.evidence.filter((e) => e.confirmed);

    expect(fromHost.every((e) => e.object === 'Host dev-k8s-node01')).toBe(true);
    expect(fromHost).toContainEqual({
      object: 'Host dev-k8s-node01', path: 'signatures[agent-credentials].last', value: '2026-01-15T08:04:03Z', confirmed: true
    });
    expect(f.evidence.filter((e) => !e.confirmed).every((e) => !e.object.startsWith('Host '))).toBe(true);
    // The other findings of the record are not the host's to confirm.
    expect(r.findings.filter((x) => x.rule !== 'agent-never-checked-in').every((x) => !x.confirmed)).toBe(true);
  });

  it('joins by the plan secret the host serves, before the machine id', () => {
    const doc = scriptReport('credentialsRefused', ghost, GHOST_MACHINE);
    const report = withHost(ghost, doc);

    expect(report.hosts[0]).toMatchObject({ record: `machine:fleet-default/${ GHOST_MACHINE }`, by: 'plan-secret' });
    expect(finding(record(report, GHOST_MACHINE), 'agent-never-checked-in').confirmation?.key).toBe('nodeHealth.confirmed.agentCredentials');
  });

  it('a report that matches no machine is listed as such and changes no record', () => {
    const doc: Record<string, any> = {
      ...linuxHostReport(ghost, GHOST_MACHINE), hostname: 'stray-01', machineId: 'f'.repeat(64)
    };

    doc.connectionInfo = { ...doc.connectionInfo, secretName: 'custom-000000000000-machine-plan' };
    const report = withHost(ghost, doc);
    const plain = diagnoseScenario(ghost);

    expect(report.hosts).toEqual([expect.objectContaining({ record: null, by: null })]);
    expect(report.hosts[0].report.hostname).toBe('stray-01');
    expect(report.records.every((r) => r.hostReport === null)).toBe(true);
    expect(report.records.map((r) => r.findings)).toEqual(plain.records.map((r) => r.findings));
  });

  it('a report from a host whose machine is healthy adds nothing', () => {
    const machine = healthy.objects.find((o) => o.kind === 'Machine')?.metadata?.name as string;
    const plain = diagnoseScenario(healthy);
    const report = withHost(healthy, scriptReport('healthy', healthy, machine), scriptReport('staleWatch', healthy, machine));

    expect(report.hosts.map((h) => h.by)).toEqual(['plan-secret', 'plan-secret']);
    expect(record(report, machine).hostReport).not.toBeNull();
    expect(report.counts).toEqual(plain.counts);
    expect(report.records.map((r) => [r.status, r.findings])).toEqual(plain.records.map((r) => [r.status, r.findings]));
  });

  it('connection-info-broken: an empty connection info file and the EOF signature', () => {
    const machine = machineExpecting('agent-never-checked-in');
    const report = withHost(every, scriptReport('emptyConnectionInfo', every, machine, 'machine-id'));
    const r = record(report, machine);
    const f = finding(r, 'connection-info-broken');

    expect(report.hosts[0].by).toBe('machine-id');
    expect(f.severity).toBe('error');
    expect(f.confirmed).toBe(true);
    expect(f.args).toEqual({ file: '/var/lib/rancher/agent/rancher2_connection_info.json', host: 'dev-k8s-node01' });
    expect(f.evidence).toEqual(expect.arrayContaining([
      expect.objectContaining({
        path: 'connectionInfo.size', value: 0, confirmed: true
      }),
      expect.objectContaining({ path: 'connectionInfo.parses', value: false }),
      expect.objectContaining({ path: 'signatures[connection-info-eof].last', value: '2026-01-15T07:30:00Z' }),
    ]));
    expect(f.since).toBe('2026-01-15T07:29:55Z');
    expect(r.findings.map((x) => x.rule).indexOf('connection-info-broken')).toBeLessThan(r.findings.map((x) => x.rule).indexOf('agent-never-checked-in'));
  });

  it('agent-ca-untrusted: the fatal x509 and strict CA signatures', () => {
    const report = withHost(ghost, scriptReport('fatalX509', ghost, GHOST_MACHINE));
    const f = finding(record(report, GHOST_MACHINE), 'agent-ca-untrusted');

    expect(f.confirmed).toBe(true);
    expect(f.args).toEqual({ host: 'dev-k8s-node01', server: 'https://rancher.example.com' });
    expect(f.evidence.map((e) => e.path)).toEqual(expect.arrayContaining(['signatures[ca-untrusted-fatal].count', 'signatures[ca-strict-no-root].last']));
    expect(f.since).toBe('2026-01-15T07:40:01Z');
  });

  it('agent-watch-stale: the "too old" signature while the plan waits', () => {
    const machine = machineExpecting('plan-not-applied');
    const r = record(withHost(every, scriptReport('staleWatch', every, machine)), machine);
    const f = finding(r, 'agent-watch-stale');

    expect(f.confirmed).toBe(true);
    expect(f.evidence).toEqual(expect.arrayContaining([
      expect.objectContaining({ path: 'signatures[secret-too-old].count', value: 2 }),
      expect.objectContaining({ path: 'signatures[secret-older-than-last].count', value: 1 }),
    ]));
    expect(r.status).toBe('error');
  });

  it('node-name-mismatch is confirmed by the Windows host\'s own name', () => {
    const report = withHost(windows, windowsHostReport(windows, WINDOWS_CASE_MACHINE, 'WIN-WORKER-01'));
    const f = finding(record(report, WINDOWS_CASE_MACHINE), 'node-name-mismatch');

    expect(report.hosts[0].by).toBe('plan-secret');
    expect(f.confirmed).toBe(true);
    expect(f.confirmation).toEqual({
      key:  'nodeHealth.confirmed.hostName',
      args: {
        host: 'WIN-WORKER-01', name: 'WIN-WORKER-01', lower: 'win-worker-01'
      }
    });
    expect(f.evidence).toContainEqual({
      object: 'Host WIN-WORKER-01', path: 'hostname', value: 'WIN-WORKER-01', confirmed: true
    });
    // A host whose name is already lower case does not confirm a case mismatch.
    const lower = withHost(windows, windowsHostReport(windows, WINDOWS_CASE_MACHINE, 'win-worker-01'));

    expect(finding(record(lower, WINDOWS_CASE_MACHINE), 'node-name-mismatch').confirmed).toBeUndefined();
  });

  it('waiting-for-node-ref is confirmed by "Node password rejected"', () => {
    const { f } = onItsHost('waiting-for-node-ref', 'nodePasswordRejected');

    expect(f.confirmed).toBe(true);
    expect(f.confirmation).toEqual({
      key:  'nodeHealth.confirmed.nodePassword',
      args: {
        host: 'dev-k8s-node01', count: 2, last: '2026-01-15T08:02:00Z'
      }
    });
  });

  it('plan-apply-failed is confirmed by the agent\'s "error executing instruction", and only that finding', () => {
    const { machine, r, f } = onItsHost('plan-apply-failed', 'planInstructionFailed');

    expect(f.confirmed).toBe(true);
    expect(f.confirmation).toEqual({
      key:  'nodeHealth.confirmed.planInstructionFailed',
      args: {
        host: 'dev-k8s-node01', count: 2, last: '2026-01-15T08:50:00Z'
      }
    });
    expect(f.evidence).toContainEqual({
      object: 'Host dev-k8s-node01', path: 'signatures[plan-instruction-failed].count', value: 2, confirmed: true
    });
    expect(r.findings.filter((x) => x.confirmed).map((x) => x.rule)).toEqual(['plan-apply-failed']);
    // A healthy host's log confirms nothing.
    const healthy = withHost(every, scriptReport('healthy', every, machine));

    expect(finding(record(healthy, machine), 'plan-apply-failed').confirmed).toBeUndefined();
  });

  it('probes-failing of kube-controller-manager and kube-scheduler is confirmed by their expired certificates', () => {
    const now = '2026-03-01T10:00:00Z';
    const built = buildCluster({
      name:              'certs',
      mgmtId:            'c-m-cert0001',
      kind:              'custom',
      kubernetesVersion: 'v1.29.4+rke2r1',
      now,
      createdAgo:        '400d',
      nodes:             [{
        hostname: 'old-cp-01', roles: { etcd: true, controlPlane: true }, address: '10.0.0.1', createdAgo: '400d', agent: 'probes-failing', unhealthyProbes: ['kube-controller-manager', 'kube-scheduler'],
      }],
    });
    const objects = [...built.local, ...built.downstream];
    const machine = built.local.find((o) => o.kind === 'Machine')?.metadata?.name as string;
    const doc = runHostCheck(HOSTS.expiredCertificates).json;

    doc.connectionInfo.secretName = `${ machine }-machine-plan`;
    const report = diagnose(objects, { now, hostReports: [readHostReport(doc)] });
    const f = finding(record(report, machine), 'probes-failing');

    expect(f.confirmed).toBe(true);
    expect(f.confirmation?.args).toEqual({
      host: 'dev-k8s-node01', certificates: 'kube-controller-manager, kube-scheduler', notAfter: '2026-01-02T03:12:44Z'
    });
    // Certificates still valid at the diagnosis time confirm nothing.
    const early = diagnose(objects, { now: '2025-12-01T00:00:00Z', hostReports: [readHostReport(doc)] });

    expect(record(early, machine).findings.find((x) => x.rule === 'probes-failing')?.confirmed).toBeUndefined();
  });

  it('an old fatal line on a Windows host whose agent runs and whose plan is applied fires nothing', () => {
    const machine = windows.objects.find((o) => o.kind === 'Machine' && o.metadata?.labels?.['cattle.io/os'] !== 'windows')?.metadata?.name as string;
    const doc = windowsHostReport(windows, machine, 'LNX-AS-WIN', {
      signatures: [{
        id: 'ca-untrusted-fatal', source: 'agent', count: 1, first: '2026-01-01T00:00:00Z', last: '2026-01-01T00:00:00Z', sample: 'level=fatal x509: certificate signed by unknown authority'
      }],
    });
    const plain = diagnoseScenario(windows);
    const report = withHost(windows, doc);

    expect(report.hosts[0].record).not.toBeNull();
    expect(record(report, machine).findings).toEqual(record(plain, machine).findings);
    // The same line while the agent is stopped is the cause.
    const stopped = withHost(windows, { ...doc, agent: { ...doc.agent, state: 'stopped' } });

    expect(record(stopped, machine).findings.map((f) => f.rule)).toContain('agent-ca-untrusted');
  });

  it('duplicate-node-name is confirmed by "Node password rejected", serving-certs-expired by the certificate dates', () => {
    const dup = buildScenario('duplicate-node-name');
    const dupMachine = machineOf(dup, DUPLICATE_NAME_MACHINE);
    const password = runHostCheck(HOSTS.nodePasswordRejected).json;

    password.connectionInfo.secretName = `${ DUPLICATE_NAME_MACHINE }-machine-plan`;
    password.connectionInfo.namespace = dupMachine.metadata.namespace;
    const dupFinding = finding(record(withHost(dup, password), DUPLICATE_NAME_MACHINE), 'duplicate-node-name');

    expect(dupFinding.confirmed).toBe(true);
    expect(dupFinding.confirmation?.key).toBe('nodeHealth.confirmed.nodePassword');

    const certs = buildScenario('serving-certs');
    const expected = Object.entries(certs.expected).find(([, rules]) => rules.includes('serving-certs-expired'))?.[0] as string;
    const doc = runHostCheck(HOSTS.expiredCertificates).json;

    doc.connectionInfo.secretName = `${ expected }-machine-plan`;
    doc.connectionInfo.namespace = machineOf(certs, expected).metadata.namespace;
    doc.certificates = doc.certificates.map((c: any) => (c.name === 'kubelet' ? c : { ...c, notAfter: new Date(Date.parse(certs.now) - 86400000).toISOString() }));
    const certFinding = finding(record(withHost(certs, doc), expected), 'serving-certs-expired');

    expect(certFinding.confirmed).toBe(true);
    expect(certFinding.evidence.filter((e) => e.confirmed).map((e) => e.path)).toEqual(['certificates[kube-controller-manager].notAfter', 'certificates[kube-scheduler].notAfter']);
  });

  it('has confirmations ready for duplicate-node-name and serving-certs-expired: the node password signature, the certificate dates', () => {
    const r = record(diagnoseScenario(ghost), GHOST_MACHINE);
    const hit = {
      evidence: [], fix: [], since: null
    };
    const ctx = { now: Date.parse('2026-03-01T00:00:00Z'), config: resolveConfig() } as unknown as RuleContext;
    const password = readHostReport(runHostCheck(HOSTS.nodePasswordRejected).json);
    const certificates = readHostReport(runHostCheck(HOSTS.expiredCertificates).json);

    expect(HOST_CONFIRMATIONS['duplicate-node-name'](r, hit, password, ctx)).toMatchObject({ key: 'nodeHealth.confirmed.nodePassword', args: { count: 2, last: '2026-01-15T08:02:00Z' } });
    expect(HOST_CONFIRMATIONS['duplicate-node-name'](r, hit, certificates, ctx)).toBeNull();
    expect(HOST_CONFIRMATIONS['serving-certs-expired'](r, hit, certificates, ctx)).toMatchObject({
      key:      'nodeHealth.confirmed.certificatesExpired',
      args:     { certificates: 'kube-controller-manager, kube-scheduler', notAfter: '2026-01-02T03:12:44Z' },
      evidence: [
        {
          path: 'certificates[kube-controller-manager].notAfter', value: '2026-01-02T03:12:44Z', confirmed: true
        },
        {
          path: 'certificates[kube-scheduler].notAfter', value: '2026-01-02T03:12:44Z', confirmed: true
        },
      ],
    });
    expect(HOST_CONFIRMATIONS['serving-certs-expired'](r, hit, certificates, { ...ctx, now: Date.parse('2025-12-31T00:00:00Z') })).toBeNull();
    expect(HOST_CONFIRMATIONS['serving-certs-expired'](r, hit, password, ctx)).toBeNull();
  });

  it('reads the Windows report shape', () => {
    const r: HostReport = readHostReport(windowsHostReport(windows, WINDOWS_CASE_MACHINE, 'WIN-WORKER-01'));

    expect(r.os).toBe('windows');
    expect(r.agent).toMatchObject({
      name: 'rancher-wins', state: 'running', restarts: null
    });
    expect(r.connectionInfo.path).toBe('C:\\var\\lib\\rancher\\agent\\rancher2_connection_info.json');
  });

  it('reads hostile reports without trusting them: wrong types, unknown fields, huge strings', () => {
    const r = readHostReport({
      format:         'node-health-host/v1',
      hostname:       'x'.repeat(100000),
      extra:          { token: 'SECRET' },
      agent:          'running',
      signatures:     [{ id: 'rm -rf', count: 3 }, {
        id: 'agent-credentials', count: '2', sample: 42
      }, ...Array(1000).fill({ id: 'secret-too-old', count: 1 })],
      certificates:   { length: 5 },
      connectionInfo: {
        present: 'yes', size: -1, secretName: ['a']
      },
    });

    expect(r.hostname?.length).toBeLessThanOrEqual(501);
    expect((r as any).extra).toBeUndefined();
    expect(r.agent).toBeNull();
    expect(r.signatures[0]).toEqual({
      id: 'agent-credentials', source: 'agent', count: 2, first: null, last: null, sample: '42'
    });
    expect(r.signatures.length).toBeLessThanOrEqual(32);
    expect(r.certificates).toEqual([]);
    expect(r.connectionInfo).toMatchObject({ present: null, secretName: null });
    expect(() => readHostReport({ format: 'node-health-host/v1' })).toThrow(HostReportError);
    expect(() => readHostReport({ format: 'node-health-bundle/v1' })).toThrow(HostReportError);
  });
});
