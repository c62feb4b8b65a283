/**
 * `node-health bundle`: the tab's "Download diagnostics" on kubectl output, so a customer can make the
 * bundle on their side and send it. Same redaction and pseudonyms as the tab; `node-health diagnose` reads
 * the bundle back and gives the same findings.
 */
import { createBundle, REDACTION_KINDS } from '../../pkg/node-health/export';
import type { NodeHealthBundle } from '../../pkg/node-health/export';
import extensionPackage from '../../pkg/node-health/package.json';
import { InputError } from '../input';
import { cliTranslator } from '../l10n';
import type { CliIo } from '../io';
import { parseCommandArgs } from '../io';
import { RANCHER_OPTIONS, RANCHER_USAGE, RancherError } from '../rancher';
import { readCommandInput } from './command-input';

export const BUNDLE_USAGE = `node-health bundle [--now <RFC3339>] [--obfuscate] [--lang en-us|zh-hans] -o <file|-> (PATH... | ${ RANCHER_USAGE })`;

export function bundleSummary(bundle: NodeHealthBundle): string {
  const findings = bundle.records.reduce((n, r) => n + r.findings.length, 0);
  const redacted = REDACTION_KINDS.filter((k) => bundle.redactions[k] > 0).map((k) => `${ k } ${ bundle.redactions[k] }`);

  const hosts = bundle.hostReports.length ? `, ${ bundle.hostReports.length } host reports (${ bundle.hosts.filter((h) => !h.matched).length } matching no machine)` : '';

  return `${ bundle.records.length } records, ${ findings } findings${ hosts }, left out or redacted: ${ redacted.length ? redacted.join(', ') : 'nothing' }${ bundle.obfuscated ? ', hostnames and IP addresses pseudonymised' : '' }`;
}

/** Exit 0 when the bundle was written, 2 for input or options that cannot be used. */
export async function runBundle(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseCommandArgs('bundle', BUNDLE_USAGE, {
    now:       { type: 'string' },
    obfuscate: { type: 'boolean', default: false },
    output:    { type: 'string', short: 'o' },
    lang:      { type: 'string', default: 'en-us' },
    ...RANCHER_OPTIONS,
  }, argv, io);

  if (!parsed) {
    return 2;
  }
  const { values, positionals } = parsed;
  const output = values.output as string | undefined;

  if (!output) {
    io.stderr(`node-health bundle: -o <file> is required (- for standard output) (usage: ${ BUNDLE_USAGE })`);

    return 2;
  }
  try {
    const t = cliTranslator(values.lang as string);
    const input = await readCommandInput('bundle', values, positionals, io);
    const bundle = createBundle({
      objects:          input.objects,
      now:              input.now,
      t,
      availability:     input.availability,
      defaultCluster:   input.defaultCluster,
      diagnoseWith:     input.diagnoseWith,
      obfuscate:        !!values.obfuscate,
      rancherVersion:   null,
      extensionVersion: extensionPackage.version ?? null,
      actionLog:        [],
      hostReports:      input.hostReports,
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
    if (e instanceof InputError || e instanceof RangeError || e instanceof RancherError) {
      io.stderr(`node-health bundle: ${ e.message }`);

      return 2;
    }
    if (e?.code && typeof e.code === 'string' && /^E[A-Z]+$/.test(e.code)) {
      io.stderr(`node-health bundle: ${ output }: cannot be written (${ e.code })`);

      return 2;
    }
    throw e;
  }
}
