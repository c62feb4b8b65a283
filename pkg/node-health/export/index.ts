/**
 * The diagnostics export: redaction, pseudonyms and the bundle; the Markdown and CSV of the sanitized diagnosis
 * in the formats of ../report/formats. Pure TypeScript.
 */
import { renderReport } from '../report/formats';
import type { Translate } from '../report/translate';
import type { SanitizedDiagnosis } from './bundle';

export {
  REDACTED, REDACTION_KINDS, redactObjects, redactObject, redactString, redactValue, isSecretKey, emptySummary
} from './redact';
export type {
  LeftOutValue, RedactedObjects, RedactionKind, RedactionSummary
} from './redact';
export { createObfuscator } from './obfuscate';
export { parseIPv4, parseIPv6 } from '../engine';
export type { Obfuscator } from './obfuscate';
export { BUNDLE_FORMAT } from '../engine';
export {
  createBundle, bundleFromSanitized, bundleRecords, sanitizeDiagnosis, settledAvailability
} from './bundle';
export type {
  BundleFinding, BundleOptions, BundleRecord, NodeHealthBundle, SanitizeOptions
} from './bundle';
export {
  redactDiagnosis, sanitizedOf, unreadableOf
} from './redacted';
export type {
  ExportAbout, RedactedDiagnosis, SanitizedDiagnosis, UnreadableInput
} from './redacted';

/** The ticket text: Markdown of the sanitized diagnosis. */
export function exportMarkdown(sanitized: SanitizedDiagnosis, t: Translate): string {
  return renderReport('markdown', sanitized.report, t);
}

/** The spreadsheet: CSV of the sanitized diagnosis. */
export function exportCsv(sanitized: SanitizedDiagnosis, t: Translate): string {
  return renderReport('csv', sanitized.report, t);
}

/** node-health-<cluster>-<time>.<ext>, with only characters every file system accepts. */
export function exportFileName(clusterName: string | null | undefined, createdAt: string, extension: string): string {
  const safe = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '');
  const cluster = clusterName ? safe(clusterName) : '';
  const stamp = safe(createdAt.replace(/\.\d+Z$/, 'Z').replace(/:/g, ''));

  return `node-health${ cluster ? `-${ cluster }` : '' }-${ stamp }.${ extension }`;
}
