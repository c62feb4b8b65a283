/**
 * What `diagnose` and `bundle` read, from files or from Rancher, told the same way on standard error: files
 * passed over, lists read only in part, and the moment the diagnosis is made at.
 */
import type { HostReport, KubeObject } from '../../pkg/node-health/engine';
import type { DiagnosisInput } from '../../pkg/node-health/data/input';
import type { SanitizeOptions } from '../../pkg/node-health/export';
import { loadInputs, InputError } from '../input';
import type { BundleHeader } from '../input';
import type { CliIo } from '../io';
import { parseCommandArgs, parseNow } from '../io';
import { diagnoseFromRancher, partialLine, RANCHER_OPTIONS, RancherError } from '../rancher';
import type { RancherDiagnosis } from '../rancher';

export interface CommandInput {
  /**
   * What is diagnosed, in the one shape the tab and the fleet page use: from Rancher its clusters as targets; from
   * files no target (the engine reads the clusters from the objects). Its moment: --now, else the bundle's, else
   * when Rancher was read, else the clock (RFC 3339).
   */
  input: DiagnosisInput;
  hostReports: HostReport[];
  /** the headers of the bundles among the inputs */
  bundles: BundleHeader[];
  /** set when the objects came from Rancher */
  fromRancher: RancherDiagnosis | null;
}

export async function readCommandInput(command: string, values: Record<string, unknown>, positionals: string[], io: CliIo): Promise<CommandInput> {
  const say = (line: string) => io.stderr(`node-health ${ command }: ${ line }`);
  const givenNow = values.now !== undefined ? parseNow(values.now as string) : null;
  const fromRancher = await diagnoseFromRancher(values, positionals, io.readFile);
  const files = fromRancher ? null : loadInputs(positionals);

  files?.skipped.forEach((file) => say(`skipped ${ file }: not Kubernetes data`));
  files?.warnings.forEach(say);
  files?.partial.forEach((file) => say(`${ file } is one page of a longer list (it has a continue token): what is not in it is not called missing`));
  fromRancher?.partial.forEach((issue) => say(partialLine(issue)));
  const read: DiagnosisInput = fromRancher?.input ?? {
    targets: [], objects: (files?.objects ?? []) as KubeObject[], availability: files?.availability ?? {}, now: ''
  };

  return {
    input:       { ...read, now: givenNow ?? files?.bundleNow ?? (fromRancher ? new Date(fromRancher.input.now).toISOString() : new Date().toISOString()) },
    hostReports: files?.hostReports ?? [],
    bundles:     files?.bundles ?? [],
    fromRancher,
  };
}

/** The options of the commands that write a diagnosis (bundle, report): its moment, pseudonyms, file and language. */
export const WRITE_OPTIONS = {
  now:       { type: 'string' },
  obfuscate: { type: 'boolean', default: false },
  output:    { type: 'string', short: 'o' },
  lang:      { type: 'string', default: 'en-us' },
  ...RANCHER_OPTIONS,
} as const;

/** A writing command's arguments, with the file it writes (`-o`, required; `-` for standard output); null: said why. */
export function parseWriteArgs(
  command: string, usage: string, file: string, argv: string[], io: CliIo
): { values: Record<string, unknown>; positionals: string[]; output: string } | null {
  const parsed = parseCommandArgs(command, usage, WRITE_OPTIONS, argv, io);
  const output = parsed?.values.output as string | undefined;

  if (parsed && !output) {
    io.stderr(`node-health ${ command }: -o <${ file }> is required (- for standard output) (usage: ${ usage })`);
  }

  return parsed && output ? {
    values: parsed.values, positionals: parsed.positionals, output
  } : null;
}

/**
 * A command's failure as its exit code: 2, said on standard error, for input, options or an output file that cannot
 * be used; anything else is a defect and is thrown on.
 */
export function failedCommand(command: string, e: any, io: CliIo, output?: string): number {
  if (e instanceof InputError || e instanceof RangeError || e instanceof RancherError) {
    io.stderr(`node-health ${ command }: ${ e.message }`);

    return 2;
  }
  if (output !== undefined && e?.code && typeof e.code === 'string' && /^E[A-Z]+$/.test(e.code)) {
    io.stderr(`node-health ${ command }: ${ output }: cannot be written (${ e.code })`);

    return 2;
  }
  throw e;
}

/** What a bundle or a report file is made of: the input's objects, through the bundle's redaction and diagnosis. */
export function sanitizeOptions(input: CommandInput, obfuscate: boolean): SanitizeOptions {
  return {
    ...input.input, hostReports: input.hostReports, obfuscate
  };
}
