import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';

/** What a subcommand needs from the outside world, so tests can run it in-process. */
export interface CliIo {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  readFile: (path: string) => string;
  writeFile: (path: string, content: string) => void;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

const RFC3339_PARTS = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:Z|[+-](\d{2}):(\d{2}))$/i;

/** Whether every field of an RFC3339 time is within its range: Date.parse reads 2024-02-30 as 1 March. */
function isRealTime(value: string): boolean {
  const m = RFC3339_PARTS.exec(value);

  if (!m) {
    return false;
  }
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  const offsetHours = m[7] === undefined ? 0 : Number(m[7]);
  const offsetMinutes = m[8] === undefined ? 0 : Number(m[8]);
  const date = new Date(Date.UTC(year, month - 1, day));

  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day &&
    hour <= 23 && minute <= 59 && second <= 59 && offsetHours <= 23 && offsetMinutes <= 59;
}

/** --now must be RFC3339 so a report is reproducible; anything else is rejected, not guessed. */
export function parseNow(value: string): string {
  if (!RFC3339.test(value) || !isRealTime(value) || Number.isNaN(Date.parse(value))) {
    throw new RangeError(`--now must be an RFC3339 time such as 2026-01-15T08:00:00Z, not ${ JSON.stringify(value) }`);
  }

  return new Date(Date.parse(value)).toISOString();
}

/**
 * The options and paths of a subcommand, or null after writing the one-line usage error the command line
 * promises for bad options (exit 2).
 */
export function parseCommandArgs(
  command: string, usage: string, options: NonNullable<ParseArgsConfig['options']>, argv: string[], io: CliIo
): { values: Record<string, unknown>; positionals: string[] } | null {
  try {
    const { values, positionals } = parseArgs({
      args: argv, options, allowPositionals: true
    });

    return { values, positionals };
  } catch (e: any) {
    io.stderr(`node-health ${ command }: ${ String(e?.message ?? e).split('\n')[0] } (usage: ${ usage })`);

    return null;
  }
}
