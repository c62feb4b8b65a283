/**
 * The formats a diagnosis is written in, for every front end: the command line's `--format` and the tab's
 * diagnostics export take them from here. Text for a terminal, Markdown for a ticket, JSON for programs
 * (durations both as numbers and in words), CSV for a spreadsheet (one row per record).
 */
import type { DiagnosisReport } from '../engine';
import { toCsv } from './csv';
import { renderText, toJsonReport } from './render';
import { renderMarkdown } from './markdown';
import type { Translate } from './translate';

export type ReportFormat = 'text' | 'markdown' | 'json' | 'csv';

export interface FormatSpec {
  /** The file name's ending */
  extension: string;
  /** The download's content type */
  mimeType: string;
  /** What a downloaded file starts with: CSV's byte order mark, by which spreadsheet programs read it as UTF-8 */
  filePrefix: string;
  render(report: DiagnosisReport, t: Translate): string;
}

export const REPORT_FORMATS: Readonly<Record<ReportFormat, FormatSpec>> = {
  text: {
    extension: 'txt', mimeType: 'text/plain;charset=utf-8', filePrefix: '', render: renderText
  },
  markdown: {
    extension: 'md', mimeType: 'text/markdown;charset=utf-8', filePrefix: '', render: renderMarkdown
  },
  json: {
    extension: 'json', mimeType: 'application/json', filePrefix: '', render: (report, t) => `${ JSON.stringify(toJsonReport(report, t), null, 2) }\n`
  },
  csv: {
    extension: 'csv', mimeType: 'text/csv;charset=utf-8', filePrefix: '\uFEFF', render: toCsv
  },
};

export const REPORT_FORMAT_NAMES = Object.keys(REPORT_FORMATS) as ReportFormat[];

export function isReportFormat(name: unknown): name is ReportFormat {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(REPORT_FORMATS, name);
}

/** The diagnosis in one format, as printed (the command line) or copied (the tab's Markdown). */
export function renderReport(format: ReportFormat, report: DiagnosisReport, t: Translate): string {
  return REPORT_FORMATS[format].render(report, t);
}

/** The diagnosis as a file to download: its content, with the format's prefix, and its content type. */
export function reportFile(format: ReportFormat, report: DiagnosisReport, t: Translate): { content: string; mimeType: string; extension: string } {
  const spec = REPORT_FORMATS[format];

  return {
    content: `${ spec.filePrefix }${ spec.render(report, t) }`, mimeType: spec.mimeType, extension: spec.extension
  };
}
