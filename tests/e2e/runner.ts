/**
 * A small sequential runner for the browser tests: one embedded API, one dev-server compile and one
 * Chromium for the whole run; each test gets reset data and a fresh browser context. Writes
 * test-output/e2e/results.json ({passed, failed, skipped, tests}) for scripts/test.sh.
 */
import { writeFileSync } from 'fs';
import { join } from 'path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { MockRancher, startMockRancher } from '../../mock-rancher/server';
import { DEFAULT_SCENARIOS } from '../../mock-rancher/world';
import {
  DevServer, ensureOutputDir, launchBrowser, log, openContext, openPage, screenshot, Session, startDevServer
} from './harness';

export interface TestContext {
  mock: MockRancher;
  dev: { url: string };
  browser: Browser;
  /** a new logged-in browser context; closed after the test */
  session(user?: string, locale?: string): Promise<Session>;
  /** saves test-output/e2e/<test>-<label>.png */
  shot(page: Page, label: string): Promise<void>;
}

export interface E2eTest {
  name: string;
  /** a reason to skip, shown in the results; never a silent pass */
  skip?: string;
  /** scenarios the embedded API serves for this test instead of the run's (it restarts on the same port) */
  scenarios?: string[];
  /** a diagnostics bundle the embedded API serves besides them (MOCK_RANCHER_BUNDLE): made by this, which returns its file */
  bundle?: () => string;
  timeoutMs?: number;
  run(t: TestContext): Promise<void>;
}

export interface TestResult {
  name: string;
  status: 'passed' | 'failed' | 'skipped';
  ms: number;
  error?: string;
  reason?: string;
  /** passed on another try: the first try's error */
  flaky?: string;
}

