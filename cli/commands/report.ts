/**
 * `node-health report INPUT -o report.html`: the diagnosis as one HTML file that opens from disk in any
 * browser, with no network and no server (pkg/node-health/report/html). From a bundle it shows the bundle's
 * own header; from kubectl output or Rancher the objects go through the bundle's redaction first, so the file
 * never shows more than a bundle would.
 */
import { REDACTION_KINDS, sanitizeDiagnosis } from '../../pkg/node-health/export';
import type { RedactionSummary } from '../../pkg/node-health/export';
import { HTML_REPORT_LANGUAGES, renderHtmlReport } from '../../pkg/node-health/report/html';
import type { HtmlReportLanguage, HtmlReportSource } from '../../pkg/node-health/report/html';
import extensionPackage from '../../pkg/node-health/package.json';
import type { BundleHeader } from '../input';
import { cliTranslator } from '../l10n';
import type { CliIo } from '../io';
import { RANCHER_USAGE } from '../rancher';
import { failedCommand, parseWriteArgs, readCommandInput, sanitizeOptions } from './command-input';

export const REPORT_USAGE = `node-health report [--now <RFC3339>] [--obfuscate] [--lang en-us|zh-hans] -o <file.html|-> (PATH... | ${ RANCHER_USAGE })`;

function distinct(values: (string | null)[]): string | null {
  const set = Array.from(new Set(values.filter((v): v is string => !!v)));

  return set.length ? set.join(', ') : null;
}

/** The header the file shows: the bundles' own, or how this command read and redacted its input. */
export function reportSource(
  bundles: BundleHeader[], from: 'kubectl' | 'rancher', now: string, redactions: RedactionSummary, obfuscated: boolean, clusters: string[]
): HtmlReportSource {
  if (bundles.length > 0) {
    const summed: Partial<RedactionSummary> = {};

    for (const kind of REDACTION_KINDS) {
      const n = bundles.reduce((sum, b) => sum + (b.redactions[kind] ?? 0), 0);

      if (n > 0) {
        summed[kind] = n;
      }
    }

    return {
      from:             'bundle',
      cluster:          distinct(bundles.map((b) => b.cluster)) ?? distinct(clusters),
      createdAt:        distinct(bundles.map((b) => b.createdAt)) ?? now,
      rancherVersion:   distinct(bundles.map((b) => b.rancherVersion)),
      extensionVersion: distinct(bundles.map((b) => b.extensionVersion)),
      obfuscated:       bundles.every((b) => b.obfuscated) || obfuscated,
      redactions:       summed,
    };
  }

  return {
    from,
    cluster:          distinct(clusters),
    createdAt:        now,
    rancherVersion:   null,
    extensionVersion: extensionPackage.version ?? null,
    obfuscated,
    redactions:       { ...redactions },
  };
}

/** Exit 0 when the file was written, 2 for input or options that cannot be used. */
export async function runReport(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseWriteArgs('report', REPORT_USAGE, 'file.html', argv, io);

  if (!parsed) {
    return 2;
  }
  const { values, positionals, output } = parsed;
  const lang = values.lang as HtmlReportLanguage;

  if (!HTML_REPORT_LANGUAGES.includes(lang)) {
    io.stderr(`node-health report: unknown language ${ JSON.stringify(lang) } (use ${ HTML_REPORT_LANGUAGES.join(' or ') })`);

    return 2;
  }
  try {
    const input = await readCommandInput('report', values, positionals, io);
    // The bundle's redaction and re-diagnosis: what the file shows is what a bundle of the same input may show.
    const sanitized = sanitizeDiagnosis(sanitizeOptions(input, !!values.obfuscate));

    sanitized.leftOut.forEach((v) => io.stderr(`node-health report: left out ${ v.field } of ${ v.object }: ${ v.reason }`));
    const report = sanitized.report;
    const source = reportSource(input.bundles, input.fromRancher ? 'rancher' : 'kubectl', report.now, sanitized.redactions, sanitized.obfuscated, report.clusters.map((c) => c.name));
    const html = renderHtmlReport({
      report,
      lang,
      source,
      translators: { 'en-us': cliTranslator('en-us'), 'zh-hans': cliTranslator('zh-hans') },
    });

    if (output === '-') {
      io.stdout(html);
    } else {
      io.writeFile(output, html);
    }
    const findings = report.records.reduce((n, r) => n + r.findings.length, 0);

    io.stderr(`node-health report: ${ output === '-' ? 'wrote the report' : `wrote ${ output }` }: ${ report.records.length } records, ${ findings } findings, ${ Buffer.byteLength(html) } bytes`);

    return 0;
  } catch (e: any) {
    return failedCommand('report', e, io, output);
  }
}
