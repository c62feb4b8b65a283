/**
 * What the browser tests stand on: the embedded Rancher API (in this process), the real dashboard
 * dev server (compiled once for the whole run) and Debian's Chromium driven by playwright-core.
 */
import { ChildProcess, spawn } from 'child_process';
import { existsSync, mkdirSync } from 'fs';
import { get as httpsGet } from 'https';
import { createServer } from 'net';
import { join, resolve } from 'path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import type { MockRancher } from '../../mock-rancher/server';

export const ROOT = resolve(__dirname, '../..');
export const OUTPUT_DIR = join(ROOT, 'test-output', 'e2e');
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** The flags the toolchain notes settled on for Debian's Chromium in a container (headless is set by launch). */
export const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--no-first-run', '--disable-dev-shm-usage',
];

export function log(line: string): void {
  process.stderr.write(`[e2e] ${ line }\n`);
}

export function ensureOutputDir(): string {
  mkdirSync(OUTPUT_DIR, { recursive: true });

  return OUTPUT_DIR;
}

export async function freePort(preferred?: number): Promise<number> {
  const tryPort = (port: number) => new Promise<number | undefined>((resolve) => {
    const srv = createServer();

    srv.once('error', () => resolve(undefined));
    srv.listen(port, '0.0.0.0', () => {
      const got = (srv.address() as { port: number }).port;

      srv.close(() => resolve(got));
    });
  });

  if (preferred && await tryPort(preferred)) {
    return preferred;
  }

  return (await tryPort(0)) as number;
}

/* ------------------------------------------------------------------------------------------------ */
/* the dashboard dev server                                                                         */
/* ------------------------------------------------------------------------------------------------ */

export interface DevServer {
  url: string;
  port: number;
  process: ChildProcess;
  compileSeconds: number;
  stop(): Promise<void>;
}

function httpsStatus(url: string): Promise<number> {
  return new Promise((resolve) => {
    const req = httpsGet(url, { rejectUnauthorized: false, timeout: 5000 }, (res) => {
      res.resume();
      resolve(res.statusCode || 0);
    });

    req.on('error', () => resolve(0));
    req.on('timeout', () => {
      req.destroy();
      resolve(0);
    });
  });
}

/**
 * Starts `vue-cli-service serve` against the embedded API and waits for the first compile.
 * The shell's webpack overlay would cover the page on any unhandled rejection, so it is turned off
 * by the tests' own page set-up, not here.
 */
export async function startDevServer(apiUrl: string, opts: { port?: number, timeoutMs?: number } = {}): Promise<DevServer> {
  const port = opts.port || await freePort(8005);
  const tools = join(ROOT, '.tools', 'node_modules', '.bin');
  const bin = join(ROOT, 'node_modules', '.bin');
  const started = Date.now();
  const child = spawn(join(bin, 'vue-cli-service'), ['serve', '--port', String(port)], {
    cwd:      ROOT,
    env:      {
      ...process.env, NODE_ENV: 'dev', API: apiUrl, PATH: `${ tools }:${ bin }:${ process.env.PATH }`, FORCE_COLOR: '0'
    },
    stdio:    ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20000);
  };

  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exited: number | null = null;

  child.on('exit', (code) => {
    exited = code ?? -1;
  });
  const url = `https://localhost:${ port }`;
  const deadline = started + (opts.timeoutMs || 8 * 60 * 1000);

  log(`dev server: compiling the dashboard on ${ url } (API ${ apiUrl }), about 1-3 minutes`);
  for (;;) {
    if (exited !== null) {
      throw new Error(`the dev server exited (${ exited }) before serving:\n${ output.slice(-4000) }`);
    }
    if (Date.now() > deadline) {
      process.kill(-(child.pid as number), 'SIGTERM');
      throw new Error(`the dev server did not serve ${ url } in time:\n${ output.slice(-4000) }`);
    }
    // webpack-dev-server answers before the first compile ends (it holds the request); a 200 means it is built.
    if (/Compiled|App running at|ERROR/.test(output) && await httpsStatus(`${ url }/`) === 200) {
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
  const compileSeconds = Math.round((Date.now() - started) / 1000);

  if (/Failed to compile/.test(output)) {
    log(`dev server: compiled with errors:\n${ output.slice(-3000) }`);
  }
  log(`dev server: ready in ${ compileSeconds } s`);

  return {
    url,
    port,
    process: child,
    compileSeconds,
    stop:    () => new Promise<void>((resolve) => {
      if (exited !== null) {
        resolve();

        return;
      }
      child.once('exit', () => resolve());
      try {
        process.kill(-(child.pid as number), 'SIGTERM');
      } catch (e) {
        resolve();
      }
      setTimeout(() => {
        try {
          process.kill(-(child.pid as number), 'SIGKILL');
        } catch (e) {}
        resolve();
      }, 5000).unref();
    }),
  };
}

/* ------------------------------------------------------------------------------------------------ */
/* the browser                                                                                      */
/* ------------------------------------------------------------------------------------------------ */

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${ CHROMIUM } not found: install Debian's chromium (apt-get install -y chromium), or set CHROMIUM_PATH`);
  }

  return chromium.launch({
    executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS
  });
}

