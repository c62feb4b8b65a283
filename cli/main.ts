/**
 * node-health: the diagnosis engine on the command line, for support staff and scripts.
 *   node-health diagnose [--now T] [--format text|markdown|json|csv] PATH...
 *   node-health diagnose --server URL --token-file FILE (--cluster NAME | --all-clusters) [--ca-file F | --insecure]
 *   node-health report [--now T] [--lang en-us|zh-hans] -o report.html (PATH... | --server URL ...)
 *   node-health register-command --token FILE --os linux|windows [options]
 *   node-health host-check --os linux|windows
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { CliIo } from './io';
import { DIAGNOSE_USAGE, runDiagnose } from './commands/diagnose';
import { runRegisterCommand } from './commands/register-command';
import { BUNDLE_USAGE, runBundle } from './commands/bundle';
import { HOST_CHECK_USAGE, runHostCheck } from './commands/host-check';
import { REPORT_USAGE, runReport } from './commands/report';

type Command = (argv: string[], io: CliIo) => Promise<number>;

const COMMANDS: Record<string, { run: Command; usage: string }> = {
  diagnose:           { run: runDiagnose, usage: DIAGNOSE_USAGE },
  bundle:             { run: runBundle, usage: BUNDLE_USAGE },
  report:             { run: runReport, usage: REPORT_USAGE },
  'register-command': {
    run:   runRegisterCommand,
    usage: 'node-health register-command --token FILE --os linux|windows [--role etcd|controlplane|worker]... [--node-name N] [--address A] [--internal-address A] [--label k=v]... [--taint k=v:Effect]... [--insecure] [--http-proxy URL] [--https-proxy URL] [--no-proxy LIST]',
  },
  'host-check': { run: runHostCheck, usage: HOST_CHECK_USAGE },
};

function usage(): string {
  return `usage:\n${ Object.values(COMMANDS).map((c) => `  ${ c.usage }`).join('\n') }\n`;
}

export async function main(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;

  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(usage());

    return name ? 0 : 2;
  }
  const command = COMMANDS[name];

  if (!command) {
    io.stderr(`node-health: unknown command ${ JSON.stringify(name) }; commands: ${ Object.keys(COMMANDS).join(', ') }`);

    return 2;
  }

  return command.run(rest, io);
}

if (require.main === module) {
  const io: CliIo = {
    stdout:    (s) => process.stdout.write(s),
    stderr:    (s) => process.stderr.write(s.endsWith('\n') ? s : `${ s }\n`),
    readFile:  (p) => readFileSync(p, 'utf8'),
    writeFile: (p, c) => writeFileSync(p, c),
  };

  main(process.argv.slice(2), io).then((code) => {
    process.exitCode = code;
  }, (e) => {
    process.stderr.write(`node-health: internal error: ${ e?.stack ?? e }\n`);
    process.exitCode = 3;
  });
}
