/**
 * node-health diagnose, run in-process the way the command line runs it: inputs in every shape support
 * staff have, the three formats, and the exit codes.
 */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dump } from 'js-yaml';
import { runCli } from './run-cli';
import { buildScenario, GHOST_MACHINE } from '../../../scenarios/catalog';
import { toSteveCollection } from '../../../scenarios/steve';

const run = (...argv: string[]) => runCli(argv);

const dir = mkdtempSync(join(tmpdir(), 'node-health-cli-'));
const ghost = buildScenario('ghost-etcd');
const ghostId = ghost.clusters[0].mgmtId;
const healthy = buildScenario('healthy');

function write(name: string, content: string): string {
  const path = join(dir, name);

  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);

  return path;
}

// kubectl output as support staff collect it: one List per kind, and the downstream Nodes.
const ghostDir = join(dir, 'ghost');
const byKind = new Map<string, unknown[]>();

for (const o of ghost.objects) {
  byKind.set(o.kind, [...(byKind.get(o.kind) ?? []), o]);
}
for (const [kind, items] of byKind) {
  write(`ghost/${ kind.toLowerCase() }s.json`, JSON.stringify({
    apiVersion: 'v1', kind: 'List', items
  }));
}
write('ghost/downstream/nodes.yaml', ghost.downstream[ghostId].map((o) => dump(o)).join('---\n'));
const healthyFile = write('healthy.json', JSON.stringify({
  apiVersion: 'v1', kind: 'List', items: [...healthy.objects, ...healthy.downstream[healthy.clusters[0].mgmtId]]
}));

