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
import { initialRequests, infraMachinesRequest, clusterTarget } from '@pkg/node-health/data';
import { mgmtClusterUrl } from '@pkg/node-health/data/mgmt-cluster';
import { fleetClustersRequest, fleetInitialRequests } from '@pkg/node-health/fleet/requests';
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
  mock = await startMockRancher({ scenarios: ['ghost-etcd', 'healthy', 'imported', 'every-failure', 'agent-disconnected'], logRequests: 'none' });
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
    // The embedded Rancher runs Steve with its SQL cache, as current Rancher does: lists are asked for with `filter`.
    const planned = [...initialRequests(target, 'filter'), infraMachinesRequest(target, { group: 'rke.cattle.io', kind: 'CustomMachine' }, 'filter')];
    // Without the dashboard store the management cluster is asked for by name, as the tab does when the store lacks it.
    const mgmtCluster = `GET ${ mgmtClusterUrl(target.mgmtId!) }`;
    const feature = 'GET /v1/management.cattle.io.features/ui-sql-cache';
    const reviews = ['POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews', `POST /k8s/clusters/${ target.mgmtId }/apis/authorization.k8s.io/v1/selfsubjectaccessreviews`];

    const paths = requestedPaths(before);
    // Then, as the tab does when a row opens, the Events about each record that is not healthy: by each object's uid.
    const timeline = paths.filter((p) => p.includes('/events'));

    expect(new Set(paths.filter((p) => !timeline.includes(p)))).toEqual(new Set([`GET ${ fleetClustersRequest().url }`, feature, mgmtCluster, ...planned.map((r) => `GET ${ r.url }`), ...reviews]));
    const ghostUid = mock.store.peek('local', 'cluster.x-k8s.io.machine', 'fleet-default', GHOST_MACHINE)?.metadata.uid;

    expect(timeline).toContain(`GET /v1/events/fleet-default?filter=${ encodeURIComponent(`involvedObject.uid=${ ghostUid }`) }&exclude=metadata.managedFields&exclude=metadata.fields&exclude=metadata.relationships`);
    expect(timeline.every((p) => p.startsWith('GET '))).toBe(true);
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

    const gets = paths.filter((p) => p.startsWith('GET '));

    expect(gets.every((p) => p.startsWith('GET /v1/'))).toBe(true);
    expect(gets).toEqual(expect.arrayContaining(fleetInitialRequests('filter').map((r) => `GET ${ r.url }`)));
    // The feature that tells Steve's mode, the fixed requests, one per infrastructure kind in use.
    expect(gets).toHaveLength(1 + fleetInitialRequests().length + 1);
    // Whether each node list is complete, asked of the management cluster only.
    expect(paths.filter((p) => !p.startsWith('GET ')).every((p) => p === 'POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews')).toBe(true);
    // What concerns whole clusters is in the report: the agent of edge-k3s is not connected.
    expect(report.clusters.find((c: any) => c.name === 'edge-k3s')?.findings.map((f: any) => f.rule)).toEqual(['cluster-agent-disconnected']);
  });

  it('gives the same verdicts to a read-only user', async() => {
    const admin = JSON.parse((await diagnose('--token-file', tokenFile('admin'), '--all-clusters', '--format', 'json', '--now', '2026-01-01T00:00:00Z')).stdout);
    const readOnly = await diagnose('--token-file', tokenFile('read-only'), '--all-clusters', '--format', 'json', '--now', '2026-01-01T00:00:00Z');

    expect(readOnly.code).toBe(1);
    expect(readOnly.stderr).toBe('');
    expect(JSON.parse(readOnly.stdout).records).toEqual(admin.records);
  });

  it('tells a user who may read only some secrets that the plan secrets may be partial, and calls none missing', async() => {
    const res = await diagnose('--token-file', tokenFile('fleet-member'), '--all-clusters', '--format', 'json');
    const report = JSON.parse(res.stdout);

    expect(res.stderr).toBe('node-health diagnose: the token\'s user may read only some planSecrets: nothing is called missing for not being among them\n');
    expect(res.code).toBe(1);
    expect(report.records.some((r: any) => r.findings.some((f: any) => f.rule === 'plan-secret-missing'))).toBe(false);
  });

  it('says what a user without secrets could not read, and diagnoses the rest', async() => {
    const res = await diagnose('--token-file', tokenFile('no-secrets'), '--cluster', 'fleet-default/dev-k3s');

    // Steve does not show the user the secret type at all: a 404 for a list they may not read in full.
    expect(res.stderr).toBe('node-health diagnose: could not read planSecrets: Rancher does not show them to the token\'s user; checks that need them are skipped\n');
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

describe('node-health bundle --server --all-clusters', () => {
  it('makes the fleet\'s bundle with the fleet\'s verdicts: never healthy where only a cluster\'s tab can tell', async() => {
    const res = await runCli(['bundle', '--server', mock.url, '--token-file', tokenFile('admin'), '--all-clusters', '-o', '-']);
    const bundle = JSON.parse(res.stdout);
    const report = JSON.parse((await diagnose('--token-file', tokenFile('admin'), '--all-clusters', '--format', 'json', '--now', bundle.createdAt)).stdout);

    expect(res.code).toBe(0);
    expect(res.stdout).not.toContain('SECRET-VALUE');
    const statusOf = (records: any[]) => Object.fromEntries(records.map((r: any) => [`${ r.cluster }/${ r.machine ?? '' }/${ r.node ?? '' }`, r.status]));

    expect(statusOf(bundle.records)).toEqual(statusOf(report.records));
    // The machine whose Node Rancher has no copy of: what Rancher reports, and the note that the tab checks the Node.
    const gone = bundle.records.find((r: any) => r.machine === 'custom-b1f9c5d3a2e1');

    expect(gone.status).not.toBe('healthy');
    expect(gone.notes.join('\n')).toContain('ef-wk-node-gone');
    expect(bundle.clusters.find((c: any) => c.name === 'edge-k3s').findings.map((f: any) => f.rule)).toEqual(['cluster-agent-disconnected']);
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
