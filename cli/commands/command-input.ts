/**
 * What `diagnose` and `bundle` read, from files or from Rancher, told the same way on standard error: files
 * passed over, lists read only in part, and the moment the diagnosis is made at.
 */
import type { DiagnoseOptions, DiagnosisReport, HostReport, InputAvailability } from '../../pkg/node-health/engine';
import { loadInputs } from '../input';
import type { BundleHeader } from '../input';
import type { CliIo } from '../io';
import { parseNow } from '../io';
import { diagnoseFromRancher, partialLine } from '../rancher';
import type { RancherDiagnosis } from '../rancher';

export interface CommandInput {
  objects: unknown[];
  /** RFC 3339: --now, else the bundle's moment, else when Rancher was read, else the clock */
  now: string;
  availability?: InputAvailability;
  defaultCluster?: string;
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
    diagnoseWith:   fromRancher?.diagnoseWith,
    hostReports:    input?.hostReports ?? [],
    bundles:        input?.bundles ?? [],
    fromRancher,
  };
}
