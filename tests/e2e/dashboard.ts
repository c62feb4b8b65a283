/**
 * Moving around the real dashboard: Home, a cluster's page in Cluster Management, its tabs.
 * Selectors are the shell's own data-testids plus the Node Health tab's (pkg/node-health).
 */
import type { Locator, Page } from 'playwright-core';

export const NH = {
  tabButton:    '[data-testid="btn-node-health"]',
  summary:      '[data-testid="node-health-summary"]',
  blocking:     '[data-testid="node-health-blocking"]',
  clusterRule:  (rule: string) => `[data-testid="node-health-cluster-finding-${ rule }"]`,
  search:       '[data-testid="node-health-search"]',
  filter:       (name: 'status' | 'role') => `[data-testid="node-health-filter-${ name }"]`,
  rows:         '[data-testid="node-health-tab"] [data-testid^="node-health-table-"][data-testid$="-row"]',
  detail:       '[data-testid="node-health-detail"]',
  export:       '[data-testid="nh-export"]',
  download:     '[data-testid="nh-export-download"]',
  updated:      '[data-testid="node-health-updated"]',
  count:        (status: string) => `[data-testid="node-health-count-${ status }"]`,
  toggle:       (key: string) => `[data-testid="node-health-toggle-${ key }"]`,
  blockingOf:   (machine: string) => `[data-testid="node-health-blocking-${ machine }"]`,
  finding:      (rule: string) => `[data-testid="node-health-finding-${ rule }"]`,
  action:       (id: string) => `[data-testid="node-health-action-${ id }"]`,
  /** the actions that write to the cluster (re-register only builds a command from what the user may read) */
  writeActions: ['remove-finalizers', 'etcd-force-remove'],
  denied:       (id: string) => `[data-testid="node-health-action-denied-${ id }"]`,
};

/** Opening a cluster's page on a tab: when the page has drawn, and when each tab's rows (the Node Health tab's verdicts) are in. */
export const OPENING = {
  /** the cluster page has drawn its tabs: every tab's panel is in the page, shown or not */
  pageDrawn: 'section#machine-pools',
  rows:      {
    'machine-pools': 'section#machine-pools [data-testid$="-row"]',
    'node-health':   NH.rows,
  },
  /** the tab's counts strip is drawn only with the diagnosed rows */
  verdicts: `[data-testid="node-health-tab"] ${ NH.summary }`,
} as const;

export const SHELL = {
  machinesTabButton: '[data-testid="btn-machine-pools"]',
  machinesTab:       '#machine-pools',
  nodeHealthTab:     '#node-health',
};

export function clusterPath(namespace: string, name: string): string {
  return `/c/_/manager/provisioning.cattle.io.cluster/${ namespace }/${ name }`;
}

/** Waits until the shell has logged in and drawn its chrome (the header with the user menu). */
export async function waitForShell(page: Page, timeout = 120000): Promise<void> {
  await page.waitForFunction(() => {
    const app = (window as any).$globalApp;

    return !!app?.$store?.getters?.['auth/loggedIn'] && !!app.$store.state?.managementReady;
  }, undefined, { timeout, polling: 500 });
}

export async function gotoHome(page: Page, baseUrl: string): Promise<void> {
  await page.goto(`${ baseUrl }/home`, { waitUntil: 'domcontentloaded', timeout: 180000 });
  await waitForShell(page);
  await page.locator('main').first().waitFor({ state: 'visible', timeout: 60000 });
}

