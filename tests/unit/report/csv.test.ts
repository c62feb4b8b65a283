import { parse } from 'papaparse';
import { diagnose } from '@pkg/node-health/engine';
import type { KubeObject } from '@pkg/node-health/engine';
import { sanitizeDiagnosis, exportCsv } from '@pkg/node-health/export';
import { CSV_COLUMNS, csvCell, toCsv } from '@pkg/node-health/report/csv';
import { cliTranslator } from '../../../cli/l10n';
import { kubectlObjects, scenario } from '../export/fixtures';

const t = cliTranslator('en-us');
const NOW = '2026-01-15T08:00:00Z';

function rows(csv: string): string[][] {
  const result = parse(csv, { skipEmptyLines: true });

  expect(result.errors).toEqual([]);

  return result.data;
}

/** A Node whose cluster text was written by someone hostile: names and messages that a spreadsheet runs. */
function hostileNode(name: string, reason: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind:       'Node',
    metadata:   {
      name, creationTimestamp: '2025-01-01T00:00:00Z', annotations: { 'cluster.x-k8s.io/cluster-name': '=cmd|\' /C calc\'!A0' }
    },
    status:     {
      conditions: [{
        type: 'Ready', status: 'False', reason, message: 'down', lastTransitionTime: '2026-01-01T00:00:00Z'
      }]
    },
  };
}

describe('csvCell', () => {
  it.each([
    ['=HYPERLINK("http://x")', '\'=HYPERLINK("http://x")'],
    ['+1+2', '\'+1+2'],
    ['-2+3', '\'-2+3'],
    ['@SUM(A1)', '\'@SUM(A1)'],
    ['\tcmd', '\'\tcmd'],
    ['\rcmd', '\'\rcmd'],
    ['custom-2d74d4c9a104', 'custom-2d74d4c9a104'],
    ['a=b', 'a=b'],
  ])('%j becomes %j', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  it('leaves numbers as numbers and empties empty', () => {
    expect(csvCell(-3)).toBe(-3);
    expect(csvCell(null)).toBe('');
  });
});

describe('toCsv', () => {
  const s = scenario('every-failure');
  const report = diagnose(kubectlObjects(s), { now: s.now });
  const table = rows(toCsv(report, t));

  it('has translated headings and one row per record', () => {
    expect(table[0]).toEqual(['Cluster', 'Machine', 'Node', 'Status', 'Roles', 'OS', 'Phase', 'Plan state', 'Top finding rule', 'Top finding', 'Findings', 'Since']);
    expect(table).toHaveLength(report.records.length + 1);
    expect(table.every((r) => r.length === CSV_COLUMNS.length)).toBe(true);
  });

  it('puts the record facts and its most important finding in the row', () => {
    const record = report.records.find((r) => r.machineName === 'custom-3c9a1f7e2d43');
    const row = table.find((r) => r[1] === 'custom-3c9a1f7e2d43') as string[];

    expect(row).toEqual([
      'ef-rke2', 'custom-3c9a1f7e2d43', record?.nodeName, record?.status, record?.roles.join(' '), record?.os, record?.phase ?? '', record?.plan.state,
      record?.findings[0].rule, t(record?.findings[0].titleKey as string, record?.findings[0].args), String(record?.findings.length), record?.statusSince ?? '',
    ]);
  });

  it('writes text a spreadsheet would run as plain text, and keeps quotes, commas and line breaks inside a cell', () => {
    const objects = [
      hostileNode('=1+1', '@SUM(1,2)'),
      hostileNode('plain', 'line one\nline "two", three'),
    ];
    const hostile = diagnose(objects, { now: NOW, defaultCluster: '+cluster' });
    const parsed = rows(toCsv(hostile, t)).slice(1);
    const byNode = new Map(parsed.map((r) => [r[2], r]));

    expect([...byNode.keys()].sort()).toEqual(['\'=1+1', 'plain']);
    expect(parsed.every((r) => r[0] === '\'+cluster')).toBe(true);
    for (const row of parsed) {
      expect(row.filter((cell) => /^[=+\-@\t\r]/.test(cell))).toEqual([]);
    }
    expect(parsed.find((r) => r[2] === 'plain')?.[9]).toContain(t('nodeHealth.rules.nodeNotReady.title'));
  });

  it('comes from the sanitized report in the export', () => {
    const sanitized = sanitizeDiagnosis({
      objects: kubectlObjects(s), now: s.now, obfuscate: true
    });
    const csv = exportCsv(sanitized, t);

    expect(csv).not.toContain('ef-wk-notready');
    expect(csv).toContain('custom-c2a0d6e4b3f2');
  });
});