describe('node-health diagnose', () => {
  it('reads a directory of kubectl Lists and multi-document YAML, reports the ghost machine and exits 1', async() => {
    const r = await run('diagnose', '--now', ghost.now, ghostDir);

    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain(GHOST_MACHINE);
    expect(r.stdout).toContain('agent-never-checked-in');
    expect(r.stdout).toContain('Holds back the whole cluster');
    expect(r.stdout).toContain('rancher2_connection_info.json');
  });

  it('prints the node-health-report/v1 JSON', async() => {
    const r = await run('diagnose', '--format', 'json', '--now', ghost.now, ghostDir);
    const report = JSON.parse(r.stdout);

    expect(report.format).toBe('node-health-report/v1');
    expect(report.now).toBe(new Date(ghost.now).toISOString());
    expect(report.clusters[0]).toMatchObject({
      name: 'dev-k3s', id: ghostId, blockedBy: [GHOST_MACHINE]
    });
    const record = report.records.find((x: any) => x.machine === GHOST_MACHINE);

    expect(record).toMatchObject({
      cluster: 'dev-k3s', node: null, status: 'error'
    });
    const rules = record.findings.map((f: any) => f.rule);

    expect(rules).toEqual(expect.arrayContaining(['blocking-cluster-operation', 'agent-never-checked-in', 'stuck-deleting']));
    const finding = record.findings[0];

    expect(Object.keys(finding)).toEqual(expect.arrayContaining(['rule', 'severity', 'title', 'evidence', 'fix']));
    expect(finding.title).not.toMatch(/^nodeHealth\./);
    expect(finding.fix[0].text).not.toMatch(/^nodeHealth\./);
  });

  it('prints Markdown, and Chinese with --lang zh-hans', async() => {
    const md = await run('diagnose', '--format', 'markdown', '--now', ghost.now, ghostDir);

    expect(md.stdout).toMatch(/^# Node Health report/);
    expect(md.stdout).toContain('| Status | Machine | Node | Roles | Most important finding |');
    const zh = await run('diagnose', '--lang', 'zh-hans', '--now', ghost.now, ghostDir);

    expect(zh.stdout).toContain('节点健康报告');
    expect(zh.stdout).toContain('阻塞整个集群');
    // Durations in the language of the report: days and hours in Chinese, the compact form in English.
    expect(zh.stdout).toMatch(/\d+天(\d+小时)?/);
    expect(zh.stdout).not.toMatch(/\b\d+d( \d+h)?\b/);
    expect(md.stdout).toMatch(/\b\d+d( \d+h)?\b/);
  });

  it('puts what concerns the whole cluster first: clusters[].findings in JSON, before the nodes in text and Markdown', async() => {
    const s = buildScenario('agent-disconnected');
    const file = write('disconnected.json', JSON.stringify({
      apiVersion: 'v1', kind: 'List', items: [...s.objects, ...s.downstream[s.clusters[0].mgmtId]]
    }));
    const answer = await run('diagnose', '--format', 'json', '--now', s.now, file);
    const json = JSON.parse(answer.stdout);

    // Every node is healthy, but an error about the whole cluster is an error all the same.
    expect(answer.code).toBe(1);

    expect(json.clusters[0].findings.map((f: any) => f.rule)).toStrictEqual(['cluster-agent-disconnected']);
    // The same shape as a record's finding.
    expect(Object.keys(json.clusters[0].findings[0])).toStrictEqual(['rule', 'severity', 'title', 'cause', 'since', 'evidence', 'fix', 'durations']);
    // A duration is a number for programs, next to the compact form people read.
    const { ms, text: readable } = json.clusters[0].findings[0].durations.duration;

    expect(typeof ms).toBe('number');
    expect(readable).toMatch(/^\d+[dhms]( \d+[hm])?$/);
    expect(json.clusters[0].findings[0].cause).toContain(`for ${ readable }.`);
    expect(json.clusters[0].findings[0].cause).toMatch(/may be stale/);
    const text = (await run('diagnose', '--now', s.now, file)).stdout;

    expect(text.indexOf('cluster-agent-disconnected')).toBeGreaterThan(-1);
    expect(text.indexOf('cluster-agent-disconnected')).toBeLessThan(text.indexOf('healthy nodes'));
    const md = (await run('diagnose', '--format', 'markdown', '--now', s.now, file)).stdout;

    expect(md.indexOf('## About the whole cluster edge-k3s')).toBeGreaterThan(-1);
    expect(md.indexOf('## About the whole cluster edge-k3s')).toBeLessThan(md.indexOf('| Status | Machine |'));
    expect(md).toContain('(`cluster-agent-disconnected`, Error)');
  });

  it('reads Steve collections as the browser saw them', async() => {
    const file = write('steve.json', JSON.stringify(toSteveCollection(ghost.objects.filter((o) => o.kind === 'Machine'))));
    const r = await run('diagnose', '--format', 'json', '--now', ghost.now, file);

    expect(JSON.parse(r.stdout).records.map((x: any) => x.machine)).toContain(GHOST_MACHINE);
  });

  it('skips other JSON inside a directory with a warning, but not a file named on purpose', async() => {
    write('mixed/notes.json', '{"collected-by": "support"}');
    write('mixed/healthy.json', JSON.stringify({
      apiVersion: 'v1', kind: 'List', items: [...healthy.objects, ...healthy.downstream[healthy.clusters[0].mgmtId]]
    }));
    const r = await run('diagnose', '--now', healthy.now, join(dir, 'mixed'));

    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/skipped .*notes\.json: not Kubernetes data/);
    expect((await run('diagnose', join(dir, 'mixed', 'notes.json'))).code).toBe(2);
  });

  it('exits 0 when nothing is wrong', async() => {
    const r = await run('diagnose', '--now', healthy.now, healthyFile);

    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/5 healthy nodes\./);
  });

  it.each([
    [['diagnose', join(dir, 'missing.json')], /missing\.json: no such file or directory/],
    [['diagnose', write('broken.json', '{"kind": "List", ')], /broken\.json: invalid JSON/],
    [['diagnose', write('broken.yaml', 'a: [1, 2\nb: }')], /broken\.yaml: invalid YAML/],
    [['diagnose', write('scalar.json', '42')], /scalar\.json: expected a Kubernetes object/],
    [['diagnose', write('nokind.json', '{"hello": "world"}')], /nokind\.json: expected a Kubernetes object/],
    [['diagnose', '--now', 'yesterday', healthyFile], /--now must be an RFC3339 time/],
    [['diagnose', '--format', 'html', healthyFile], /--format must be text, json or markdown/],
    [['diagnose'], /no input/],
    [['diagnose', '--bogus', healthyFile], /--bogus/],
    [['frobnicate'], /unknown command "frobnicate"/],
  ])('%j exits 2 with one line naming the problem', async(argv, message) => {
    const r = await run(...(argv as string[]));

    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message as RegExp);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});