export interface RunOptions {
  resultsFile?: string;
  grep?: string;
  /** reuse a running dev server (its API must be E2E_MOCK_PORT, where this run's embedded API listens) */
  devUrl?: string;
  mockPort?: number;
  scenarios?: string[];
  /** tries again after a failure, this many times (a test passed so is listed as flaky) */
  retries?: number;
}

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60);
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;

  return Promise.race([
    promise,
    new Promise<T>((resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`${ what } timed out after ${ ms } ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

export async function runTests(tests: E2eTest[], options: RunOptions = {}): Promise<TestResult[]> {
  const started = Date.now();
  const outDir = ensureOutputDir();
  const resultsFile = options.resultsFile || join(outDir, 'results.json');
  const wanted = options.grep ? options.grep.split('|').filter(Boolean) : [];
  const selected = wanted.length ? tests.filter((t) => wanted.some((w) => t.name.includes(w))) : tests;
  const results: TestResult[] = [];
  let mock: MockRancher | undefined;
  let dev: DevServer | undefined;
  let browser: Browser | undefined;
  let setupError: string | undefined;
  let compileSeconds: number | undefined;

  const write = () => {
    const count = (s: TestResult['status']) => results.filter((r) => r.status === s).length;

    writeFileSync(resultsFile, `${ JSON.stringify({
      passed: count('passed'), failed: count('failed'), skipped: count('skipped'), seconds: Math.round((Date.now() - started) / 1000), compileSeconds, setupError, tests: results
    }, null, 2) }\n`);
  };

  const runScenarios = options.scenarios || DEFAULT_SCENARIOS;
  // What the embedded API serves for a test: its scenarios, and its own bundle if it has one.
  const worldKey = (test: E2eTest) => [...(test.scenarios ?? runScenarios), ...(test.bundle ? [`bundle of ${ test.name }`] : [])].join();
  let served = '';

  try {
    const runnable = selected.filter((t) => !t.skip);

    if (runnable.length) {
      served = worldKey(runnable[0]);
      mock = await startMockRancher({
        scenarios: runnable[0].scenarios ?? runScenarios, bundlePath: runnable[0].bundle?.(), port: options.mockPort, log, logRequests: 'problems'
      });
      if (!options.devUrl) {
        dev = await startDevServer(mock.url);
        compileSeconds = dev.compileSeconds;
      }
      browser = await launchBrowser();
    }
  } catch (e) {
    setupError = (e as Error)?.stack || String(e);
    log(`set-up failed: ${ setupError }`);
  }
  const devUrl = options.devUrl || dev?.url || '';
  const contexts = new Map<string, BrowserContext>();
  const contextFor = async(user: string, locale: string): Promise<BrowserContext> => {
    const key = `${ user }|${ locale }`;

    if (!contexts.has(key)) {
      contexts.set(key, await openContext(browser as Browser, devUrl, user, locale));
    }

    return contexts.get(key) as BrowserContext;
  };

  for (const test of selected) {
    const t0 = Date.now();

    if (test.skip) {
      results.push({
        name: test.name, status: 'skipped', ms: 0, reason: test.skip
      });
      log(`- ${ test.name }: SKIPPED (${ test.skip })`);
      continue;
    }
    if (setupError || !mock || !browser) {
      results.push({
        name: test.name, status: 'failed', ms: 0, error: `set-up failed: ${ (setupError || '').split('\n')[0] }`
      });
      continue;
    }
    const attempt = async(): Promise<string | null> => {
      const wanted = worldKey(test);
      const live = mock as MockRancher;

      if (wanted !== served) {
        const port = live.port;

        await live.close();
        mock = await startMockRancher({
          scenarios: test.scenarios ?? runScenarios, bundlePath: test.bundle?.(), port, log, logRequests: 'problems'
        });
        served = wanted;
      } else {
        live.reset();
      }
      const sessions: Session[] = [];
      const ctx: TestContext = {
        mock:    mock as MockRancher,
        dev:     { url: devUrl },
        browser: browser as Browser,
        session: async(user = 'admin', locale = 'en-US') => {
          const s = await openPage(await contextFor(user, locale));

          sessions.push(s);

          return s;
        },
        shot: async(page, label) => {
          await screenshot(page, `${ slug(test.name) }-${ slug(label) }`);
        },
      };

      try {
        await withTimeout(test.run(ctx), test.timeoutMs || 180000, test.name);

        return null;
      } catch (e) {
        for (const s of sessions) {
          await screenshot(s.page, `${ slug(test.name) }-FAILED`).catch(() => undefined);
        }

        return (e as Error)?.message || String(e);
      } finally {
        for (const s of sessions) {
          await s.close().catch(() => undefined);
        }
      }
    };
    let error = await attempt();
    let firstError: string | undefined;

    for (let retry = 0; error !== null && retry < (options.retries ?? 0); retry++) {
      // Said in the log and the results: a test that passes only on another try is flaky, and may hide a race.
      log(`✗ ${ test.name } (try ${ retry + 1 }): ${ error }; trying again`);
      firstError ??= error;
      error = await attempt();
    }
    if (error === null) {
      results.push({
        name: test.name, status: 'passed', ms: Date.now() - t0, ...(firstError ? { flaky: firstError } : {})
      });
      log(`✓ ${ test.name } (${ ((Date.now() - t0) / 1000).toFixed(1) } s${ firstError ? ', on another try' : '' })`);
    } else {
      results.push({
        name: test.name, status: 'failed', ms: Date.now() - t0, error
      });
      log(`✗ ${ test.name }: ${ error }`);
    }
    write();
  }

  await browser?.close().catch(() => undefined);
  await dev?.stop().catch(() => undefined);
  await mock?.close().catch(() => undefined);
  write();
  const count = (s: TestResult['status']) => results.filter((r) => r.status === s).length;

  const flaky = results.filter((r) => r.flaky).length;

  process.stdout.write(`browser tests: ${ count('passed') } passed${ flaky ? ` (${ flaky } only on another try)` : '' }, ${ count('failed') } failed, ${ count('skipped') } skipped (${ Math.round((Date.now() - started) / 1000) } s${ compileSeconds ? `, dev server compile ${ compileSeconds } s` : '' }); results in ${ resultsFile }\n`);

  return results;
}
