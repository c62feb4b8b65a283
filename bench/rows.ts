/**
 * Node Health tab benchmark: the time to turn loaded data into table rows for a large cluster, i.e. what the
 * tab does in the browser after every poll: diagnose the objects, then map the records to rows (with the
 * finding titles translated for the search). The data is loaded once, untimed, through the tab's own loader
 * from a Steve stand-in, so the objects have the shape (and the reduced plan secrets) the browser sees.
 *   yarn -s bench:rows [--nodes 5000] [--runs 7] [--json]
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { load } from 'js-yaml';
import { buildRows, clusterTarget, diagnoseLoad, loadClusterData } from '../pkg/node-health/data';
import { createTranslator } from '../pkg/node-health/report/translate';
import { large } from '../scenarios/catalog';
import { clusterResource, fakeSteve } from '../tests/components/tab-steve';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);

  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      nodes: { type: 'string', default: '5000' },
      runs:  { type: 'string', default: '7' },
      json:  { type: 'boolean', default: false },
    },
  });
  const nodes = Number(values.nodes);
  const runs = Number(values.runs);

  if (!Number.isInteger(nodes) || nodes < 1 || !Number.isInteger(runs) || runs < 1) {
    throw new Error('--nodes and --runs take positive integers');
  }

  const scenario = large(nodes, { seed: `bench-rows-${ nodes }` });
  const target = clusterTarget(clusterResource(scenario));

  if (!target) {
    throw new Error('the scenario has no provisioning cluster');
  }
  const loaded = await loadClusterData(fakeSteve(scenario).dispatch, target, { now: () => Date.parse(scenario.now) });
  const messages = load(readFileSync(join(__dirname, '../pkg/node-health/l10n/en-us.yaml'), 'utf8'));
  const t = createTranslator(messages, 'en-us');
  const diagnoseMs: number[] = [];
  const rowsMs: number[] = [];
  const totalMs: number[] = [];
  let rowCount = 0;

  // One untimed round warms the JIT and the translator's cache, as the tab's first load does.
  buildRows(diagnoseLoad(target, loaded), t);
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const report = diagnoseLoad(target, loaded);
    const diagnosed = performance.now();
    const rows = buildRows(report, t);
    const end = performance.now();

    rowCount = rows.length;
    diagnoseMs.push(diagnosed - start);
    rowsMs.push(end - diagnosed);
    totalMs.push(end - start);
  }

  const figure = {
    nodes,
    objects:     loaded.objects.length,
    requests:    loaded.requests.length,
    rows:        rowCount,
    runs,
    median_ms:   round(median(totalMs)),
    diagnose_ms: round(median(diagnoseMs)),
    rows_ms:     round(median(rowsMs)),
  };

  if (values.json) {
    console.log(JSON.stringify(figure));

    return;
  }
  console.log(`Node Health tab rows for ${ nodes } nodes (${ figure.objects } objects from ${ figure.requests } requests, ${ figure.rows } rows)`);
  console.log(`  median of ${ runs } runs: ${ figure.median_ms } ms (diagnose ${ figure.diagnose_ms } ms + rows ${ figure.rows_ms } ms)`);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
