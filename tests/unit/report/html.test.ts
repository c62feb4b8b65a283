import { createHash } from 'crypto';
import {
  mkdtempSync, readFileSync, rmSync, statSync, writeFileSync
} from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { diagnose, readHostReport } from '@pkg/node-health/engine';
import type { KubeObject } from '@pkg/node-health/engine';
import { createBundle, sanitizeDiagnosis } from '@pkg/node-health/export';
import {
  cspHash, renderHtmlReport, scriptSafeJson, sha256, viewerScript
} from '@pkg/node-health/report/html';
import type { HtmlReportSource } from '@pkg/node-health/report/html';
import { sayTime } from '@pkg/node-health/report/durations';
import { cliTranslator } from '../../../cli/l10n';
import { buildScenario, GHOST_MACHINE, large, XSS_PAYLOAD } from '../../../scenarios/catalog';
import { ghostHostReport } from '../../../scenarios/host-reports';
import { canaryFixture, kubectlObjects, leaks, scenario } from '../export/fixtures';
import { runCli } from '../cli/run-cli';

// jsdom comes with jest's jsdom environment; it has no type package here.
// eslint-disable-next-line @typescript-eslint/no-var-requires
const { JSDOM, VirtualConsole } = require('jsdom');

const en = cliTranslator('en-us');
const zh = cliTranslator('zh-hans');

const SCRIPT_CLOSE = '</script><script>alert(2)</script>';
const COMMENT = '<!-- x';
const JS_URL = 'javascript:alert(3)';
const MARKDOWN = '[click me](javascript:alert(4)) **bold** <b>bold</b>';
const PAYLOADS = [XSS_PAYLOAD, SCRIPT_CLOSE, COMMENT, JS_URL, MARKDOWN];
const HOSTILE_NODE = `node-${ SCRIPT_CLOSE }${ XSS_PAYLOAD }`;
const HOSTILE_MACHINE = `m-${ XSS_PAYLOAD }${ COMMENT }`;

/** The every-failure cluster (which already has XSS_PAYLOAD in a Ready message) with markup in names, messages and labels. */
function hostileObjects(): { objects: KubeObject[]; now: string } {
  const s = scenario('every-failure');
  const objects = JSON.parse(JSON.stringify(kubectlObjects(s))) as KubeObject[];
  const node = objects.find((o) => o.kind === 'Node' && o.apiVersion === 'v1') as KubeObject;
  const machines = objects.filter((o) => o.kind === 'Machine');

  node.metadata.name = HOSTILE_NODE;
  machines[0].metadata.name = HOSTILE_MACHINE;
  for (const m of machines) {
    m.metadata.labels = { ...(m.metadata.labels ?? {}), 'cluster.x-k8s.io/deployment-name': `pool-${ XSS_PAYLOAD }` };
    const conditions = ((m as any).status?.conditions ?? []) as any[];

    conditions.forEach((c) => {
      c.message = `${ c.message ?? '' } ${ PAYLOADS.join(' ') }`;
    });
  }

  return { objects, now: s.now };
}

const SOURCE: HtmlReportSource = {
  from: 'kubectl', cluster: 'ef-rke2', createdAt: '2026-06-15T14:00:00.000Z', rancherVersion: null, extensionVersion: '0.1.0', obfuscated: false, redactions: { secret: 2 }
};

function reportOf(objects: KubeObject[], now: string) {
  return sanitizeDiagnosis({ objects, now }).report;
}

function html(objects: KubeObject[], now: string, lang: 'en-us' | 'zh-hans' = 'en-us'): string {
  return renderHtmlReport({
    report: reportOf(objects, now), translators: { 'en-us': en, 'zh-hans': zh }, lang, source: SOURCE
  });
}

/** Every <script> element: its attributes and its text, as the browser's parser splits them. */
function scripts(doc: string): { attrs: string; text: string }[] {
  return [...doc.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/gi)].map((m) => ({ attrs: m[1], text: m[2] }));
}

