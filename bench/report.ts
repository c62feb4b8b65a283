/**
 * Report file benchmark: makes the bundle of a synthetic cluster (10,000 nodes by default, as scenario
 * huge-10000), then its report file with `node-health report`, opens the file from disk in headless Chromium
 * (every request but the file refused) and prints the time to the first rows, to a status filter and to a sort,
 * and the file's size against the bundle's. Figures, not a test: the target is first rows within 2 s.
 *   yarn -s bench:report [--nodes 10000] [--runs 3] [--json] [--keep DIR]
 */
import {
  mkdtempSync, readFileSync, rmSync, statSync, writeFileSync
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { main as cli } from '../cli/main';
import type { CliIo } from '../cli/io';
import { large } from '../scenarios/catalog';
import { asTheTabReads } from './tab-input';
import { CHROMIUM, CHROMIUM_ARGS } from '../tests/e2e/harness';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);

  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const io: CliIo = {
  stdout:    () => undefined,
  stderr:    () => undefined,
  readFile:  (p) => readFileSync(p, 'utf8'),
  writeFile: (p, c) => writeFileSync(p, c),
};

async function run(): Promise<void> {
  const { values } = parseArgs({
    options: {
      nodes: { type: 'string', default: '10000' },
      runs:  { type: 'string', default: '3' },
      json:  { type: 'boolean', default: false },
      keep:  { type: 'string' },
    },
  });
  const nodes = Number(values.nodes);
  const runs = Math.max(1, Number(values.runs) || 3);
  const dir = values.keep ?? mkdtempSync(join(tmpdir(), 'node-health-report-'));
  const scenario = large(nodes);
  const input = join(dir, 'objects.json');
  const bundle = join(dir, 'bundle.json');
  const html = join(dir, 'report.html');

  writeFileSync(input, JSON.stringify({
    apiVersion: 'v1', kind: 'List', items: asTheTabReads([...scenario.objects, ...Object.values(scenario.downstream).flat()], scenario.now)
  }));
  if (await cli(['bundle', '--now', scenario.now, '-o', bundle, input], io) !== 0) {
    throw new Error('node-health bundle failed');
  }
  const t0 = performance.now();

  if (await cli(['report', '-o', html, bundle], io) !== 0) {
    throw new Error('node-health report failed');
  }
  const generateMs = performance.now() - t0;
  const bundleBytes = statSync(bundle).size;
  const htmlBytes = statSync(html).size;
  const browser = await chromium.launch({
    executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true
  });
  const firstRows: number[] = [];
  const filters: number[] = [];
  const sorts: number[] = [];
  const url = pathToFileURL(html).href;

  try {
    for (let i = 0; i < runs; i++) {
      const page = await browser.newPage();

      await page.route('**', (route) => (route.request().url() === url ? route.continue() : route.abort()));
      await page.goto(url);
      await page.locator('[data-testid="nh-r-row"]').first().waitFor();
      firstRows.push(await page.evaluate(() => performance.getEntriesByName('nh-report-rendered')[0].startTime));
      filters.push(await page.evaluate(() => {
        const select = document.querySelector('[data-testid="nh-r-status"]') as HTMLSelectElement;
        const start = performance.now();

        select.value = 'error';
        select.dispatchEvent(new Event('change'));

        return performance.now() - start;
      }));
      sorts.push(await page.evaluate(() => {
        const start = performance.now();

        (document.querySelector('[data-testid="nh-r-sort-machine"]') as HTMLElement).click();

        return performance.now() - start;
      }));
      await page.close();
    }
  } finally {
    await browser.close();
    if (!values.keep) {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const figure = {
    nodes,
    generate_ms:    Math.round(generateMs), // eslint-disable-line camelcase
    first_rows_ms:  Math.round(median(firstRows)), // eslint-disable-line camelcase
    filter_ms:      Math.round(median(filters)), // eslint-disable-line camelcase
    sort_ms:        Math.round(median(sorts)), // eslint-disable-line camelcase
    bundle_bytes:   bundleBytes, // eslint-disable-line camelcase
    report_bytes:   htmlBytes, // eslint-disable-line camelcase
    size_ratio:     Math.round(htmlBytes / bundleBytes * 100) / 100, // eslint-disable-line camelcase
  };

  if (values.json) {
    process.stdout.write(`${ JSON.stringify(figure) }\n`);
  } else {
    process.stdout.write(`report of ${ nodes } nodes: generated in ${ figure.generate_ms } ms; first rows ${ figure.first_rows_ms } ms, status filter ${ figure.filter_ms } ms, sort ${ figure.sort_ms } ms (median of ${ runs }, headless Chromium); ${ (htmlBytes / 1e6).toFixed(1) } MB, ${ figure.size_ratio }x the bundle's ${ (bundleBytes / 1e6).toFixed(1) } MB\n`);
  }
}

run().catch((e) => {
  process.stderr.write(`bench:report: ${ e?.stack ?? e }\n`);
  process.exitCode = 1;
});