/** Opens a provisioning cluster's page (a full load), optionally on a tab (`node-health`, `machine-pools`). */
export async function gotoCluster(page: Page, baseUrl: string, namespace: string, name: string, tab?: string): Promise<void> {
  await page.goto(`${ baseUrl }${ clusterPath(namespace, name) }${ tab ? `#${ tab }` : '' }`, { waitUntil: 'domcontentloaded', timeout: 180000 });
  await waitForShell(page);
  await page.locator('[data-testid="masthead-resource-title"], .masthead .title, h1').filter({ hasText: name }).first()
    .waitFor({ state: 'visible', timeout: 120000 });
}

/** In-app navigation (no reload), as a click on a link would do. */
export async function routerPush(page: Page, path: string): Promise<void> {
  await page.evaluate((p) => (window as any).$globalApp.$router.push(p), path);
}

export async function openNodeHealthTab(page: Page): Promise<void> {
  await page.locator(NH.tabButton).click();
  await page.locator(NH.summary).waitFor({ state: 'visible', timeout: 60000 });
}

/** Chooses an option of one of the table's filters (the shell's Select): opens its list and clicks the option. */
export async function chooseFilter(page: Page, name: 'status' | 'role', label: string): Promise<void> {
  await page.locator(NH.filter(name)).click();
  await page.locator('.vs__dropdown-menu .vs__dropdown-option', { hasText: label }).first().click();
  await page.locator(`${ NH.filter(name) } .vs__selected`, { hasText: label }).waitFor({ state: 'visible', timeout: 10000 });
  // The filtered page comes from the session a moment later; until then the table keeps the rows it had.
  await page.locator('.health-table[aria-busy="true"]').waitFor({ state: 'detached', timeout: 30000 });
}

/** The row toggle of a Machine (record key `machine:<ns>/<name>`). */
export function machineRow(page: Page, namespace: string, name: string): Locator {
  return page.locator(NH.toggle(`machine:${ namespace }/${ name }`));
}

/** Opens every fold (<details>) inside a finding: its evidence and what to do. */
export async function openFolds(finding: Locator): Promise<void> {
  for (const summary of await finding.locator('summary').all()) {
    await summary.click();
  }
}

export async function switchLocale(page: Page, locale: 'zh-hans' | 'en-us'): Promise<void> {
  await page.evaluate((l) => (window as any).$globalApp.$store.dispatch('i18n/switchTo', l), locale);
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * A time as the dashboard shows it with its default preferences (date-format "ddd, MMM D YYYY", time-format
 * "h:mm:ss a", shell store/prefs) in the tests' browser zone, UTC: "Thu, Jan 15 2026 8:04:03 am".
 */
export function dashboardTime(rfc3339: string): string {
  const d = new Date(rfc3339);
  const h = d.getUTCHours();
  const two = (n: number) => String(n).padStart(2, '0');

  return `${ WEEKDAYS[d.getUTCDay()] }, ${ MONTHS[d.getUTCMonth()] } ${ d.getUTCDate() } ${ d.getUTCFullYear() } ${ h % 12 || 12 }:${ two(d.getUTCMinutes()) }:${ two(d.getUTCSeconds()) } ${ h < 12 ? 'am' : 'pm' }`;
}

/** The dashboard's time format, as a pattern to find one in a text. */
export const DASHBOARD_TIME = /(Sun|Mon|Tue|Wed|Thu|Fri|Sat), (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{1,2} \d{4} \d{1,2}:\d\d:\d\d [ap]m/;

/**
 * In the page: the WCAG contrast ratio of each element's text against the background drawn under it (the first
 * opaque background of its ancestors, translucent ones blended on top), colours read through a canvas so that
 * any CSS colour syntax counts.
 */
export async function contrasts(page: Page, selector: string): Promise<{ text: string; ratio: number }[]> {
  // The test runner compiles with esbuild's keepNames: the helpers below call its __name, absent in the page.
  await page.evaluate('globalThis.__name = globalThis.__name || ((f) => f)');

  return page.locator(selector).evaluateAll((els) => {
    const ctx = document.createElement('canvas').getContext('2d', { willReadFrequently: true }) as CanvasRenderingContext2D;
    const rgba = (css: string): number[] => {
      ctx.clearRect(0, 0, 1, 1);
      ctx.fillStyle = '#000';
      ctx.fillStyle = css;
      ctx.fillRect(0, 0, 1, 1);
      const [r, g, b, a] = Array.from(ctx.getImageData(0, 0, 1, 1).data);

      return [r, g, b, a / 255];
    };
    const over = (top: number[], under: number[]) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3]));
    const luminance = (c: number[]) => {
      const [r, g, b] = c.map((v) => {
        const s = v / 255;

        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });

      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };

    return els.map((el) => {
      const layers: number[][] = [];

      for (let a: Element | null = el; a; a = a.parentElement) {
        const bg = rgba(getComputedStyle(a).backgroundColor);

        if (bg[3] > 0) {
          layers.push(bg);
          if (bg[3] >= 1) {
            break;
          }
        }
      }
      let under = [255, 255, 255];

      for (const layer of layers.reverse()) {
        under = over(layer, under);
      }
      const fg = over(rgba(getComputedStyle(el).color), under);
      const [hi, lo] = [luminance(fg), luminance(under)].sort((x, y) => y - x);

      return { text: (el.textContent ?? '').trim(), ratio: Math.round(((hi + 0.05) / (lo + 0.05)) * 100) / 100 };
    });
  });
}
