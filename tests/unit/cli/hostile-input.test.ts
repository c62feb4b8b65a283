/**
 * The command line on hostile input: each case ends with its exit code and one line on stderr, never a
 * stack trace, a hang or a heap that grows without end.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync
} from 'node:fs';
import { createServer, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './run-cli';
import { buildScenario, GHOST_MACHINE } from '../../../scenarios/catalog';

const run = (...argv: string[]) => runCli(argv);
const root = mkdtempSync(join(tmpdir(), 'node-health-hostile-'));
const ghost = buildScenario('ghost-etcd');
const ghostMachine = ghost.objects.find((o) => o.kind === 'Machine' && o.metadata.name === GHOST_MACHINE) as Record<string, any>;
const healthy = buildScenario('healthy');
let socketServer: Server | null = null;
let badTimeMachine = '';

function write(name: string, content: string): string {
  const path = join(root, name);

  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);

  return path;
}

/** stderr as lines, without the final newline */
function lines(stderr: string): string[] {
  return stderr.split('\n').filter((l) => l !== '');
}

// Nine levels of nine aliases each: 390 bytes that expand to 9^9 strings.
const ALIAS_BOMB = [
  'apiVersion: cluster.x-k8s.io/v1beta1', 'kind: Machine', 'metadata: {name: bomb, namespace: fleet-default}',
  'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  ...'bcdefgh'.split('').map((c, i) => `${ c }: &${ c } [${ Array(9).fill(`*${ 'abcdefgh'[i] }`).join(',') }]`),
  `spec: {i: [${ Array(9).fill('*h').join(',') }]}`,
].join('\n');

beforeAll(async() => {
  write('ok/machine.json', JSON.stringify(ghostMachine));
  write('bomb.yaml', ALIAS_BOMB);
  write('empty.json', '');
  write('blank.yaml', '\n  \n');
  write('deep.json', `${ '['.repeat(100000) }${ ']'.repeat(100000) }`);
  write('deep.yaml', `${ '['.repeat(100000) }${ ']'.repeat(100000) }\n`);
  mkdirSync(join(root, 'links'));
  symlinkSync('.', join(root, 'links', 'self'));
  symlinkSync('../ok', join(root, 'links', 'ok-again'));
  symlinkSync('loop.json', join(root, 'links', 'loop.json'));
  symlinkSync('nowhere.json', join(root, 'links', 'dangling.json'));
  mkdirSync(join(root, 'only-links'));
  symlinkSync('nowhere.json', join(root, 'only-links', 'dangling.json'));
  symlinkSync('loop.json', join(root, 'only-links', 'loop.json'));
  mkdirSync(join(root, 'special'));
  execFileSync('mkfifo', [join(root, 'special', 'fifo.json'), join(root, 'fifo.yaml')]);
  socketServer = createServer();
  await new Promise<void>((resolve) => socketServer?.listen(join(root, 'special', 'socket.json'), resolve));
  symlinkSync('/dev/zero', join(root, 'special', 'zero.json'));
  write('special/machine.json', JSON.stringify(ghostMachine));
  write('twice/a.json', JSON.stringify(ghostMachine));
  write('twice/b.json', JSON.stringify({ ...ghostMachine, metadata: { ...ghostMachine.metadata, resourceVersion: '99999999' } }));
  const healthyObjects = JSON.parse(JSON.stringify([...healthy.objects, ...Object.values(healthy.downstream).flat()]));
  const healthyMachine = healthyObjects.find((o: any) => o.kind === 'Machine');

  healthyMachine.metadata.deletionTimestamp = 'not-a-date';
  badTimeMachine = healthyMachine.metadata.name;
  write('bad-time.json', JSON.stringify({
    apiVersion: 'v1', kind: 'List', items: healthyObjects
  }));
});

afterAll(async() => {
  await new Promise<void>((resolve) => (socketServer ? socketServer.close(() => resolve()) : resolve()));
  rmSync(root, { recursive: true, force: true });
});

