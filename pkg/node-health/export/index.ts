/** The diagnostics export: redaction, pseudonyms, the bundle, Markdown and CSV. Pure TypeScript. */
import { renderMarkdown } from '../report/render';
import type { Translate } from '../report/translate';
import type { SanitizedDiagnosis } from './bundle';
import { toCsv } from './csv';

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
  createBundle, bundleFromSanitized, bundleRecords, sanitizeDiagnosis, settledAvailability, reportObjects
} from './bundle';
export type {
  BundleFinding, BundleOptions, BundleRecord, NodeHealthBundle, SanitizeOptions, SanitizedDiagnosis, UnreadableInput
} from './bundle';
export {
  CSV_COLUMNS, csvCell, csvRows, toCsv
} from './csv';

/** The ticket text: Markdown of the sanitized diagnosis. */
export function exportMarkdown(sanitized: SanitizedDiagnosis, t: Translate): string {
  return renderMarkdown(sanitized.report, t);
}

export function exportCsv(sanitized: SanitizedDiagnosis, t: Translate): string {
  return toCsv(sanitized.report, t);
}

/** node-health-<cluster>-<time>.<ext>, with only characters every file system accepts. */
export function exportFileName(clusterName: string | null | undefined, createdAt: string, extension: string): string {
  const safe = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '');
  const cluster = clusterName ? safe(clusterName) : '';
  const stamp = safe(createdAt.replace(/\.\d+Z$/, 'Z').replace(/:/g, ''));

  return `node-health${ cluster ? `-${ cluster }` : '' }-${ stamp }.${ extension }`;
}