function csp(doc: string): string {
  const m = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(doc);

  return m ? m[1].replace(/&#39;/g, "'") : '';
}

/** Opens the file in jsdom with its scripts running; alert and errors are recorded. */
function open(doc: string) {
  const errors: string[] = [];
  const alerts: unknown[] = [];
  const virtualConsole = new VirtualConsole();

  virtualConsole.on('jsdomError', (e: Error) => errors.push(String(e?.message ?? e)));
  const dom = new JSDOM(doc, {
    runScripts: 'dangerously',
    url:        'file:///tmp/report.html',
    virtualConsole,
    beforeParse(window: any) {
      window.alert = (x: unknown) => alerts.push(x);
    },
  });

  return {
    dom, window: dom.window, document: dom.window.document as Document, errors, alerts
  };
}

describe('sha256', () => {
  it.each(['', 'abc', 'a'.repeat(55), 'a'.repeat(56), 'a'.repeat(64), 'a'.repeat(1000), '节点健康 </script>\u2028'])('matches node:crypto (case %#)', (text) => {
    expect(Buffer.from(sha256(text)).toString('hex')).toBe(createHash('sha256').update(text, 'utf8').digest('hex'));
    expect(cspHash(text)).toBe(`'sha256-${ createHash('sha256').update(text, 'utf8').digest('base64') }'`);
  });
});

describe('scriptSafeJson', () => {
  it('leaves no character that can end a script element or open a comment, and parses back to the same value', () => {
    const value = { a: PAYLOADS, b: 'x\u2028y\u2029z & >' };
    const json = scriptSafeJson(value);

    expect(json).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(json)).toEqual(value);
  });
});

