/**
 * node-health diagnose on what a real Rancher hands out: Steve collections saved from the embedded API in both of
 * Steve's modes, as each of its users sees them; pages of a longer list; and several clusters in one directory.
 */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './run-cli';
import { buildScenario, GHOST_MACHINE } from '../../../scenarios/catalog';
import { startMockRancher } from '../../../mock-rancher/server';
import type { MockRancher } from '../../../mock-rancher/server';

const dir = mkdtempSync(join(tmpdir(), 'node-health-cli-real-'));
const every = buildScenario('every-failure');
const NO_SECRET = 'custom-d3b1e7f5c4a3';

function get(mock: MockRancher, path: string, user: string): Promise<any> {
  return new Promise((resolve, reject) => {
    httpRequest(`${ mock.url }${ path }`, { headers: { 'x-mock-user': user } }, (res) => {
      let text = '';

      res.on('data', (c) => {
        text += c;
      });
      res.on('end', () => resolve({ status: res.statusCode, body: JSON.parse(text) }));
    }).on('error', reject).end();
  });
}

/** What support staff save from the browser: the lists the tab reads, as Steve answers them in this mode. */
async function saveCollections(mock: MockRancher, user: string, into: string): Promise<void> {
  const sql = mock.cacheMode === 'sql';
  const byLabel = (key: string, value: string) => (sql ? `filter=${ encodeURIComponent(`metadata.labels[${ key }]=${ value }`) }` : `labelSelector=${ encodeURIComponent(`${ key }=${ value }`) }`);
  const paths = {
    cluster:     '/v1/provisioning.cattle.io.clusters/fleet-default/ef-rke2',
    machines:    `/v1/cluster.x-k8s.io.machines/fleet-default?${ byLabel('cluster.x-k8s.io/cluster-name', 'ef-rke2') }`,
    secrets:     `/v1/secrets/fleet-default?${ byLabel('rke.cattle.io/cluster-name', 'ef-rke2') }`,
    bootstraps:  `/v1/rke.cattle.io.rkebootstraps/fleet-default?${ byLabel('cluster.x-k8s.io/cluster-name', 'ef-rke2') }`,
    custom:      `/v1/rke.cattle.io.custommachines/fleet-default?${ byLabel('cluster.x-k8s.io/cluster-name', 'ef-rke2') }`,
    mgmtNodes:   '/v1/management.cattle.io.nodes/c-m-ef4k8w2n',
    nodes:       '/k8s/clusters/c-m-ef4k8w2n/v1/nodes',
  };

  mkdirSync(into, { recursive: true });
  for (const [name, path] of Object.entries(paths)) {
    const answer = await get(mock, path, user);

    if (answer.status === 200) {
      writeFileSync(join(into, `${ name }.json`), JSON.stringify(answer.body));
    }
  }
}

function findingsOf(report: any, name: string): string[] {
  const r = report.records.find((x: any) => x.machine === name || (x.machine === null && x.node === name));

  return r ? r.findings.map((f: any) => f.rule ?? f.id) : [];
}

describe.each([['with the SQL cache', true], ['without it', false]])('collections saved from Steve %s', (_name, sqlCache) => {
  let mock: MockRancher;

  beforeAll(async() => {
    mock = await startMockRancher({
      scenarios: ['every-failure', 'ghost-etcd'], logRequests: 'none', sqlCache, now: new Date(every.now)
    });
  });
  afterAll(() => mock.close());

  it('as admin: every failure of the cluster, as from kubectl output', async() => {
    const into = join(dir, `admin-${ sqlCache }`);

    await saveCollections(mock, 'admin', into);
    const r = await runCli(['diagnose', '--format', 'json', '--now', every.now, into]);
    const report = JSON.parse(r.stdout);

    expect(r.stderr).toBe('');
    expect(findingsOf(report, NO_SECRET)).toContain('plan-secret-missing');
    expect(findingsOf(report, 'custom-1e0c8f3a5b21')).toContain('agent-never-checked-in');
    expect(findingsOf(report, 'ef-orphan')).toContain('orphan-node');
    expect(findingsOf(report, 'ef-external')).toStrictEqual([]);
  });

  it('a page of a longer list is read as partial: nothing is called missing for not being on it', async() => {
    const into = join(dir, `paged-${ sqlCache }`);

    await saveCollections(mock, 'admin', into);
    const page = sqlCache ? '?filter=_type%3Drke.cattle.io%2Fmachine-plan&pagesize=5' : '?fieldSelector=type%3Drke.cattle.io%2Fmachine-plan&limit=5';
    const first = await get(mock, `/v1/secrets/fleet-default${ page }`, 'admin');

    expect(first.body.pagination).toMatchObject({ partial: true, next: expect.any(String) });
    writeFileSync(join(into, 'secrets.json'), JSON.stringify(first.body));
    const r = await runCli(['diagnose', '--format', 'json', '--now', every.now, into]);
    const report = JSON.parse(r.stdout);

    expect(r.stderr).toContain('secrets.json is one page of a longer list');
    expect(JSON.stringify(report)).not.toContain('plan-secret-missing');
    const noSecret = report.records.find((x: any) => x.machine === NO_SECRET);

    expect(noSecret.status).toBe('unknown');

    const bundled = await runCli(['bundle', '-o', '-', '--now', every.now, into]);

    expect(bundled.stderr).toMatch(/^node-health bundle: \S*secrets\.json is one page of a longer list/m);
    expect(JSON.stringify(JSON.parse(bundled.stdout).records)).not.toContain('plan-secret-missing');
  });
});

describe('several clusters in one directory', () => {
  it('each cluster gets the findings it gets alone, and a Node of neither changes nothing', async() => {
    const ghost = buildScenario('ghost-etcd', { now: every.now });
    const both = join(dir, 'both');
    const write = (name: string, items: unknown[]) => {
      mkdirSync(join(both, '..'), { recursive: true });
      mkdirSync(both, { recursive: true });
      writeFileSync(join(both, name), JSON.stringify({
        apiVersion: 'v1', kind: 'List', items
      }));
    };

    write('every-local.json', every.objects);
    write('ghost-local.json', ghost.objects);
    write('ghost-nodes.json', ghost.downstream[ghost.clusters[0].mgmtId]);
    // every-failure's Nodes are not given; one stray Node of no cluster is.
    write('stray.json', [{
      apiVersion: 'v1', kind: 'Node', metadata: { name: 'f5-bigip-flannel', creationTimestamp: '2026-01-01T00:00:00Z' }, status: { conditions: [{ type: 'Ready', status: 'True' }] }
    }]);
    const r = await runCli(['diagnose', '--format', 'json', '--now', every.now, both]);
    const report = JSON.parse(r.stdout);

    expect(findingsOf(report, GHOST_MACHINE)).toEqual(expect.arrayContaining(['agent-never-checked-in', 'blocking-cluster-operation']));
    expect(JSON.stringify(report.records.filter((x: any) => x.cluster === 'ef-rke2').map((x: any) => x.findings))).not.toContain('node-missing');
    expect(findingsOf(report, 'f5-bigip-flannel')).toStrictEqual([]);
  });
});
