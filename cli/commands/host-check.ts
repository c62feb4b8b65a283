/**
 * `node-health host-check --os linux|windows`: prints the read-only host check for a node's host. Run what it
 * prints on the host (as root, or in an administrator PowerShell); it prints a node-health-host/v1 report that
 * `node-health diagnose` and `bundle` take among their inputs. The tab offers the same files.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HOST_CHECK_FILES, HOST_REPORT_FILE, WINDOWS_RUN, WINDOWS_SCRIPT_FILE } from '../../pkg/node-health/host-check';
import type { HostCheckOs } from '../../pkg/node-health/host-check';
import type { CliIo } from '../io';
import { parseCommandArgs } from '../io';

export const HOST_CHECK_USAGE = 'node-health host-check --os linux|windows';

const SCRIPT_DIR = join(__dirname, '..', '..', 'pkg', 'node-health', 'host-check');

export function hostCheckScript(os: HostCheckOs): string {
  return readFileSync(join(SCRIPT_DIR, HOST_CHECK_FILES[os]), 'utf8');
}

/** Exit 0 with the script on stdout and how to run it on stderr; 2 for options that cannot be used. */
export async function runHostCheck(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseCommandArgs('host-check', HOST_CHECK_USAGE, { os: { type: 'string' } }, argv, io);

  if (!parsed) {
    return 2;
  }
  const os = parsed.values.os;

  if (os !== 'linux' && os !== 'windows') {
    io.stderr(`node-health host-check: --os must be linux or windows (usage: ${ HOST_CHECK_USAGE })`);

    return 2;
  }
  if (parsed.positionals.length > 0) {
    io.stderr(`node-health host-check: unexpected argument ${ JSON.stringify(parsed.positionals[0]) } (usage: ${ HOST_CHECK_USAGE })`);

    return 2;
  }
  io.stdout(hostCheckScript(os));
  io.stderr(os === 'linux' ? `node-health host-check: on the host: sudo sh node-health-host-check.sh [--offline] > ${ HOST_REPORT_FILE }` : `node-health host-check: save as ${ WINDOWS_SCRIPT_FILE }; on the host, in an administrator PowerShell: ${ WINDOWS_RUN }`);

  return 0;
}
