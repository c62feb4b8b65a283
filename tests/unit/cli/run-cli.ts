import { readFileSync, writeFileSync } from 'node:fs';
import { main } from '../../../cli/main';
import type { CliIo } from '../../../cli/io';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the command line in-process, as `node-health <argv>` would, and collects what it printed. */
export async function runCli(argv: string[]): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (s) => {
      stdout += s;
    },
    stderr: (s) => {
      stderr += s.endsWith('\n') ? s : `${ s }\n`;
    },
    readFile:  (p) => readFileSync(p, 'utf8'),
    writeFile: (p, c) => writeFileSync(p, c),
  };
  const code = await main(argv, io);

  return {
    code, stdout, stderr
  };
}
