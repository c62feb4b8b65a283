/**
 * The Linux host check, run with POSIX sh against fixture hosts (fixture-host.ts): a fake root directory and
 * systemctl/journalctl/openssl/curl shims on a PATH that holds nothing else but coreutils and sed. Each
 * report is checked field by field.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { LINUX_SCRIPT, runHostCheck } from './fixture-host';
import {
  CANARY_VALUES, CATTLE_ID, HOSTS, PLAN_SECRET, RANCHER
} from './hosts';
import { HEREDOC_END, linuxHostCheckCommand } from '@pkg/node-health/host-check';
import { HOST_SIGNATURES, readHostReport } from '@pkg/node-health/engine';

const SCRIPT = readFileSync(LINUX_SCRIPT, 'utf8');

function signature(json: Record<string, any>, id: string) {
  return json.signatures.find((s: any) => s.id === id);
}

describe('the Linux host check on fixture hosts', () => {
  it('a healthy RKE2 server: every fact, nothing else on stdout', () => {
    const { stdout, json } = runHostCheck(HOSTS.healthy);

    expect(stdout.trim().startsWith('{')).toBe(true);
    expect(stdout.trim().endsWith('}')).toBe(true);
    expect(json.format).toBe('node-health-host/v1');
    expect(json.os).toBe('linux');
    expect(json.collectedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(json.hostname).toBe('dev-k8s-node01');
    expect(json.nodeName).toEqual({ value: 'dev-k8s-node01', source: '/etc/rancher/rke2/config.yaml' });
    expect(json.machineId).toBe(CATTLE_ID);
    expect(json.distro).toBe('rke2');
    expect(json.agent).toEqual({
      name: 'rancher-system-agent', loaded: true, state: 'active', subState: 'running', restarts: 0, since: '2025-12-01T02:00:00Z'
    });
    expect(json.distroServices).toEqual([{
      name: 'rke2-server', loaded: true, state: 'active', subState: 'running', restarts: 0, since: '2025-12-01T02:01:00Z'
    }]);
    expect(json.connectionInfo).toEqual({
      path:       '/var/lib/rancher/agent/rancher2_connection_info.json',
      present:    true,
      size:       expect.any(Number),
      parses:     true,
      secretName: PLAN_SECRET,
      namespace:  'fleet-default',
      server:     RANCHER,
    });
    expect(json.connectionInfo.size).toBeGreaterThan(100);
    expect(json.logs).toEqual({ agent: { read: true, lines: 3 }, distro: { read: true, lines: 1 } });
    expect(json.signatures).toEqual([]);
    expect(json.certificates).toEqual([
      {
        name: 'kube-controller-manager', path: '/var/lib/rancher/rke2/server/tls/kube-controller-manager/kube-controller-manager.crt', notAfter: '2027-11-20T03:12:44Z'
      },
      {
        name: 'kube-scheduler', path: '/var/lib/rancher/rke2/server/tls/kube-scheduler/kube-scheduler.crt', notAfter: '2027-11-20T03:12:44Z'
      },
      {
        name: 'kubelet', path: '/var/lib/rancher/rke2/agent/serving-kubelet.crt', notAfter: '2027-11-20T03:12:45Z'
      },
    ]);
    expect(json.clock).toEqual({
      checked: false, reason: 'offline', server: RANCHER
    });
    expect(json.disk).toEqual({
      path: '/var/lib/rancher', present: true, freeBytes: expect.any(Number), totalBytes: expect.any(Number)
    });
    expect(json.missingTools).toEqual([]);
    expect(json.notes).toEqual([]);
    // The engine reads it as it is.
    expect(readHostReport(json).connectionInfo.secretName).toBe(PLAN_SECRET);
  });

  it('measures the clock offset from the Rancher server\'s Date header unless --offline', () => {
    const serverDate = new Date(Date.now() - 95_000).toUTCString();
    const { json } = runHostCheck({ ...HOSTS.healthy, serverDate }, []);

    expect(json.clock.checked).toBe(true);
    expect(json.clock.server).toBe(RANCHER);
    expect(json.clock.serverDate).toBe(new Date(Date.parse(serverDate)).toISOString().replace('.000', ''));
    expect(json.clock.offsetSeconds).toBeGreaterThanOrEqual(94);
    expect(json.clock.offsetSeconds).toBeLessThanOrEqual(100);
  });

  it('credentials refused (seed 000): the signature with its count, first and last time and a redacted sample', () => {
    const { json } = runHostCheck(HOSTS.credentialsRefused);

    expect(json.agent).toEqual({
      name: 'rancher-system-agent', loaded: true, state: 'activating', subState: 'auto-restart', restarts: 812, since: '2026-01-15T08:04:03Z'
    });
    expect(json.signatures).toHaveLength(1);
    const s = signature(json, 'agent-credentials');

    expect(s).toMatchObject({
      id: 'agent-credentials', source: 'agent', count: 2, first: '2026-01-15T07:58:02Z', last: '2026-01-15T08:04:03Z'
    });
    expect(s.sample).toContain('level=fatal msg="error while connecting to Kubernetes cluster: the server has asked for the client to provide credentials"');
    expect(s.sample).toContain('authorization="Bearer [redacted]" token=[redacted] password=[redacted]');
  });

  it('empty connection info: present, size 0, does not parse, and the EOF signature', () => {
    const { json } = runHostCheck(HOSTS.emptyConnectionInfo);

    expect(json.connectionInfo).toEqual({
      path: '/var/lib/rancher/agent/rancher2_connection_info.json', present: true, size: 0, parses: false, secretName: null, namespace: null, server: null
    });
    expect(json.clock).toEqual({
      checked: false, reason: 'offline', server: null
    });
    expect(json.agent.state).toBe('failed');
    expect(signature(json, 'connection-info-eof')).toMatchObject({
      count: 2, first: '2026-01-15T07:29:55Z', last: '2026-01-15T07:30:00Z'
    });
    expect(json.certificates).toEqual([]);
  });

  it('a missing connection info file is reported absent', () => {
    const { files: _files, ...rest } = HOSTS.healthy;
    const { json } = runHostCheck({ ...rest, files: { 'etc/rancher/rke2/config.yaml': 'node-name: a\n' } });

    expect(json.connectionInfo).toMatchObject({
      present: false, size: null, parses: null, secretName: null
    });
    expect(json.machineId).toBeNull();
  });

  it('fatal x509: counts the fatal line and the strict CA line, not the harmless info-level retry', () => {
    const { json } = runHostCheck(HOSTS.fatalX509);

    expect(signature(json, 'ca-untrusted-fatal')).toMatchObject({
      count: 1, first: '2026-01-15T07:40:01Z', last: '2026-01-15T07:40:01Z'
    });
    expect(signature(json, 'ca-untrusted-fatal').sample).toContain('level=fatal');
    expect(signature(json, 'ca-strict-no-root')).toMatchObject({ count: 1, last: '2026-01-15T07:45:01Z' });
  });

  it('stale watch: both wordings of the stale plan secret', () => {
    const { json } = runHostCheck(HOSTS.staleWatch);

    expect(signature(json, 'secret-too-old')).toMatchObject({
      count: 2, first: '2026-01-15T07:50:00Z', last: '2026-01-15T08:05:00Z'
    });
    expect(signature(json, 'secret-older-than-last')).toMatchObject({ count: 1 });
  });

  it('node password rejected: read from the rke2-agent journal', () => {
    const { json } = runHostCheck(HOSTS.nodePasswordRejected);

    expect(json.distroServices.map((s: any) => s.name)).toEqual(['rke2-agent']);
    expect(json.distroServices[0]).toMatchObject({
      state: 'activating', subState: 'auto-restart', restarts: 40
    });
    expect(signature(json, 'node-password-rejected')).toMatchObject({
      source: 'distro', count: 2, first: '2026-01-15T08:01:00Z', last: '2026-01-15T08:02:00Z'
    });
    expect(signature(json, 'server-not-ready')).toMatchObject({ source: 'distro', count: 2 });
  });

  it('a failed command of the plan: "error executing instruction", not the periodic commands that fail too', () => {
    const { json } = runHostCheck(HOSTS.planInstructionFailed);

    expect(json.signatures.map((s: any) => s.id)).toEqual(['plan-instruction-failed']);
    expect(signature(json, 'plan-instruction-failed')).toMatchObject({
      source: 'agent', count: 2, first: '2026-01-15T08:44:59Z', last: '2026-01-15T08:50:00Z'
    });
    expect(signature(json, 'plan-instruction-failed').sample).toContain('error executing instruction 0: exit status 1');
  });

  it('expired certificates: their notAfter dates', () => {
    const { json } = runHostCheck(HOSTS.expiredCertificates);

    expect(json.certificates.map((c: any) => [c.name, c.notAfter])).toEqual([
      ['kube-controller-manager', '2026-01-02T03:12:44Z'],
      ['kube-scheduler', '2026-01-02T03:12:44Z'],
      ['kubelet', '2027-11-20T03:12:45Z'],
    ]);
  });

  it('a tool missing is reported, not fatal: no journalctl, no openssl', () => {
    const { json } = runHostCheck(HOSTS.toolMissing);

    expect(json.missingTools).toEqual(['journalctl', 'openssl']);
    expect(json.logs).toEqual({ agent: { read: false, lines: 0 }, distro: { read: false, lines: 0 } });
    expect(json.signatures).toEqual([]);
    expect(json.certificates.every((c: any) => c.notAfter === null)).toBe(true);
    expect(json.agent.state).toBe('active');
    expect(json.connectionInfo.secretName).toBe(PLAN_SECRET);
  });

  it('planted credentials never reach the report', () => {
    for (const fixture of Object.values(HOSTS)) {
      const { stdout } = runHostCheck(fixture);

      for (const canary of CANARY_VALUES) {
        expect(stdout).not.toContain(canary);
      }
    }
  });

  it('knows the signatures the engine knows, and only those', () => {
    const ids = [...SCRIPT.matchAll(/^(?:SIGNATURES=')?([a-z-]+)\|(agent|distro)\|/gm)].map((m) => m[1]);

    expect(ids.sort()).toEqual([...HOST_SIGNATURES].sort());
  });

  it('is POSIX sh (sh -n), read-only, and survives being pasted as a here-document', () => {
    execFileSync('/bin/sh', ['-n', LINUX_SCRIPT]);
    // No command that writes outside its own temporary directory, restarts or stops anything.
    expect(SCRIPT).not.toMatch(/systemctl (restart|stop|start|enable|disable|kill)|\brm -[a-z]*[rf][a-z]* +[^"]|\bmv |\btee |>> *\/|> *"?\$ROOT/);
    expect(SCRIPT.split('\n')).not.toContain(HEREDOC_END);
    const command = linuxHostCheckCommand(SCRIPT);

    expect(command.startsWith(`sudo sh -s > node-health-host.json <<'${ HEREDOC_END }'\n`)).toBe(true);
    expect(command.endsWith(`\n${ HEREDOC_END }\n`)).toBe(true);
    expect(() => linuxHostCheckCommand(`echo\n${ HEREDOC_END }\nrm -rf /`)).toThrow(RangeError);
  });
});
