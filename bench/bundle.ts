/**
 * The engine as the benchmarks time it. The tab's worker and the fleet page run the engine bundled (webpack), where
 * a call into another module is a plain function call; under tsx every module is CommonJS of its own and each call
 * between modules goes through the exports' property getters, about a tenth of a diagnosis's profile. So by default
 * the engine is bundled by esbuild (declared at the version tsx itself brings, so one copy is installed) into one
 * temporary module, neither minified nor otherwise changed, and loaded from there: the same code as the source, the
 * way it ships.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildSync } from 'esbuild';
import * as sources from '../pkg/node-health/engine';
import { nodeCopies } from '../pkg/node-health/fleet/node-copies';

type Engine = typeof sources;

export interface BenchEngine {
  /** what was timed: 'esbuild bundle' or 'tsx modules' */
  build: string;
  diagnose: Engine['diagnose'];
  diagnoseKeeping: Engine['diagnoseKeeping'];
  diagnoseChanges: Engine['diagnoseChanges'];
  applyChanges: Engine['applyChanges'];
  classify: Engine['classify'];
  nodeCopies: typeof nodeCopies;
}

function pick(engine: Engine, copies: typeof nodeCopies, build: string): BenchEngine {
  return {
    build,
    diagnose:        engine.diagnose,
    diagnoseKeeping: engine.diagnoseKeeping,
    diagnoseChanges: engine.diagnoseChanges,
    applyChanges:    engine.applyChanges,
    classify:        engine.classify,
    nodeCopies:      copies,
  };
}

/** Bundles the engine and the fleet's node copies into one CommonJS module in a temporary directory and loads it. */
function bundled(): BenchEngine {
  const dir = mkdtempSync(join(tmpdir(), 'node-health-bench-'));
  const entry = join(dir, 'entry.ts');
  const out = join(dir, 'engine.cjs');
  const root = resolve(__dirname, '../pkg/node-health');

  try {
    writeFileSync(entry, `export * from ${ JSON.stringify(join(root, 'engine/index.ts')) };\nexport { nodeCopies } from ${ JSON.stringify(join(root, 'fleet/node-copies.ts')) };\n`);
    buildSync({
      entryPoints: [entry], outfile: out, bundle: true, platform: 'node', format: 'cjs', target: 'node20', minify: false, logLevel: 'error'
    });
    // eslint-disable-next-line @typescript-eslint/no-var-requires
    const engine = require(out) as Engine & { nodeCopies: typeof nodeCopies };

    return pick(engine, engine.nodeCopies, 'esbuild bundle');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function loadEngine(build: 'bundle' | 'tsx'): BenchEngine {
  return build === 'bundle' ? bundled() : pick(sources, nodeCopies, 'tsx modules');
}