describe('the report file', () => {
  const hostile = hostileObjects();
  const doc = html(hostile.objects, hostile.now);
  const blocks = scripts(doc);

  it('has a Content-Security-Policy that forbids every request and allows only its own script and style, by hash', () => {
    const policy = csp(doc);
    const directives = new Map(policy.split(';').map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k, v]));
    const executable = blocks.filter((b) => !/type="application\/json"/.test(b.attrs));
    const style = /<style>([\s\S]*?)<\/style>/.exec(doc)?.[1] ?? '';

    expect(directives.get('default-src')).toEqual(["'none'"]);
    for (const d of ['connect-src', 'img-src', 'font-src', 'object-src', 'frame-src', 'base-uri', 'form-action', 'worker-src']) {
      expect(directives.get(d)).toEqual(["'none'"]);
    }
    expect(executable).toHaveLength(1);
    expect(directives.get('script-src')).toEqual([cspHash(executable[0].text)]);
    expect(directives.get('style-src')).toEqual([cspHash(style)]);
    expect(policy).not.toMatch(/unsafe-inline|unsafe-eval|https?:|data:|\*/);
    // The policy comes before any script or style.
    expect(doc.indexOf('Content-Security-Policy')).toBeLessThan(doc.indexOf('<style>'));
    expect(doc.indexOf('Content-Security-Policy')).toBeLessThan(doc.indexOf('<script'));
  });

  it('embeds the planted markup only as escaped JSON data, for both languages', () => {
    const data = blocks.filter((b) => /type="application\/json"/.test(b.attrs));

    expect(data.map((b) => /id="([^"]+)"/.exec(b.attrs)?.[1])).toEqual(['nh-data-en-us', 'nh-data-zh-hans', 'nh-meta']);
    // The parser saw exactly the four elements the generator wrote: nothing in the data ended one early.
    expect(blocks).toHaveLength(4);
    expect(doc.match(/<script/gi)).toHaveLength(4);
    expect(doc.match(/<\/script>/gi)).toHaveLength(4);
    for (const b of data) {
      expect(b.text).not.toMatch(/[<>]/);
    }
    const en = JSON.stringify(JSON.parse(data[0].text));

    // Not vacuous: the payloads are in the data (names, messages), as text.
    expect(en).toContain(JSON.stringify(HOSTILE_NODE).slice(1, -1));
    expect(en).toContain(JSON.stringify(HOSTILE_MACHINE).slice(1, -1));
    expect(en).toContain(JSON.stringify(XSS_PAYLOAD).slice(1, -1));
    expect(en).toContain(JSON.stringify(JS_URL).slice(1, -1));
    // Outside the data blocks, no planted text at all.
    const outside = data.reduce((d, b) => d.replace(b.text, ''), doc);

    for (const p of [XSS_PAYLOAD, SCRIPT_CLOSE, JS_URL, '**bold**', 'onerror', 'alert(']) {
      expect(outside).not.toContain(p);
    }
    expect(viewerScript()).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function/);
  });

  it('renders every record with the planted markup as text: no element, no link, no alert', () => {
    const {
      document, window, errors, alerts
    } = open(doc);
    const toggles = document.querySelectorAll('[data-testid="nh-r-toggle"]');

    expect(errors).toEqual([]);
    expect(toggles.length).toBeGreaterThan(20);
    // Open every record's detail.
    const keys = [...document.querySelectorAll('[data-testid="nh-r-row"]')].map((r) => r.getAttribute('data-key'));

    for (const key of keys) {
      (document.querySelector(`[data-testid="nh-r-row"][data-key="${ key }"] [data-testid="nh-r-toggle"]`) as HTMLElement).click();
    }
    expect(document.querySelectorAll('[data-testid="nh-r-detail"]').length).toBe(keys.length);
    expect(document.querySelectorAll('img, b, a, iframe, object, embed, [src], [href], [onerror]').length).toBe(0);
    expect(document.querySelectorAll('script')).toHaveLength(4);
    const text = document.body.textContent as string;

    expect(text).toContain(XSS_PAYLOAD);
    expect(text).toContain(HOSTILE_NODE);
    expect(text).toContain(HOSTILE_MACHINE);
    expect(text).toContain(MARKDOWN);
    expect(alerts).toEqual([]);
    window.close();
  });

  it('tells each unhealthy record\'s story, its planted condition messages as text', () => {
    const { document, window } = open(doc);
    const row = [...document.querySelectorAll('[data-testid="nh-r-row"]')].find((r) => (r.textContent ?? '').includes(HOSTILE_MACHINE)) as HTMLElement;

    (row.querySelector('[data-testid="nh-r-toggle"]') as HTMLElement).click();
    const story = document.querySelector('[data-testid="nh-r-timeline"]') as HTMLElement;

    expect(story.querySelectorAll('li').length).toBeGreaterThan(3);
    expect(story.textContent).toContain('Machine created');
    expect(story.textContent).toContain(XSS_PAYLOAD);
    expect(story.querySelectorAll('img, b, a').length).toBe(0);
    window.close();
  });

  it('says how long the replacement vCenter cannot create has waited against its pool, and the Events given with the objects', () => {
    const hcb = scenario('health-check-blocked');
    const story = (name: string, objects: KubeObject[], now: string, machine: string) => {
      const { document, window } = open(html(objects, now));
      const row = [...document.querySelectorAll('[data-testid="nh-r-row"]')].find((r) => (r.textContent ?? '').includes(machine)) as HTMLElement;

      (row.querySelector('[data-testid="nh-r-toggle"]') as HTMLElement).click();
      const text = [document.querySelector('[data-testid="nh-r-pool"]')?.textContent ?? '', document.querySelector('[data-testid="nh-r-timeline"]')?.textContent ?? ''];

      window.close();

      return text;
    };
    const del = scenario('infra-delete-failed');
    const [pool] = story('infra-delete-failed', kubectlObjects(del), del.now, 'vs-del-wk-ba179e1ad-cxpcs');

    expect(pool).toBe('Provisioning for 1h; the other machines of pool wk got their Node in 4m (median of 2).');
    const machine = hcb.objects.find((o) => o.kind === 'Machine' && (hcb.expected[o.metadata.name] ?? []).includes('node-not-ready'))?.metadata.name as string;
    const [, events] = story('health-check-blocked', kubectlObjects(hcb), hcb.now, machine);

    expect(events).toContain(`DetectedUnhealthy: Machine fleet-default/${ machine } has unhealthy Node`);
  });

  it('names in each row the root cause the record\'s plan leads with, as the tab does', () => {
    const s = scenario('ghost-etcd');
    const { document, window } = open(html(kubectlObjects(s), s.now));
    const row = [...document.querySelectorAll('[data-testid="nh-r-row"]')].find((r) => (r.textContent ?? '').includes(GHOST_MACHINE)) as HTMLElement;

    // Its worst finding is that it holds back the whole cluster; that is because its agent never checked in.
    expect(row.classList.contains('status-error')).toBe(true);
    expect(row.textContent).toContain('Agent never checked in');
    expect(row.textContent).not.toContain('Holds back the whole cluster');
    window.close();
  });

  it('names the object of evidence rows in a row about it once, as the tab\'s row detail does, each field in its order', () => {
    const s = scenario('ghost-etcd');
    const report = reportOf(kubectlObjects(s), s.now);
    const evidence = report.records.find((r) => r.machineName === GHOST_MACHINE)?.findings.find((f) => f.rule === 'agent-never-checked-in')?.evidence ?? [];
    const { document, window } = open(html(kubectlObjects(s), s.now));
    const row = [...document.querySelectorAll('[data-testid="nh-r-row"]')].find((r) => (r.textContent ?? '').includes(GHOST_MACHINE)) as HTMLElement;

    (row.querySelector('[data-testid="nh-r-toggle"]') as HTMLElement).click();
    const table = [...document.querySelectorAll('[data-testid="nh-r-evidence"] table')]
      .find((t) => t.querySelectorAll('tr').length === evidence.length && (t.textContent ?? '').includes('data.applied-checksum')) as HTMLElement;
    const objects = [...table.querySelectorAll('td.object')].map((td) => [td.textContent, Number(td.getAttribute('rowspan') ?? 1)]);
    // The runs of one object, as the finding gave its evidence.
    const runs: [string, number][] = [];

    for (const e of evidence) {
      if (runs.length && runs[runs.length - 1][0] === e.object) {
        runs[runs.length - 1][1]++;
      } else {
        runs.push([e.object, 1]);
      }
    }

    expect(runs.some(([, n]) => n > 1)).toBe(true);
    expect(objects).toEqual(runs);
    expect([...table.querySelectorAll('td.path')].map((td) => td.textContent)).toEqual(evidence.map((e) => e.path));
    window.close();
  });

  it('lists the hosts\' own reports, each host named before what it was joined to with the colon of the language', () => {
    const s = scenario('ghost-etcd');
    const objects = kubectlObjects(s);
    const report = sanitizeDiagnosis({
      objects, now: s.now, hostReports: [readHostReport(ghostHostReport(buildScenario('ghost-etcd')))]
    }).report;
    const hostsOf = (lang: 'en-us' | 'zh-hans') => {
      const { document, window } = open(renderHtmlReport({
        report, translators: { 'en-us': en, 'zh-hans': zh }, lang, source: SOURCE
      }));
      const items = [...document.querySelectorAll('[data-testid="nh-r-hosts"] li')].map((li) => li.textContent);

      window.close();

      return items;
    };

    expect(report.hosts).toHaveLength(1);
    expect(hostsOf('en-us')).toEqual([`dev-k8s-node01: joined to ${ GHOST_MACHINE } by its machine id`]);
    expect(hostsOf('zh-hans')).toEqual([`dev-k8s-node01：已通过机器 ID 关联到 ${ GHOST_MACHINE }`]);
  });

  it('says roles and operating systems as the tab\'s table does, in the language shown, and marks an empty cell', () => {
    const s = scenario('ghost-etcd');
    const { document, window } = open(html(kubectlObjects(s), s.now, 'zh-hans'));
    const row = (name: string) => [...document.querySelectorAll('[data-testid="nh-r-row"]')].find((r) => (r.textContent ?? '').includes(name)) as HTMLElement;
    const ghost = row(GHOST_MACHINE);

    expect(ghost.querySelector('.col-roles')?.textContent).toBe(zh('nodeHealth.registration.role.etcd'));
    expect(ghost.querySelector('.col-os')?.textContent).toBe(zh('nodeHealth.registration.os.linux'));
    // The ghost machine has no Node: its cell says so, as the tab's "—" does.
    expect(ghost.querySelector('.col-node')?.textContent).toBe('\u2014');
    const roleOptions = [...(document.querySelector('[data-testid="nh-r-role"]') as HTMLSelectElement).options].map((o) => o.textContent);

    expect(roleOptions).toContain(zh('nodeHealth.registration.role.worker'));
    (document.querySelector('[data-testid="nh-r-lang-en-us"]') as HTMLElement).click();
    expect(row(GHOST_MACHINE).querySelector('.col-roles')?.textContent).toBe('Etcd');
    window.close();
  });

  it('shows the counts, filters by status and role, searches, sorts and pages', async() => {
    const s = large(260);
    const objects = kubectlObjects(s);
    const report = reportOf(objects, s.now);
    const { document, window, errors } = open(html(objects, s.now));
    const rows = () => [...document.querySelectorAll('[data-testid="nh-r-row"]')];
    const range = () => document.querySelector('[data-testid="nh-r-range"]')?.textContent;

    expect(errors).toEqual([]);
    for (const status of ['error', 'warning', 'unknown', 'healthy'] as const) {
      expect(document.querySelector(`[data-testid="nh-r-count-${ status }"] .n`)?.textContent).toBe(String(report.counts[status]));
    }
    // One page of 100 rows at a time.
    expect(rows()).toHaveLength(100);
    expect(range()).toBe(`1–100 of ${ report.records.length }`);
    (document.querySelector('[data-testid="nh-r-next"]') as HTMLElement).click();
    expect(range()).toBe(`101–200 of ${ report.records.length }`);

    const status = document.querySelector('[data-testid="nh-r-status"]') as HTMLSelectElement;

    status.value = 'error';
    status.dispatchEvent(new window.Event('change'));
    expect(rows().length).toBe(Math.min(100, report.counts.error));
    expect(rows().every((r) => r.classList.contains('status-error'))).toBe(true);
    status.value = 'all';
    status.dispatchEvent(new window.Event('change'));

    const role = document.querySelector('[data-testid="nh-r-role"]') as HTMLSelectElement;
    const etcd = report.records.filter((r) => r.roles.includes('etcd')).length;

    role.value = 'etcd';
    role.dispatchEvent(new window.Event('change'));
    expect(range()).toBe(`1–${ Math.min(100, etcd) } of ${ etcd }`);
    role.value = 'all';
    role.dispatchEvent(new window.Event('change'));

    const search = document.querySelector('[data-testid="nh-r-search"]') as HTMLInputElement;
    const one = report.records.find((r) => r.objects.machine && r.status === 'error') as typeof report.records[number];

    search.value = one.machineName as string;
    search.dispatchEvent(new window.Event('input'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(range()).toBe('1–1 of 1');
    expect(rows()[0].getAttribute('data-key')).toBe(one.key);
    search.value = 'no-such-node-anywhere';
    search.dispatchEvent(new window.Event('input'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(document.querySelector('[data-testid="nh-r-empty"]')?.textContent).toBe(en('nodeHealth.tab.table.noMatches'));
    search.value = '';
    search.dispatchEvent(new window.Event('input'));
    await new Promise((resolve) => setTimeout(resolve, 300));

    const sorted = [...report.records].filter((r) => r.objects.machine).map((r) => r.machineName as string).sort((a, b) => a.localeCompare(b));

    (document.querySelector('[data-testid="nh-r-sort-machine"]') as HTMLElement).click();
    expect(rows()[0].querySelector('.col-machine')?.textContent).toBe(sorted[0]);
    window.close();
  });

  it('opens in the language asked, with the other one switchable', () => {
    const s = scenario('ghost-etcd');
    const { document, window } = open(html(kubectlObjects(s), s.now, 'zh-hans'));

    expect(document.documentElement.getAttribute('lang')).toBe('zh-hans');
    expect(document.querySelector('[data-testid="nh-r-count-error"]')?.textContent).toContain(zh('nodeHealth.status.error'));
    (document.querySelector('[data-testid="nh-r-lang-en-us"]') as HTMLElement).click();
    expect(document.documentElement.getAttribute('lang')).toBe('en-us');
    expect(document.querySelector('[data-testid="nh-r-count-error"]')?.textContent).toContain('Error');
    window.close();
  });

  it('stays within three times the size of the bundle it is made from', () => {
    for (const s of [scenario('every-failure'), large(500)]) {
      const objects = kubectlObjects(s);
      const bundle = `${ JSON.stringify(createBundle({
        objects, now: s.now, t: en, rancherVersion: 'v2.10.1', extensionVersion: '0.1.0'
      }), null, 2) }\n`;
      const file = html(objects, s.now);

      expect(Buffer.byteLength(file) / Buffer.byteLength(bundle)).toBeLessThan(3);
    }
  });

  it('refuses a language it has no translator for', () => {
    expect(() => renderHtmlReport({
      report: diagnose([], { now: SOURCE.createdAt }), translators: { 'en-us': en }, lang: 'zh-hans', source: SOURCE
    })).toThrow(RangeError);
  });
});

describe('node-health report', () => {
  const dir = mkdtempSync(join(tmpdir(), 'nh-report-'));

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('from kubectl output: redacts as the bundle does before anything is embedded', async() => {
    const fixture = canaryFixture();
    const input = join(dir, 'objects.json');
    const out = join(dir, 'kubectl.html');

    writeFileSync(input, JSON.stringify({
      apiVersion: 'v1', kind: 'List', items: fixture.objects
    }));
    expect(leaks(readFileSync(input, 'utf8'), fixture).length).toBeGreaterThan(3);
    const run = await runCli(['report', '-o', out, input]);

    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`wrote ${ out }`);
    const doc = readFileSync(out, 'utf8');

    expect(leaks(doc, fixture)).toEqual([]);
    const data = JSON.parse(scripts(doc)[0].text);

    expect(data.source.facts[0]).toEqual(['Made from', 'kubectl output']);
    expect(data.source.redacted.length).toBeGreaterThan(0);
  });

  it("from a bundle: shows the bundle's own header, diagnosed at the bundle's time", async() => {
    const s = scenario('ghost-etcd');
    const bundlePath = join(dir, 'bundle.json');
    const bundle = createBundle({
      objects: kubectlObjects(s), now: s.now, t: en, rancherVersion: 'v2.10.1', extensionVersion: '0.0.9-test'
    });

    writeFileSync(bundlePath, JSON.stringify(bundle));
    const out = join(dir, 'bundle.html');
    const run = await runCli(['report', '--lang', 'zh-hans', '-o', out, bundlePath]);

    expect(run.code).toBe(0);
    const doc = readFileSync(out, 'utf8');
    const data = scripts(doc).filter((b) => /application\/json/.test(b.attrs)).map((b) => JSON.parse(b.text));
    const facts = new Map(data[0].source.facts);

    expect(facts.get('Made from')).toBe('a diagnostics bundle');
    expect(facts.get('Rancher version')).toBe('v2.10.1');
    expect(facts.get('Node Health version')).toBe('0.0.9-test');
    // As the line above the facts says the diagnosis time: as the timeline says times.
    expect(facts.get('Made at')).toBe(sayTime(bundle.createdAt));
    expect(facts.get('Cluster')).toBe(bundle.cluster?.name);
    expect(data[0].report.now).toBe(bundle.createdAt);
    expect(data[0].report.counts).toEqual(bundle.counts);
    expect(data[2].initial).toBe('zh-hans');
    expect(statSync(out).size / Buffer.byteLength(JSON.stringify(bundle, null, 2))).toBeLessThan(3);
  });

  it('needs -o and a known language', async() => {
    expect((await runCli(['report', join(dir, 'bundle.json')])).code).toBe(2);
    expect((await runCli(['report', '--lang', 'fr', '-o', join(dir, 'x.html'), join(dir, 'bundle.json')])).stderr).toContain('unknown language');
  });
});
