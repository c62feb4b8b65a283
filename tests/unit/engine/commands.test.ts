/**
 * Fix-step commands built from hostile names, run through a real `sh` with a stand-in kubectl that prints
 * the arguments it received: every name must reach kubectl as one argument after "--", and nothing in a
 * name may run as a command of its own.
 */
import { execFileSync } from 'child_process';
import {
  chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync
} from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { diagnose } from '@pkg/node-health/engine';
import { buildScenario } from '../../../scenarios/catalog';
import { kubectl, sh } from '@pkg/node-health/engine/rules/rule';
import { clusterObjects } from './helpers';

const HOSTILE = ['--all', '-n=kube-system', '--selector=x', 'a;touch PWNED', '$(touch PWNED)', '`touch PWNED`', "it's", 'two words', '-o=yaml'];

const root = mkdtempSync(join(tmpdir(), 'nh-commands-'));
const bin = join(root, 'bin');

beforeAll(() => {
  execFileSync('mkdir', ['-p', bin]);
  // Writes each argument followed by a NUL, so arguments with spaces or newlines stay whole.
  writeFileSync(join(bin, 'kubectl'), '#!/bin/sh\nfor a in "$@"; do printf \'%s\\0\' "$a"; done > "$ARGS_FILE"\n');
  chmodSync(join(bin, 'kubectl'), 0o755);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The arguments kubectl receives when sh runs the command (also inside a pipeline). */
function argsOf(command: string): string[] {
  const file = join(root, 'args');

  writeFileSync(file, '');
  execFileSync('sh', ['-c', `${ command }; true`], { cwd: root, env: { PATH: `${ bin }:/usr/bin:/bin`, ARGS_FILE: file } });

  return readFileSync(file, 'utf8').split('\0').slice(0, -1);
}

/** Every machine, Node and namespace name of a scenario replaced by a hostile one, consistently everywhere. */
function hostileObjects(name: string): { objects: unknown[]; now: string; names: string[] } {
  const s = buildScenario(name);
  const objects = s.clusters.flatMap((c) => clusterObjects(s, c.mgmtId));
  const originals = new Set<string>();

  for (const o of objects as any[]) {
    if ((o.kind === 'Machine' || (o.kind === 'Node' && o.apiVersion === 'v1')) && typeof o.metadata?.name === 'string') {
      originals.add(o.metadata.name);
    }
  }
  let text = JSON.stringify(objects);
  const names: string[] = [];

  [...originals].sort((a, b) => b.length - a.length).forEach((original, i) => {
    const hostile = `${ HOSTILE[i % HOSTILE.length] }${ i >= HOSTILE.length ? i : '' }`;

    names.push(hostile);
    text = text.split(JSON.stringify(original).slice(1, -1)).join(JSON.stringify(hostile).slice(1, -1));
  });
  text = text.split('"fleet-default"').join('"--all-namespaces"');

  return {
    objects: JSON.parse(text), now: s.now, names: [...names, '--all-namespaces']
  };
}

describe('the shell words of a command', () => {
  it('quote a word that starts with "-" and keep plain names readable', () => {
    expect(sh('--all')).toBe("'--all'");
    expect(sh('-A')).toBe("'-A'");
    expect(sh('custom-2d74d4c9a104')).toBe('custom-2d74d4c9a104');
    expect(kubectl('delete', 'node', ['--all'])).toBe("kubectl delete node -- '--all'");
    expect(kubectl('get', 'machines.cluster.x-k8s.io', ['m'], { namespace: '-A', flags: ['-o yaml'] }))
      .toBe("kubectl --namespace='-A' get machines.cluster.x-k8s.io -o yaml -- m");
    // A list names no object: no "--" left dangling at its end.
    expect(kubectl('get', 'machinehealthchecks.cluster.x-k8s.io', [], { namespace: 'fleet-default', flags: ['-o', 'wide'] }))
      .toBe('kubectl -n fleet-default get machinehealthchecks.cluster.x-k8s.io -o wide');
  });
});

describe.each(['every-failure', 'ghost-etcd', 'etcd-hook', 'orphan-node', 'windows-node-ref'])('fix-step commands of %s with hostile names', (name) => {
  const { objects, now, names } = hostileObjects(name);
  const report = diagnose(objects, { now });
  const commands = [...new Set(report.records.flatMap((r) => r.findings.flatMap((f) => f.fix.map((s) => s.command ?? ''))))]
    .filter((c) => c.startsWith('kubectl '));

  it('hand every name to kubectl after "--", as one argument, and run nothing else', () => {
    const withNames = commands.filter((c) => names.some((n) => argsOf(c).includes(n)));

    // The hostile names do reach commands, so the checks below look at something.
    expect(withNames.length).toBeGreaterThan(0);
    for (const command of commands) {
      const args = argsOf(command);
      const dash = args.indexOf('--');
      const before = dash < 0 ? args : args.slice(0, dash);

      // Before "--" a hostile name may only stand as the value of --namespace=.
      expect({ command, options: before.filter((a) => names.includes(a)) }).toEqual({ command, options: [] });
      if (args.some((a) => names.includes(a))) {
        expect({ command, dash: dash >= 0 }).toEqual({ command, dash: true });
      }
    }
    expect(existsSync(join(root, 'PWNED'))).toBe(false);
  });
});
