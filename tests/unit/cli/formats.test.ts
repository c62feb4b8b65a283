/**
 * The command line's --format takes every format of report/formats.ts, CSV included: the same table the tab's
 * export downloads (without the byte order mark a download starts with), the same exit status as the text.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'papaparse';
import { runCli } from './run-cli';
import { buildScenario, GHOST_MACHINE } from '../../../scenarios/catalog';
import { cliTranslator } from '../../../cli/l10n';
import { diagnose } from '@pkg/node-health/engine';
import { redactObjects } from '@pkg/node-health/export';
import { CSV_COLUMNS } from '@pkg/node-health/report/csv';
import { REPORT_FORMAT_NAMES, REPORT_FORMATS, reportFile } from '@pkg/node-health/report/formats';

const dir = mkdtempSync(join(tmpdir(), 'node-health-formats-'));
const ghost = buildScenario('ghost-etcd');
const objects = [...ghost.objects, ...ghost.downstream[ghost.clusters[0].mgmtId]];
const file = join(dir, 'ghost.json');

writeFileSync(file, JSON.stringify({
  apiVersion: 'v1', kind: 'List', items: objects
}));

describe('report formats', () => {
  it('are text, Markdown, JSON and CSV, each with its file type', () => {
    expect(REPORT_FORMAT_NAMES).toEqual(['text', 'markdown', 'json', 'csv']);
    expect(REPORT_FORMAT_NAMES.map((f) => REPORT_FORMATS[f].extension)).toEqual(['txt', 'md', 'json', 'csv']);
  });

  it('--format csv prints one row per node under translated headings, and exits 1 for the error findings', async() => {
    const r = await runCli(['diagnose', '--format', 'csv', '--now', ghost.now, file]);

    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    expect(r.stdout.startsWith('\uFEFF')).toBe(false);
    const table = parse(r.stdout, { skipEmptyLines: true });

    expect(table.errors).toEqual([]);
    const [headings, ...rows] = table.data as string[][];

    expect(headings).toHaveLength(CSV_COLUMNS.length);
    expect(headings[1]).toBe(cliTranslator('en-us')('nodeHealth.export.csv.machine'));
    const ghostRow = rows.find((row) => row[1] === GHOST_MACHINE);

    expect(ghostRow?.[3]).toBe('error');
    // Every broken machine (or machine-less Node) of the scenario has its row, in error or warning.
    for (const name of Object.keys(ghost.expected)) {
      expect(rows.find((row) => row[1] === name || row[2] === name)?.[3]).toMatch(/^(error|warning)$/);
    }
  });

  it('--format csv is the table the tab downloads, less the byte order mark', async() => {
    const t = cliTranslator('en-us');
    const report = diagnose(redactObjects(objects).objects, { now: ghost.now });
    const download = reportFile('csv', report, t);
    const r = await runCli(['diagnose', '--format', 'csv', '--now', ghost.now, file]);

    expect(download.mimeType).toBe('text/csv;charset=utf-8');
    expect(download.content).toBe(`\uFEFF${ r.stdout }`);
  });

  it('--format names what it takes when given something else', async() => {
    const r = await runCli(['diagnose', '--format', 'html', file]);

    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--format must be text, json or markdown for a report, or csv for a table of the nodes, not "html"/);
  });
});