export interface PageProblems {
  /** window.alert/confirm/prompt calls: an injected script would show up here */
  dialogs: string[];
  /** uncaught exceptions in the page */
  pageErrors: string[];
  consoleErrors: string[];
}

export interface Session {
  context: BrowserContext;
  page: Page;
  problems: PageProblems;
  close(): Promise<void>;
}

/**
 * A browser context logged in as `user` (the embedded API reads the R_MOCK_USER cookie), with
 * clipboard access and downloads. Tests share one per user and locale, so that the dashboard's
 * scripts come from the HTTP cache after the first page; each test still gets new pages.
 */
export async function openContext(browser: Browser, dashboardUrl: string, user = 'admin', locale = 'en-US'): Promise<BrowserContext> {
  const context = await browser.newContext({
    ignoreHTTPSErrors: true,
    acceptDownloads:   true,
    viewport:          { width: 1440, height: 900 },
    locale,
    // The dashboard says times in the browser's zone: one zone, whatever the machine's, so that tests can say them too.
    timezoneId:        'UTC',
  });

  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: dashboardUrl });
  await context.addCookies([{
    name: 'R_MOCK_USER', value: user, url: dashboardUrl
  }]);
  // The dev build's error overlay covers the page on any unhandled rejection; tests read the page, and
  // report page errors themselves.
  await context.addInitScript(() => {
    const style = document.createElement('style');

    style.textContent = '#webpack-dev-server-client-overlay { display: none !important; }';
    document.addEventListener('DOMContentLoaded', () => document.head.appendChild(style));
  });
  // The dev server's live-reload socket: left unconnected, so that a rebuild (an edited file) never
  // reloads a page in the middle of a test.
  await context.routeWebSocket(/\/ws$/, () => undefined);

  return context;
}

/** A new page with a record of dialogs and page errors. */
export async function openPage(context: BrowserContext): Promise<Session> {
  const page = await context.newPage();
  const problems: PageProblems = {
    dialogs: [], pageErrors: [], consoleErrors: []
  };

  page.on('dialog', (d) => {
    problems.dialogs.push(`${ d.type() }: ${ d.message() }`);
    d.dismiss().catch(() => undefined);
  });
  page.on('pageerror', (e) => problems.pageErrors.push(String(e?.message || e)));
  page.on('console', (m) => {
    if (m.type() === 'error') {
      problems.consoleErrors.push(m.text());
    }
  });

  return {
    context, page, problems, close: () => page.close()
  };
}

export async function screenshot(page: Page, name: string): Promise<string> {
  const file = join(ensureOutputDir(), `${ name }.png`);

  await page.screenshot({ path: file, fullPage: false });

  return file;
}

/** Calls the embedded API's control endpoints (/mock/...) as the admin. */
export async function control(mock: MockRancher, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${ mock.url }/mock/${ path }`, {
    method,
    headers: { 'content-type': 'application/json', 'x-mock-user': 'admin' },
    body:    body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();

  if (!res.ok) {
    throw new Error(`${ method } /mock/${ path } -> ${ res.status }: ${ text }`);
  }

  return text ? JSON.parse(text) : undefined;
}
