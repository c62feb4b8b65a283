/**
 * The command line and host reports: `host-check` prints the scripts, `diagnose` and `bundle` take reports
 * among their inputs, and credentials planted on a host never reach any output.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './run-cli';
import { buildScenario, GHOST_MACHINE } from '../../../scenarios/catalog';
import { ghostHostReport, linuxHostReport } from '../../../scenarios/host-reports';
import { runHostCheck } from '../host-check/fixture-host';
import { CANARY, CANARY_VALUES, HOSTS } from '../host-check/hosts';

const run = (...argv: string[]) => runCli(argv);
const dir = mkdtempSync(join(tmpdir(), 'node-health-cli-hosts-'));
const ghost = buildScenario('ghost-etcd');
const SCRIPTS = join(__dirname, '..', '..', '..', 'pkg', 'node-health', 'host-check');

function write(name: string, content: unknown): string {
  const path = join(dir, name);

  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));

  return path;
}

const objects = write('ghost.json', {
  apiVersion: 'v1', kind: 'List', items: [...ghost.objects, ...ghost.downstream[ghost.clusters[0].mgmtId]]
});
const seedReport = write('node01.json', ghostHostReport(ghost));

describe('node-health host-check', () => {
  it('prints the Linux and the Windows script, and how to run them on stderr', async() => {
    const linux = await run('host-check', '--os', 'linux');
    const windows = await run('host-check', '--os', 'windows');

    expect(linux.code).toBe(0);
    expect(linux.stdout).toBe(readFileSync(join(SCRIPTS, 'linux.sh'), 'utf8'));
    expect(linux.stderr).toContain('sudo');
    expect(windows.code).toBe(0);
    expect(windows.stdout).toBe(readFileSync(join(SCRIPTS, 'windows.ps1'), 'utf8'));
    expect(windows.stderr).toContain('Out-File -Encoding utf8');
  });

  it('rejects a missing or unknown --os with exit 2', async() => {
    for (const argv of [['host-check'], ['host-check', '--os', 'macos'], ['host-check', '--os', 'linux', 'extra']]) {
      const r = await run(...argv);

      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^node-health host-check: /);
    }
  });
});

describe('diagnose and bundle with host reports', () => {
  it('seed 000 end to end: a confirmed agent-never-checked-in naming the log line\'s time', async() => {
    const text = await run('diagnose', '--now', ghost.now, objects, seedReport);
    const json = JSON.parse((await run('diagnose', '--format', 'json', '--now', ghost.now, objects, seedReport)).stdout);
    const markdown = (await run('diagnose', '--format', 'markdown', '--now', ghost.now, objects, seedReport)).stdout;

    expect(text.code).toBe(1);
    expect(text.stdout).toContain('agent-never-checked-in: Agent never checked in [Confirmed on the host]');
    expect(text.stdout).toContain('Confirmed on host dev-k8s-node01: the agent\'s log says "the server has asked for the client to provide credentials" (once, last at 2026-01-15 08:04:03 UTC)');
    expect(text.stdout).toMatch(/dev-k8s-node01: joined to custom-2d74d4c9a104 by its machine id/);
    const finding = json.records.find((r: any) => r.machine === GHOST_MACHINE).findings.find((f: any) => f.rule === 'agent-never-checked-in');

    expect(finding.confirmed).toBe(true);
    expect(finding.confirmation).toContain('last at 2026-01-15 08:04:03 UTC');
    expect(finding.evidence).toContainEqual({
      object: 'Host dev-k8s-node01', path: 'signatures[agent-credentials].last', value: '2026-01-15T08:04:03Z', confirmed: true
    });
    expect(json.hosts).toEqual([{
      host: 'dev-k8s-node01', secretName: 'custom-f489526f114a-machine-plan', namespace: 'fleet-default', machineId: expect.any(String), collectedAt: '2026-01-15T08:06:00Z', matched: GHOST_MACHINE, by: 'machine-id'
    }]);
    expect(markdown).toContain('### Host report from dev-k8s-node01');
    expect(markdown).toContain('- Connection info: `/var/lib/rancher/agent/rancher2_connection_info.json: 2710 bytes, parses, secretName custom-f489526f114a-machine-plan');
    expect(markdown).toContain('(`agent-never-checked-in`, Error, Confirmed on the host)');
  });

  it('says in Chinese what the host confirmed', async() => {
    const r = await run('diagnose', '--lang', 'zh-hans', '--now', ghost.now, objects, seedReport);

    expect(r.stdout).toContain('已在主机 dev-k8s-node01 上确认');
  });

  it('lists a report that matches no machine', async() => {
    const stray = write('stray.json', {
      ...linuxHostReport(ghost, GHOST_MACHINE), hostname: 'stray-01', machineId: null, connectionInfo: { secretName: 'custom-000000000000-machine-plan', namespace: 'fleet-default' }
    });
    const text = await run('diagnose', '--now', ghost.now, objects, stray);
    const markdown = await run('diagnose', '--format', 'markdown', '--now', ghost.now, objects, stray);

    expect(text.stdout).toContain('stray-01: matches no machine (plan secret custom-000000000000-machine-plan, machine id -)');
    expect(markdown.stdout).toContain('## Host reports that match no machine');
  });

  it('rejects a host report that names no host, with exit 2', async() => {
    const bad = write('bad.json', { format: 'node-health-host/v1', os: 'linux' });
    const r = await run('diagnose', objects, bad);

    expect(r.code).toBe(2);
    expect(r.stderr).toContain('bad.json: host report: the report names no host');
  });

  it('reads a report that Windows PowerShell wrote with a byte order mark', async() => {
    const bom = write('bom.json', `\uFEFF${ JSON.stringify(ghostHostReport(ghost)) }`);
    const r = await run('diagnose', '--format', 'json', '--now', ghost.now, objects, bom);

    expect(JSON.parse(r.stdout).hosts[0].matched).toBe(GHOST_MACHINE);
  });

  it('a bundle carries the reports, and diagnosing the bundle confirms again', async() => {
    const out = join(dir, 'bundle.json');
    const made = await run('bundle', '-o', out, objects, seedReport);
    const bundle = JSON.parse(readFileSync(out, 'utf8'));

    expect(made.code).toBe(0);
    expect(made.stderr).toContain('1 host reports (0 matching no machine)');
    expect(bundle.hostReports).toHaveLength(1);
    expect(bundle.hostReports[0].hostname).toBe('dev-k8s-node01');
    expect(bundle.hosts[0].matched).toBe(GHOST_MACHINE);
    const again = JSON.parse((await run('diagnose', '--format', 'json', out)).stdout);
    const finding = again.records.find((r: any) => r.machine === GHOST_MACHINE).findings.find((f: any) => f.rule === 'agent-never-checked-in');

    expect(finding.confirmed).toBe(true);
  });
});

describe('canary: credentials planted on the host', () => {
  // The script's report of a host with tokens in its connection info, config.yaml and logs, and a report
  // edited by hand to carry them in its own fields (redaction on reading is the second line of defence).
  const scripted = runHostCheck(HOSTS.credentialsRefused).json;
  const edited = {
    ...ghostHostReport(ghost),
    signatures: [{
      id: 'agent-credentials', source: 'agent', count: 1, last: '2026-01-15T08:04:03Z', sample: `level=fatal msg="the server has asked for the client to provide credentials" token=${ CANARY.logToken } --agent-token ${ CANARY.agentToken } ${ CANARY.joinToken } Authorization: Bearer ${ CANARY.logBearer } ${ CANARY.saToken }`,
    }],
    notes: [`password=${ CANARY.logPassword }`],
  };
  const files = [write('scripted.json', scripted), write('edited.json', edited)];

  it('never appear in diagnose output, in any format or language, or in a bundle', async() => {
    for (const file of files) {
      const outputs: string[] = [];

      for (const format of ['text', 'json', 'markdown']) {
        for (const lang of ['en-us', 'zh-hans']) {
          outputs.push((await run('diagnose', '--format', format, '--lang', lang, '--now', ghost.now, objects, file)).stdout);
        }
      }
      outputs.push((await run('bundle', '-o', '-', objects, file)).stdout);
      outputs.push((await run('bundle', '--obfuscate', '-o', '-', objects, file)).stdout);
      expect(outputs.every((o) => o.length > 1000)).toBe(true);
      for (const output of outputs) {
        for (const canary of CANARY_VALUES) {
          expect(output).not.toContain(canary);
        }
        // The report did reach the output, redacted.
        expect(output).toContain('[redacted]');
      }
      expect(outputs[0]).toContain('Confirmed on host');
    }
  });
});
