/**
 * `node-health bundle`: the tab's "Download diagnostics" on kubectl output, so a customer can make the
 * bundle on their side and send it. Same redaction and pseudonyms as the tab; `node-health diagnose` reads
 * the bundle back and gives the same findings.
 */
import { createBundle, REDACTION_KINDS } from '../../pkg/node-health/export';
import type { NodeHealthBundle } from '../../pkg/node-health/export';
import extensionPackage from '../../pkg/node-health/package.json';
import { cliTranslator } from '../l10n';
import type { CliIo } from '../io';
import { RANCHER_USAGE } from '../rancher';
import { failedCommand, parseWriteArgs, readCommandInput, sanitizeOptions } from './command-input';

export const BUNDLE_USAGE = `node-health bundle [--now <RFC3339>] [--obfuscate] [--lang en-us|zh-hans] -o <file|-> (PATH... | ${ RANCHER_USAGE })`;

export function bundleSummary(bundle: NodeHealthBundle): string {
  const findings = bundle.records.reduce((n, r) => n + r.findings.length, 0);
  const redacted = REDACTION_KINDS.filter((k) => bundle.redactions[k] > 0).map((k) => `${ k } ${ bundle.redactions[k] }`);

  const hosts = bundle.hostReports.length ? `, ${ bundle.hostReports.length } host reports (${ bundle.hosts.filter((h) => !h.matched).length } matching no machine)` : '';

  return `${ bundle.records.length } records, ${ findings } findings${ hosts }, left out or redacted: ${ redacted.length ? redacted.join(', ') : 'nothing' }${ bundle.obfuscated ? ', hostnames and IP addresses pseudonymised' : '' }`;
}

/** Exit 0 when the bundle was written, 2 for input or options that cannot be used. */
export async function runBundle(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseWriteArgs('bundle', BUNDLE_USAGE, 'file', argv, io);

  if (!parsed) {
    return 2;
  }
  const { values, positionals, output } = parsed;

  try {
    const t = cliTranslator(values.lang as string);
    const input = await readCommandInput('bundle', values, positionals, io);
    const bundle = createBundle({
      ...sanitizeOptions(input, !!values.obfuscate),
      t,
      rancherVersion:   null,
      extensionVersion: extensionPackage.version ?? null,
      actionLog:        [],
      unreadable:       (input.fromRancher?.partial ?? []).map((i) => ({
        input: i.input, reason: i.kind, status: i.status
      })),
    });

    bundle.leftOut.forEach((v) => io.stderr(`node-health bundle: left out ${ v.field } of ${ v.object }: ${ v.reason }`));
    const text = `${ JSON.stringify(bundle, null, 2) }\n`;

    if (output === '-') {
      io.stdout(text);
    } else {
      io.writeFile(output, text);
    }
    io.stderr(`node-health bundle: ${ output === '-' ? 'wrote the bundle' : `wrote ${ output }` }: ${ bundleSummary(bundle) }`);

    return 0;
  } catch (e: any) {
    return failedCommand('bundle', e, io, output);
  }
}
