import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { dump } from 'js-yaml';
import { runCli } from '../cli/run-cli';
import type { NodeHealthBundle } from '@pkg/node-health/export';
import { kubectlObjects, scenario } from './fixtures';

const run = runCli;

/** kubectl output as support collects it: one List per resource, some JSON, some YAML. */
function writeKubectlOutput(dir: string, name: string): string {
  const s = scenario(name);
  const objects = kubectlObjects(s);
  const byKind = new Map<string, unknown[]>();

  for (const o of objects) {
    byKind.set(o.kind, [...(byKind.get(o.kind) ?? []), o]);
  }
  for (const [kind, items] of byKind) {
    const list = {
      apiVersion: 'v1', kind: 'List', items
    };

    if (kind === 'Node') {
      writeFileSync(join(dir, `${ kind.toLowerCase() }.yaml`), dump(list));
    } else {
      writeFileSync(join(dir, `${ kind.toLowerCase() }.json`), JSON.stringify(list));
    }
  }

  return s.now;
}

describe('node-health bundle', () => {
  const root = mkdtempSync(join(tmpdir(), 'nh-cli-bundle-'));
  const input = join(root, 'input');
  let now: string;

  beforeAll(() => {
    require('fs').mkdirSync(input);
    now = writeKubectlOutput(input, 'every-failure');
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('writes the bundle and says on one stderr line what is in it', async() => {
    const out = join(root, 'b.json');
    const r = await run(['bundle', '--now', now, '-o', out, input]);
    const bundle = JSON.parse(readFileSync(out, 'utf8')) as NodeHealthBundle;

    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(new RegExp(`wrote ${ out.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&') }: ${ bundle.records.length } records, \\d+ findings, left out or redacted: planSecretData \\d+, registrationToken 1, (unusedObject \\d+, )?unreadField \\d+`));
    expect(bundle.format).toBe('node-health-bundle/v1');
    expect(bundle.createdAt).toBe(new Date(now).toISOString());
    expect(bundle.generator.extensionVersion).toMatch(/^\d+\.\d+\.\d+/);
    expect(bundle.obfuscated).toBe(false);
  });

  it('gives, read back by diagnose, the same findings as the kubectl output', async() => {
    const out = join(root, 'rt.json');

    expect((await run(['bundle', '--now', now, '-o', out, input])).code).toBe(0);
    const direct = await run(['diagnose', '--format', 'json', '--now', now, input]);
    const fromBundle = await run(['diagnose', '--format', 'json', out]);

    expect(direct.code).toBe(1);
    expect(fromBundle.code).toBe(direct.code);
    expect(JSON.parse(fromBundle.stdout)).toEqual(JSON.parse(direct.stdout));
  });

  it('pseudonymises hosts and addresses with --obfuscate', async() => {
    const r = await run(['bundle', '--now', now, '--obfuscate', '-o', '-', input]);
    const bundle = JSON.parse(r.stdout) as NodeHealthBundle;

    expect(r.code).toBe(0);
    expect(bundle.obfuscated).toBe(true);
    expect(r.stdout).not.toContain('ef-wk-notready');
    expect(r.stdout).not.toMatch(/\b10\.9\.\d+\.\d+\b/);
    expect(r.stderr).toContain('pseudonymised');
  });

  it.each([
    [['bundle', '-o', 'x.json'], /no input/],
    [['bundle', 'somewhere'], /-o <file> is required/],
    [['bundle', '--now', 'yesterday', '-o', 'x.json', 'in'], /--now must be an RFC3339 time/],
    [['bundle', '--colour', '-o', 'x.json', 'in'], /Unknown option '--colour'/],
    [['bundle', '-o', 'x.json', '/nonexistent/path'], /no such file or directory/],
  ])('exits 2 with one line for unusable input: %j', async(argv, message) => {
    const r = await run(argv);

    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stdout).toBe('');
  });

  it('exits 2 when the output cannot be written', async() => {
    const r = await run(['bundle', '--now', now, '-o', join(root, 'missing-dir', 'b.json'), input]);

    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot be written \(ENOENT\)/);
  });

  it('is listed in the usage', async() => {
    const r = await run(['--help']);

    expect(r.stdout).toContain('node-health bundle [--now <RFC3339>] [--obfuscate]');
  });
});