describe('node-health on hostile input', () => {
  it.each(['diagnose', 'bundle'])('%s refuses a YAML alias bomb with exit 2 and one line', async(command) => {
    const r = await run(command, ...(command === 'bundle' ? ['-o', join(root, 'out.json')] : []), join(root, 'bomb.yaml'));

    expect(r.code).toBe(2);
    expect(lines(r.stderr)).toEqual([expect.stringMatching(/^node-health \w+: .*bomb\.yaml: the YAML aliases expand to more than \d+ values/)]);
  });

  it('bundle refuses the alias bomb in a process whose heap is capped at 200 MB', () => {
    const out = join(root, 'capped.json');
    const r = spawnSync(join(process.cwd(), 'node_modules/.bin/tsx'), ['cli/main.ts', 'bundle', '-o', out, join(root, 'bomb.yaml')], {
      cwd: process.cwd(), encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '--max-old-space-size=200' }, timeout: 60000,
    });

    expect({ status: r.status, stderr: lines(r.stderr).length }).toEqual({ status: 2, stderr: 1 });
  });

  it('skips symbolic link loops and links that lead nowhere with a warning, follows each directory once', async() => {
    const r = await run('diagnose', '--now', ghost.now, join(root, 'ok'), join(root, 'links'));

    expect(r.code).toBe(1);
    expect(lines(r.stderr).sort()).toEqual([
      `node-health diagnose: skipped ${ join(root, 'links', 'dangling.json') }: no such file or directory (or a link that leads nowhere)`,
      `node-health diagnose: skipped ${ join(root, 'links', 'loop.json') }: a loop of symbolic links`,
    ]);
    expect(r.stdout).toContain(GHOST_MACHINE);
  });

  it('exits 2 with one line when nothing in a directory can be read', async() => {
    const r = await run('diagnose', join(root, 'only-links'));

    expect(r.code).toBe(2);
    expect(lines(r.stderr)).toEqual([expect.stringMatching(/only-links: no Kubernetes objects found .*a loop of symbolic links/)]);
  });

  it('never reads a FIFO, a socket or a device inside a directory: skipped with a warning', async() => {
    const r = await run('diagnose', '--now', ghost.now, join(root, 'special'));

    expect(r.code).toBe(1);
    expect(lines(r.stderr).sort()).toEqual([
      `node-health diagnose: skipped ${ join(root, 'special', 'fifo.json') }: not a regular file (a FIFO)`,
      `node-health diagnose: skipped ${ join(root, 'special', 'socket.json') }: not a regular file (a socket)`,
      `node-health diagnose: skipped ${ join(root, 'special', 'zero.json') }: not a regular file (a device)`,
    ]);
  });

  it.each([
    ['a named FIFO', 'fifo.yaml', /fifo\.yaml: no Kubernetes objects found .*not a regular file \(a FIFO\)/],
    ['/dev/null', '/dev/null', /^node-health diagnose: \/dev\/null: no Kubernetes objects found/],
    ['an empty file', 'empty.json', /empty\.json: no Kubernetes objects found/],
    ['a file of blank lines', 'blank.yaml', /blank\.yaml: no Kubernetes objects found/],
  ])('answers %s with "no Kubernetes objects found" and exit 2', async(_what, file, message) => {
    const r = await run('diagnose', file.startsWith('/') ? file : join(root, file));

    expect(r.code).toBe(2);
    expect(lines(r.stderr)).toEqual([expect.stringMatching(message)]);
    expect(r.stdout).toBe('');
  });

  it.each(['2024-02-30T00:00:00Z', '2023-02-29T00:00:00Z', '2024-04-31T12:00:00Z', '2024-01-01T24:00:00Z', '2024-01-01T00:00:60Z', '2024-01-01T00:00:00+24:00'])(
    'rejects the impossible time --now %s', async(now) => {
      const r = await run('diagnose', '--now', now, join(root, 'ok'));

      expect(r.code).toBe(2);
      expect(lines(r.stderr)).toEqual([`node-health diagnose: --now must be an RFC3339 time such as 2026-01-15T08:00:00Z, not "${ now }"`]);
    }
  );

  it('accepts a leap day that exists', async() => {
    expect((await run('diagnose', '--now', '2024-02-29T00:00:00Z', join(root, 'ok'))).code).toBe(0);
  });

  it.each(['deep.json', 'deep.yaml'])('names the file and the cause for 100,000 nested brackets (%s)', async(file) => {
    for (const command of ['diagnose', 'bundle']) {
      const r = await run(command, ...(command === 'bundle' ? ['-o', join(root, 'out.json')] : []), join(root, file));

      expect(r.code).toBe(2);
      expect(lines(r.stderr)).toEqual([expect.stringMatching(new RegExp(`^node-health ${ command }: .*${ file.replace('.', '\\.') }: nested (deeper than \\d+ levels|too deeply)`))]);
    }
  });

  it('keeps one copy of an object given twice, the newest, and says so', async() => {
    const r = await run('diagnose', '--format', 'json', '--now', ghost.now, join(root, 'twice'));
    const report = JSON.parse(r.stdout);

    expect(report.records.filter((x: any) => x.machine === GHOST_MACHINE)).toHaveLength(1);
    expect(lines(r.stderr)).toEqual([`node-health diagnose: machine fleet-default/${ GHOST_MACHINE } was given 2 times; kept the copy with the newest resourceVersion`]);

    const bundle = await run('bundle', '--now', ghost.now, '-o', join(root, 'twice-bundle.json'), join(root, 'twice'));

    expect(bundle.code).toBe(0);
    const objects = JSON.parse(readFileSync(join(root, 'twice-bundle.json'), 'utf8')).objects;

    expect(objects.filter((o: any) => o.metadata?.name === GHOST_MACHINE && o.kind === 'Machine').map((o: any) => o.metadata.resourceVersion)).toEqual(['99999999']);
  });

  it('makes a record with an unreadable deletion time unknown, with the reason, instead of healthy', async() => {
    const r = await run('diagnose', '--format', 'json', '--now', healthy.now, join(root, 'bad-time.json'));
    const records = JSON.parse(r.stdout).records;
    const record = records.find((x: any) => x.machine === badTimeMachine);

    expect(r.code).toBe(0);
    expect(record.status).toBe('unknown');
    expect(record.notes.join('\n')).toContain('metadata.deletionTimestamp is not a time that can be read (not-a-date)');
    expect(records.filter((x: any) => x.status !== 'healthy')).toHaveLength(1);
    expect((await run('diagnose', '--now', healthy.now, join(root, 'bad-time.json'))).stdout).toContain('not-a-date');
  });
});
