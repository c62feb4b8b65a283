/**
 * `diagnose --server` tells each unhealthy record's story as the tab does when a row opens: the Events about its
 * objects and, for a node-driver machine, Rancher's create and delete Jobs with their pods' last log lines, read
 * from the embedded Rancher; a user who may not read pods gets the rest.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './run-cli';
import { CREATE_FAILED_MACHINE, DELETE_FAILED_MACHINE } from '../../../scenarios/catalog';
import { DEFAULT_SECRET_MARKER } from '../../../scenarios/builders/common';
import { MockRancher, startMockRancher } from '../../../mock-rancher/server';
import { apiTokenFor } from '../../../mock-rancher/users';

const dir = mkdtempSync(join(tmpdir(), 'node-health-stories-'));
let mock: MockRancher;

function tokenFile(user: string): string {
  const path = join(dir, `${ user }.token`);

  writeFileSync(path, `${ apiTokenFor(user) }\n`);

  return path;
}

const diagnose = (user: string, ...argv: string[]) => runCli(['diagnose', '--server', mock.url, '--token-file', tokenFile(user), '--cluster', 'vs-del', ...argv]);

beforeAll(async() => {
  mock = await startMockRancher({ scenarios: ['infra-delete-failed'], logRequests: 'none' });
});

afterAll(() => mock.close());

describe('node-health diagnose --server: the provisioning jobs\' logs', () => {
  it('reads the Jobs and pod logs of each node-driver machine that is not healthy, and the reports show the log\'s failure', async() => {
    const before = mock.requests()[mock.requests().length - 1]?.seq ?? 0;
    const res = await diagnose('admin', '--format', 'text');
    const paths = mock.requests().filter((r) => r.seq > before).map((r) => `${ r.method } ${ r.path }`);

    expect(res.stderr).toBe('');
    // The delete job's story: its failure and the last line of its pod's log, on the infrastructure machine.
    const section = res.stdout.slice(res.stdout.indexOf(`] ${ DELETE_FAILED_MACHINE }`));

    expect(section.slice(0, section.indexOf('\n\n'))).toContain(`Job log  VmwarevsphereMachine fleet-default/${ DELETE_FAILED_MACHINE }: Rancher's delete job ${ DELETE_FAILED_MACHINE }-machine-provision failed: Job has reached the specified backoff limit`);
    // Through Steve by Rancher's label, the log through the pod's log link, its last 200 lines.
    expect(paths.some((p) => p.startsWith('GET /v1/batch.jobs/fleet-default?') && p.includes(encodeURIComponent(DELETE_FAILED_MACHINE)))).toBe(true);
    expect(paths.some((p) => /^GET \/k8s\/clusters\/local\/api\/v1\/namespaces\/fleet-default\/pods\/[^/]+\/log\?container=machine&tailLines=200$/.test(p))).toBe(true);
  });

  it('keeps the log lines in the bundle, redacted, and the report made from the bundle tells the same', async() => {
    const out = join(dir, 'bundle.json');
    const res = await runCli(['bundle', '--server', mock.url, '--token-file', tokenFile('admin'), '--cluster', 'vs-del', '-o', out]);

    expect(res.code).toBe(0);
    const bundle = JSON.parse(readFileSync(out, 'utf8'));
    const jobs = bundle.objects.filter((o: any) => o.kind === 'Job');

    expect(jobs.map((j: any) => j.metadata.labels['rke.cattle.io/infra-machine-name']).sort()).toEqual([CREATE_FAILED_MACHINE, DELETE_FAILED_MACHINE].sort());
    expect(jobs.every((j: any) => j.nodeHealthLog.length > 0 && j.nodeHealthLog.length <= 200)).toBe(true);
    const again = await runCli(['diagnose', '--format', 'markdown', out]);

    expect(again.stdout).toContain(`Rancher's delete job ${ DELETE_FAILED_MACHINE }-machine-provision failed`);
    // The driver printed its password in a log line: the bundle keeps the line with the value redacted.
    const deleteJob = jobs.find((j: any) => j.metadata.labels['rke.cattle.io/infra-remove'] === 'true');

    expect(deleteJob.nodeHealthLog).toContain(`(${ DELETE_FAILED_MACHINE }) DBG | logging in with --vmwarevsphere-password [redacted]`);
    // Both reports end the delete job's entry with the end of its log, where the driver says why it failed.
    const lastLines: string[] = deleteJob.nodeHealthLog.slice(-20);
    const text = await runCli(['diagnose', '--format', 'text', out]);

    expect(again.stdout).toContain(`The log's last ${ lastLines.length } of ${ deleteJob.nodeHealthLog.length } lines:`);
    expect(again.stdout).toContain(['  ```text', ...lastLines.map((l) => `  ${ l }`), '  ```'].join('\n'));
    expect(text.stdout).toContain(lastLines.map((l) => `      | ${ l }`).join('\n'));
    // The driver's output in a condition's message spans lines: they hang under the entry, none at the margin.
    expect(text.stdout).toContain('\n      Doing /etc/rancher/ssl\n');
    expect(text.stdout).not.toMatch(/^(Doing|WARNING|Error removing)/m);
    expect(JSON.stringify(bundle)).not.toContain(DEFAULT_SECRET_MARKER);
    expect(again.stdout).not.toContain(DEFAULT_SECRET_MARKER);
    expect((await runCli(['report', '-o', join(dir, 'report.html'), out])).code).toBe(0);
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).not.toContain(DEFAULT_SECRET_MARKER);
  });

  it('a user who may not read Events or pods gets the jobs without their logs, and the rest of the diagnosis', async() => {
    const out = join(dir, 'no-events.json');
    const res = await runCli(['bundle', '--server', mock.url, '--token-file', tokenFile('no-events'), '--cluster', 'vs-del', '-o', out]);
    const bundle = JSON.parse(readFileSync(out, 'utf8'));

    expect(res.code).toBe(0);
    expect(bundle.records.find((r: any) => r.machine === DELETE_FAILED_MACHINE).findings.map((f: any) => f.rule)).toContain('infrastructure-delete-failed');
    expect(bundle.objects.filter((o: any) => o.kind === 'Event')).toEqual([]);
    expect(bundle.objects.filter((o: any) => o.kind === 'Job').map((j: any) => j.nodeHealthLog)).toEqual([[], []]);
  });
});
