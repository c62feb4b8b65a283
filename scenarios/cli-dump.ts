/**
 * Writes a scenario as the files `kubectl get <resource> -A -o json` would print (one List per
 * resource), so the node-health command line can be tried without a cluster.
 *
 *   tsx scenarios/cli-dump.ts <scenario> [--out dir] [--v1beta2] [--steve] [--seed n] [--broken f] [--marker text]
 *
 * <scenario> is one of the catalog names or large-<n>. Downstream objects go to downstream/<cluster id>/.
 * --steve writes Steve /v1 collections instead of kubectl Lists.
 */

import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { machinesToV1beta2 } from './builders';
import { buildScenario, SCENARIO_NAMES } from './catalog';
import { resourceName, toSteveCollection } from './steve';
import { KubeObject } from './types';

interface DumpArgs {
  scenario: string;
  out?: string;
  steve: boolean;
  v1beta2: boolean;
  seed?: string;
  broken?: number;
  marker?: string;
}

function usage(): string {
  return `usage: tsx scenarios/cli-dump.ts <scenario> [--out dir] [--v1beta2] [--steve] [--seed n] [--broken fraction] [--marker text]
scenarios: ${ [...SCENARIO_NAMES, 'large-<n>'].join(', ') }`;
}

function parseArgs(argv: string[]): DumpArgs {
  const args: DumpArgs = {
    scenario: '', steve: false, v1beta2: false
  };

  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];

      if (v === undefined) throw new Error(`${ a } needs a value\n${ usage() }`);

      return v;
    };

    if (a === '--steve') args.steve = true;
    else if (a === '--v1beta2') args.v1beta2 = true;
    else if (a === '--out') args.out = value();
    else if (a === '--seed') args.seed = value();
    else if (a === '--broken') args.broken = Number(value());
    else if (a === '--marker') args.marker = value();
    else if (a === '-h' || a === '--help') throw new Error(usage());
    else if (a.startsWith('-')) throw new Error(`unknown option ${ a }\n${ usage() }`);
    else if (!args.scenario) args.scenario = a;
    else throw new Error(`unexpected argument ${ a }\n${ usage() }`);
  }
  if (!args.scenario) throw new Error(usage());

  return args;
}

/** kubectl's name for a resource type: `<plural>.<group>`, or just the plural for the core group. */
export function kubectlResource(obj: Pick<KubeObject, 'apiVersion' | 'kind'>): string {
  const slash = obj.apiVersion.indexOf('/');
  const plural = resourceName(obj.kind);

  return slash < 0 ? plural : `${ plural }.${ obj.apiVersion.slice(0, slash) }`;
}

/** Groups objects per resource type, in the order they first appear. */
export function groupByResource(objects: KubeObject[]): Map<string, KubeObject[]> {
  const groups = new Map<string, KubeObject[]>();

  for (const o of objects) {
    const key = kubectlResource(o);
    const list = groups.get(key);

    if (list) list.push(o);
    else groups.set(key, [o]);
  }

  return groups;
}

function writeGroup(dir: string, objects: KubeObject[], args: DumpArgs, clusterId?: string): string[] {
  mkdirSync(dir, { recursive: true });
  const written: string[] = [];

  for (const [resource, items] of groupByResource(objects)) {
    const body = args.steve ? toSteveCollection(items, { clusterId }) : {
      apiVersion: 'v1', kind: 'List', items, metadata: { resourceVersion: '' }
    };
    const file = join(dir, `${ resource }.json`);

    writeFileSync(file, `${ JSON.stringify(body, null, 2) }\n`);
    written.push(`${ file } (${ items.length })`);
  }

  return written;
}

function main(): void {
  const args = parseArgs(process.argv.slice(2));
  const scenario = buildScenario(args.scenario, {
    seed:           args.seed,
    brokenFraction: args.broken,
    secretMarker:   args.marker,
  });
  const out = resolve(args.out ?? join(tmpdir(), 'node-health-scenarios', scenario.name));
  const convert = (objects: KubeObject[]) => (args.v1beta2 ? machinesToV1beta2(objects) : objects);

  const written = writeGroup(out, convert(scenario.objects), args);

  for (const [clusterId, objects] of Object.entries(scenario.downstream)) {
    written.push(...writeGroup(join(out, 'downstream', clusterId), objects, args, clusterId));
  }
  const summary = {
    name:        scenario.name,
    title:       scenario.title,
    description: scenario.description,
    now:         scenario.now,
    clusters:    scenario.clusters,
    expected:    scenario.expected,
  };

  writeFileSync(join(out, 'scenario.json'), `${ JSON.stringify(summary, null, 2) }\n`);
  process.stdout.write(`${ scenario.title } -> ${ out }\n${ written.map((w) => `  ${ w }`).join('\n') }\n`);
}

// run only as a program, so the helpers above can be imported
if (/cli-dump\.[cm]?[jt]s$/.test(process.argv[1] ?? '')) {
  try {
    main();
  } catch (err) {
    process.stderr.write(`${ err instanceof Error ? err.message : String(err) }\n`);
    process.exitCode = 2;
  }
}
