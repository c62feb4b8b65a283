/**
 * `yarn mock-rancher [options]`: runs the embedded Rancher API on its own (scripts/dev.sh starts it
 * when no API is set). Prints `MOCK_RANCHER_URL=<url>` on stdout once it listens.
 *
 *   --port N            port on 127.0.0.1 (default 0: a free one; MOCK_RANCHER_PORT)
 *   --host H            listen address (default 127.0.0.1)
 *   --port-file F       also write the port number to F once listening (for scripts)
 *   --scenarios a,b     scenarios to serve (default: all seed scenarios and large-2000; `none` for none;
 *                       MOCK_RANCHER_SCENARIOS)
 *   --bundle F          serve node-health-bundle/v1 files, each as one more cluster (MOCK_RANCHER_BUNDLE): a file,
 *                       a comma-separated list of files, or a folder of them
 *   --user U            who is asking when a request names nobody: admin, read-only, no-secrets, fleet-member
 *                       (default admin; MOCK_RANCHER_USER)
 *   --server-url U      Rancher's server-url setting, used in registration commands (MOCK_RANCHER_SERVER_URL)
 *   --sql-cache on|off  Steve's SQL cache (feature ui-sql-cache), which changes how lists are asked for and answered
 *                       (default on, as in current Rancher; MOCK_RANCHER_SQL_CACHE)
 *   --log all|problems|none   request logging on stderr (default problems: 404 and 5xx; MOCK_RANCHER_LOG)
 */
import { writeFileSync } from 'fs';
import { startMockRancher } from './server';
import { findUser, USERS } from './users';
import { DEFAULT_SCENARIOS } from './world';

function parseArgs(argv: string[]): Record<string, string> {
  const out: Record<string, string> = {};

  for (let i = 0; i < argv.length; i++) {
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(argv[i]);

    if (!m) {
      throw new Error(`unexpected argument "${ argv[i] }" (see mock-rancher/main.ts for the options)`);
    }
    if (m[1] === 'help') {
      out.help = 'true';
      continue;
    }
    const value = m[2] !== undefined ? m[2] : argv[++i];

    if (value === undefined) {
      throw new Error(`--${ m[1] } needs a value`);
    }
    out[m[1]] = value;
  }

  return out;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));

  if (args.help) {
    process.stdout.write('usage: tsx mock-rancher/main.ts [--port N] [--host H] [--port-file F] [--scenarios a,b|none] [--bundle F] [--user U] [--server-url U] [--sql-cache on|off] [--log all|problems|none]\n');

    return;
  }
  const env = process.env;
  const scenarioArg = args.scenarios || env.MOCK_RANCHER_SCENARIOS;
  const scenarios = !scenarioArg ? DEFAULT_SCENARIOS : scenarioArg === 'none' ? [] : scenarioArg.split(',').map((s) => s.trim()).filter((s) => s);
  const user = args.user || env.MOCK_RANCHER_USER || 'admin';

  if (!findUser(user)) {
    throw new Error(`unknown user "${ user }" (users: ${ USERS.map((u) => u.username).join(', ') })`);
  }
  const log = (args.log || env.MOCK_RANCHER_LOG || 'problems') as 'all' | 'problems' | 'none';
  const sqlCacheArg = (args['sql-cache'] || env.MOCK_RANCHER_SQL_CACHE || 'on').toLowerCase();

  if (!['on', 'off', 'true', 'false', '1', '0'].includes(sqlCacheArg)) {
    throw new Error(`--sql-cache takes on or off, not "${ sqlCacheArg }"`);
  }
  const mock = await startMockRancher({
    host:        args.host || '127.0.0.1',
    port:        Number(args.port || env.MOCK_RANCHER_PORT || 0),
    scenarios,
    bundlePath:  args.bundle || env.MOCK_RANCHER_BUNDLE || undefined,
    serverUrl:   args['server-url'] || env.MOCK_RANCHER_SERVER_URL || undefined,
    sqlCache:    ['on', 'true', '1'].includes(sqlCacheArg),
    defaultUser: user,
    logRequests: log,
  });

  if (args['port-file']) {
    writeFileSync(args['port-file'], String(mock.port));
  }
  process.stdout.write(`MOCK_RANCHER_URL=${ mock.url }\n`);
  process.stderr.write(`[mock-rancher] Steve ${ mock.cacheMode === 'sql' ? 'with its SQL cache (ui-sql-cache on)' : 'without its SQL cache (ui-sql-cache off)' }\n`);
  for (const c of mock.world.clusters) {
    process.stderr.write(`[mock-rancher] cluster ${ c.namespace }/${ c.name } (${ c.mgmtId }, ${ c.kind }, ${ c.machines } machines, ${ c.nodes } nodes) from ${ c.source }${ c.bundleMadeAt ? `, read-only, judged at ${ c.bundleMadeAt }` : '' }\n`);
  }
  const stop = () => {
    mock.close().then(() => process.exit(0));
    setTimeout(() => process.exit(0), 2000).unref();
  };

  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((e) => {
  process.stderr.write(`mock-rancher: ${ e?.message || e }\n`);
  process.exit(2);
});
