/**
 * One CSV row per record, for a spreadsheet. Cluster text is untrusted: a cell that a spreadsheet would
 * read as a formula (=, +, -, @, or a leading tab or carriage return) gets a leading apostrophe.
 */
import { unparse } from 'papaparse';
import { leadFinding } from '../engine';
import type { DiagnosisReport } from '../engine';
import { sortRecords } from './render';
import type { Translate } from './translate';
import { withLocalArgs } from './durations';

export const CSV_COLUMNS = [
  'cluster', 'machine', 'node', 'status', 'roles', 'os', 'phase', 'planState', 'topFindingRule', 'topFindingTitle', 'findingCount', 'since',
] as const;

export type CsvColumn = typeof CSV_COLUMNS[number];

const FORMULA_START = /^[=+\-@\t\r]/;

/** A cell as a spreadsheet will show it: text that could start a formula is made plain text. */
export function csvCell(value: string | number | null | undefined): string | number {
  if (value === null || value === undefined) {
    return '';
  }
  if (typeof value === 'number') {
    return value;
  }

  return FORMULA_START.test(value) ? `'${ value }` : value;
}

export function csvRows(report: DiagnosisReport, translate: Translate): (string | number)[][] {
  const t = withLocalArgs(translate);

  return sortRecords(report.records).map((r) => {
    const top = leadFinding(r);
    const row: Record<CsvColumn, string | number | null> = {
      cluster:         r.cluster?.name ?? null,
      machine:         r.objects.machine ? r.machineName : null,
      node:            r.nodeName,
      status:          r.status,
      roles:           r.roles.join(' '),
      os:              r.os,
      phase:           r.phase,
      planState:       r.plan.state,
      topFindingRule:  top?.rule ?? null,
      topFindingTitle: top ? t(top.titleKey, top.args) : null,
      findingCount:    r.findings.length,
      since:           r.statusSince,
    };

    return CSV_COLUMNS.map((c) => csvCell(row[c]));
  });
}

/** The CSV text, with translated column headings. */
export function toCsv(report: DiagnosisReport, t: Translate): string {
  return unparse({
    fields: CSV_COLUMNS.map((c) => String(csvCell(t(`nodeHealth.export.csv.${ c }`)))),
    data:   csvRows(report, t),
  }, { newline: '\r\n', escapeFormulae: false });
}
