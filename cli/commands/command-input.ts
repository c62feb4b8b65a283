/**
 * What `diagnose` and `bundle` read, from files or from Rancher, told the same way on standard error: files
 * passed over, lists read only in part, and the moment the diagnosis is made at.
 */
import type {
  ClusterIdentity, DiagnoseOptions, DiagnosisReport, HostReport, InputAvailability
} from '../../pkg/node-health/engine';
import type { SanitizeOptions } from '../../pkg/node-health/export';
import { loadInputs, InputError } from '../input';
import type { BundleHeader } from '../input';
import type { CliIo } from '../io';
import { parseCommandArgs, parseNow } from '../io';
import { diagnoseFromRancher, partialLine, RANCHER_OPTIONS, RancherError } from '../rancher';
import type { RancherDiagnosis } from '../rancher';

export interface CommandInput {
  objects: unknown[];
  /** RFC 3339: --now, else the bundle's moment, else when Rancher was read, else the clock */
  now: string;
  availability?: InputAvailability;
  defaultCluster?: string;
  /** the clusters' identity, when read from Rancher */
  clusters?: ClusterIdentity[];
  /** how the objects are diagnosed when they came from Rancher: as the tab or the fleet page does */
  diagnoseWith?: (objects: unknown[], options: DiagnoseOptions) => DiagnosisReport;
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
  const input = fromRancher ? null : loadInputs(positionals);

  input?.skipped.forEach((file) => say(`skipped ${ file }: not Kubernetes data`));
  input?.warnings.forEach(say);
  input?.partial.forEach((file) => say(`${ file } is one page of a longer list (it has a continue token): what is not in it is not called missing`));
  fromRancher?.partial.forEach((issue) => say(partialLine(issue)));

  return {
    objects:        fromRancher?.objects ?? input?.objects ?? [],
    now:            givenNow ?? input?.bundleNow ?? (fromRancher ? new Date(fromRancher.loadedAt).toISOString() : new Date().toISOString()),
    availability:   fromRancher?.availability ?? input?.availability,
    defaultCluster: fromRancher?.defaultCluster,
    clusters:       fromRancher?.clusters,
    diagnoseWith:   fromRancher?.diagnoseWith,
    hostReports:    input?.hostReports ?? [],
    bundles:        input?.bundles ?? [],
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
    objects:        input.objects,
    now:            input.now,
    availability:   input.availability,
    defaultCluster: input.defaultCluster,
    clusters:       input.clusters,
    hostReports:    input.hostReports,
    diagnoseWith:   input.diagnoseWith,
    obfuscate,
  };
}
