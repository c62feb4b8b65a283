/** What a subcommand needs from the outside world, so tests can run it in-process. */
export interface CliIo {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  readFile: (path: string) => string;
  writeFile: (path: string, content: string) => void;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

/** --now must be RFC3339 so a report is reproducible; anything else is rejected, not guessed. */
export function parseNow(value: string): string {
  if (!RFC3339.test(value) || Number.isNaN(Date.parse(value))) {
    throw new RangeError(`--now must be an RFC3339 time such as 2026-01-15T08:00:00Z, not ${ JSON.stringify(value) }`);
  }

  return new Date(Date.parse(value)).toISOString();
}
