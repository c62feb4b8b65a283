/**
 * node-health diagnose and bundle against a running Rancher (the embedded one): one cluster, every cluster,
 * the users it has, and the failures that end in one line and exit 2.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import type { Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './run-cli';
import { initialRequests, infraMachinesRequest, clusterTarget } from '../../../pkg/node-health/data';
import { mgmtClusterUrl } from '../../../pkg/node-health/data/mgmt-cluster';
import { fleetClustersRequest, fleetInitialRequests } from '../../../pkg/node-health/fleet/requests';
import { request as httpRequest } from 'node:http';
import { GHOST_MACHINE } from '../../../scenarios/catalog';
import { MockRancher, startMockRancher } from '../../../mock-rancher/server';
import { apiTokenFor } from '../../../mock-rancher/users';

const dir = mkdtempSync(join(tmpdir(), 'node-health-rancher-'));
let mock: MockRancher;

function tokenFile(user: string, token = apiTokenFor(user)): string {
  const path = join(dir, `${ user }.token`);

  writeFileSync(path, `${ token }\n`);

  return path;
}

const diagnose = (...argv: string[]) => runCli(['diagnose', '--server', mock.url, ...argv]);

function requestedPaths(since: number): string[] {
  return mock.requests().filter((r) => r.seq > since).map((r) => `${ r.method } ${ r.path }`);
}

function addFault(fault: unknown): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${ mock.url }/mock/faults`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-mock-user': 'admin' } }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 || res.statusCode === 201 ? resolve() : reject(new Error(`fault not added: ${ res.statusCode }`))));
    });

    req.on('error', reject);
    req.end(JSON.stringify(fault));
  });
}

beforeAll(async() => {
  mock = await startMockRancher({ scenarios: ['ghost-etcd', 'healthy', 'imported', 'every-failure'], logRequests: 'none' });
});

afterAll(() => mock.close());

describe('node-health diagnose --server', () => {
  it('diagnoses one cluster with the tab\'s own requests', async() => {
    const before = mock.requests().length ? mock.requests()[mock.requests().length - 1].seq : 0;
    const res = await diagnose('--token-file', tokenFile('admin'), '--cluster', 'dev-k3s', '--format', 'json');
    const report = JSON.parse(res.stdout);

    expect(res.stderr).toBe('');
    expect(res.code).toBe(1);
    expect(report.clusters.map((c: any) => c.name)).toEqual(['dev-k3s']);
    const ghost = report.records.find((r: any) => r.machine === GHOST_MACHINE);

    expect(ghost.findings.map((f: any) => f.rule)).toEqual(expect.arrayContaining(['agent-never-checked-in', 'blocking-cluster-operation', 'stuck-deleting']));
    // The downstream Nodes too: the orphan Node is found as in the tab.
    expect(report.records.find((r: any) => r.node === 'dev-k8s-node01' && !r.machine)?.findings.map((f: any) => f.rule)).toEqual(['orphan-node']);

    const target = clusterTarget(mock.store.peek('local', 'provisioning.cattle.io.cluster', 'fleet-default', 'dev-k3s'))!;
    const tabRequests = [...initialRequests(target), infraMachinesRequest(target, { group: 'rke.cattle.io', kind: 'CustomMachine' })].map((r) => `GET ${ r.url }`);
    // Without the dashboard store the management cluster is asked for by name, as the tab does when the store lacks it.
    const mgmtCluster = `GET ${ mgmtClusterUrl(target.mgmtId!) }`;

    expect(new Set(requestedPaths(before))).toEqual(new Set([`GET ${ fleetClustersRequest().url }`, mgmtCluster, ...tabRequests]));
  });

  it('diagnoses every cluster with --all-clusters: the fleet report', async() => {
    const before = mock.requests()[mock.requests().length - 1].seq;
    const res = await diagnose('--token-file', tokenFile('admin'), '--all-clusters', '--format', 'json');
    const report = JSON.parse(res.stdout);

    expect(res.code).toBe(1);
    expect(report.clusters.map((c: any) => c.name)).toEqual(expect.arrayContaining(['local', 'dev-k3s', 'demo-rke2', 'imp-k3s', 'ef-rke2']));
    const clustersOf = new Set(report.records.filter((r: any) => r.findings.length).map((r: any) => r.cluster));

    expect(clustersOf).toEqual(new Set(['dev-k3s', 'imp-k3s', 'ef-rke2']));
    // Only the management cluster is asked, in the fleet's fixed requests.
    const paths = requestedPaths(before);

    expect(paths.every((p) => p.startsWith('GET /v1/'))).toBe(true);
    expect(paths).toEqual(expect.arrayContaining(fleetInitialRequests().map((r) => `GET ${ r.url }`)));
    expect(paths).toHaveLength(fleetInitialRequests().length + 1);
  });

  it('gives the same verdicts to a read-only user', async() => {
    const admin = JSON.parse((await diagnose('--token-file', tokenFile('admin'), '--all-clusters', '--format', 'json', '--now', '2026-01-01T00:00:00Z')).stdout);
    const readOnly = await diagnose('--token-file', tokenFile('read-only'), '--all-clusters', '--format', 'json', '--now', '2026-01-01T00:00:00Z');

    expect(readOnly.code).toBe(1);
    expect(readOnly.stderr).toBe('');
    expect(JSON.parse(readOnly.stdout).records).toEqual(admin.records);
  });

  it('says what a user without secrets could not read, and diagnoses the rest', async() => {
    const res = await diagnose('--token-file', tokenFile('no-secrets'), '--cluster', 'fleet-default/dev-k3s');

    expect(res.stderr).toBe('node-health diagnose: could not read planSecrets: forbidden (403); checks that need them are skipped\n');
    expect(res.code).toBe(1);
    expect(res.stdout).toContain(GHOST_MACHINE);
  });

  it('ends with one line and exit 2 for a bad token', async() => {
    const res = await diagnose('--token-file', tokenFile('admin', 'token-admin:wrong'), '--all-clusters');

    expect(res).toEqual({
      code: 2, stdout: '', stderr: `node-health diagnose: ${ mock.url }: Rancher did not accept the token (401): it is wrong, expired or disabled\n`
    });
    const one = await diagnose('--token-file', tokenFile('nobody', 'token-nobody:node-health-mock'), '--cluster', 'dev-k3s');

    expect(one.code).toBe(2);
    expect(one.stderr.trim().split('\n')).toHaveLength(1);
    expect(one.stderr).toContain('(401)');
  });

  it('ends with one line and exit 2 for a 403, a cluster it cannot find, and a server it cannot reach', async() => {
    await addFault({
      match: { type: 'provisioning.cattle.io.cluster' }, status: 403, message: 'clusters.provisioning.cattle.io is forbidden'
    });
    const forbidden = await diagnose('--token-file', tokenFile('admin'), '--all-clusters');

    expect(forbidden.code).toBe(2);
    expect(forbidden.stderr).toBe(`node-health diagnose: ${ mock.url }: the token's user may not read this (403): clusters.provisioning.cattle.io is forbidden\n`);

    const missing = await diagnose('--token-file', tokenFile('admin'), '--cluster', 'no-such');

    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^node-health diagnose: .*: no cluster named "no-such" among the \d+ the token's user may see\n$/);

    const unreachable = await runCli(['diagnose', '--server', 'http://127.0.0.1:1', '--token-file', tokenFile('admin'), '--all-clusters']);

    expect(unreachable).toEqual({
      code: 2, stdout: '', stderr: 'node-health diagnose: http://127.0.0.1:1: cannot connect (ECONNREFUSED)\n'
    });
  });

  it('refuses to mix files and Rancher, or to guess which clusters', async() => {
    const both = await diagnose('--token-file', tokenFile('admin'), '--cluster', 'dev-k3s', '--all-clusters');
    const neither = await diagnose('--token-file', tokenFile('admin'));
    const files = await diagnose('--token-file', tokenFile('admin'), '--all-clusters', dir);

    for (const res of [both, neither, files]) {
      expect(res.code).toBe(2);
      expect(res.stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});

describe('node-health bundle --server', () => {
  it('makes the bundle of one cluster from Rancher, with no secret in it', async() => {
    const res = await runCli(['bundle', '--server', mock.url, '--token-file', tokenFile('admin'), '--cluster', 'dev-k3s', '-o', '-']);
    const bundle = JSON.parse(res.stdout);

    expect(res.code).toBe(0);
    expect(bundle.format).toBe('node-health-bundle/v1');
    expect(bundle.records.find((r: any) => r.machine === GHOST_MACHINE)).toBeDefined();
    expect(res.stdout).not.toContain('SECRET-VALUE');
    // Read back, it gives the same findings.
    const path = join(dir, 'bundle.json');

    writeFileSync(path, res.stdout);
    const back = JSON.parse((await runCli(['diagnose', '--format', 'json', path])).stdout);

    expect(back.records.find((r: any) => r.machine === GHOST_MACHINE).findings.map((f: any) => f.rule))
      .toEqual(bundle.records.find((r: any) => r.machine === GHOST_MACHINE).findings.map((f: any) => f.rule));
  });
});

describe('TLS', () => {
  let server: Server;
  let url = '';
  let cert = '';

  beforeAll(async() => {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
      '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
    cert = join(dir, 'cert.pem');
    server = createHttpsServer({ key: execFileSync('cat', [join(dir, 'key.pem')]), cert: execFileSync('cat', [cert]) }, (req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({
        type: 'error', status: 401, message: 'must authenticate'
      }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `https://127.0.0.1:${ (server.address() as any).port }`;
  });

  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('says a certificate it cannot trust is a TLS problem, and takes --ca-file or --insecure', async() => {
    const untrusted = await runCli(['diagnose', '--server', url, '--token-file', tokenFile('admin'), '--all-clusters']);

    expect(untrusted.code).toBe(2);
    expect(untrusted.stderr).toMatch(new RegExp(`^node-health diagnose: ${ url }: TLS: self[- ]signed certificate \\(.*--ca-file.*--insecure.*\\)\\n$`));
    for (const extra of [['--ca-file', cert], ['--insecure']]) {
      const res = await runCli(['diagnose', '--server', url, '--token-file', tokenFile('admin'), '--all-clusters', ...extra]);

      // Past TLS: the server's own answer.
      expect(res.stderr).toBe(`node-health diagnose: ${ url }: Rancher did not accept the token (401): it is wrong, expired or disabled\n`);
    }
  });
});
