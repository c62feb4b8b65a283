/**
 * Entry point of the browser tests (scripts/e2e.sh runs it):
 *   tsx tests/e2e/run.ts [--results FILE] [--grep TEXT[|TEXT…]]   (the tests whose names hold any of the texts)
 * E2E_DEV_URL=https://localhost:<port> reuses a running dev server whose API is http://127.0.0.1:$E2E_MOCK_PORT
 * (this run then serves the embedded API on that port) instead of compiling the dashboard again.
 * E2E_RETRIES=<n> tries a failed test again up to n times (1 where CI is set, else 0); a test that passes on
 * another try counts as passed, and the log, results.json (`flaky`: the first try's error) and `npm test`'s
 * summary name it.
 */
import { TESTS } from './node-health.e2e';
import { FLEET_TESTS } from './fleet.e2e';
import { REPORT_FILE_TESTS } from './report-file.e2e';
import { BUNDLE_VIEW_TESTS } from './bundle-view.e2e';
import { runTests } from './runner';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${ name }`);

  return i >= 0 ? process.argv[i + 1] : undefined;
}

runTests([...TESTS, ...FLEET_TESTS, ...REPORT_FILE_TESTS, ...BUNDLE_VIEW_TESTS], {
  resultsFile: arg('results'),
  grep:        arg('grep'),
  devUrl:      process.env.E2E_DEV_URL || undefined,
  mockPort:    process.env.E2E_MOCK_PORT ? Number(process.env.E2E_MOCK_PORT) : undefined,
  // On CI a failed test gets one more try, and passing then is reported as flaky; E2E_RETRIES sets the number.
  retries:     Number(process.env.E2E_RETRIES ?? (process.env.CI ? 1 : 0)),
}).then((results) => {
  process.exit(results.some((r) => r.status === 'failed') ? 1 : 0);
}).catch((e) => {
  process.stderr.write(`e2e: ${ e?.stack || e }\n`);
  process.exit(2);
});
