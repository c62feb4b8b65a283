import { diagnoseInput } from '../../pkg/node-health/data/input';
import { redactObjects } from '../../pkg/node-health/export';
import { isReportFormat, renderReport, REPORT_FORMAT_NAMES } from '../../pkg/node-health/report/formats';
import { cliTranslator } from '../l10n';
import type { CliIo } from '../io';
import { parseCommandArgs } from '../io';
import { RANCHER_OPTIONS, RANCHER_USAGE } from '../rancher';
import { failedCommand, readCommandInput } from './command-input';

export const DIAGNOSE_USAGE = `node-health diagnose [--now <RFC3339>] [--format ${ REPORT_FORMAT_NAMES.join('|') }] [--lang en-us|zh-hans] (PATH... | ${ RANCHER_USAGE }); PATH: kubectl output, bundles, host reports`;

/** Exit 0 when nothing is wrong, 1 when any error finding, 2 for input that cannot be used. */
export async function runDiagnose(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseCommandArgs('diagnose', DIAGNOSE_USAGE, {
    now:    { type: 'string' },
    format: { type: 'string', default: 'text' },
    lang:   { type: 'string', default: 'en-us' },
    ...RANCHER_OPTIONS,
  }, argv, io);

  if (!parsed) {
    return 2;
  }
  const { values, positionals } = parsed;
  const format = values.format;

  if (!isReportFormat(format)) {
    io.stderr(`node-health diagnose: --format must be text, json or markdown for a report, or csv for a table of the nodes, not ${ JSON.stringify(format) }`);

    return 2;
  }
  try {
    const t = cliTranslator(values.lang as string);
    const input = await readCommandInput('diagnose', values, positionals, io);
    // The same objects a bundle would hold: what the diagnosis prints (evidence too) is only what a bundle may show.
    const sanitized = redactObjects(input.input.objects);

    sanitized.leftOut.forEach((v) => io.stderr(`node-health diagnose: left out ${ v.field } of ${ v.object }: ${ v.reason }`));
    const report = diagnoseInput({ ...input.input, objects: sanitized.objects }, undefined, input.hostReports);

    io.stdout(renderReport(format, report, t));

    return [...report.records, ...report.clusters].some((x) => x.findings.some((f) => f.severity === 'error')) ? 1 : 0;
  } catch (e: any) {
    return failedCommand('diagnose', e, io);
  }
}
