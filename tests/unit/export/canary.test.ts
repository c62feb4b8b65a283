/**
 * The canary test: a realistic cluster with a unique marker in every secret value, token, password-like
 * annotation and registration command, in every place an adversarial review found secrets leaving (cluster
 * manifests and chart values, node drivers' cloud-init and keys, Node annotations, plan-secret status values
 * of the wrong shape), and in every string of every object the engine reads. No marker may reach any export:
 * the tab's bundle, Markdown and CSV (with and without pseudonyms), the command line's bundle, and every
 * report of the raw input and of the bundle; no host name may be left in an obfuscated one.
 */
import {
  mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync
} from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { dump } from 'js-yaml';
import { diagnose, readHostReport } from '@pkg/node-health/engine';
import {
  REDACTION_KINDS, bundleFromSanitized, createBundle, exportCsv, exportMarkdown, redactDiagnosis, redactObjects, sanitizedOf
} from '@pkg/node-health/export';
import { diagnoseInput } from '@pkg/node-health/data';
import type { DiagnosisInput } from '@pkg/node-health/data';
import { main } from '../../../cli/main';
import type { CliIo } from '../../../cli/io';
import { cliTranslator } from '../../../cli/l10n';
import {
  MARK, canaryFixture, hostLeaks, leaks, tabInput
} from './fixtures';

const fixture = canaryFixture();
const now = fixture.scenario.now;

describe('the canary fixture', () => {
  it('holds every marker in its input, so the checks below can fail', () => {
    const input = JSON.stringify(fixture.objects);

    expect(fixture.markers.length).toBeGreaterThan(200);
    expect(hostLeaks(input, fixture)).toEqual(fixture.hosts);
    expect(fixture.markers.filter((m) => !input.includes(m))).toEqual([]);
    expect(JSON.stringify(fixture.steve)).toContain(MARK);
    expect(fixture.canaries.length).toBeGreaterThan(0);
  });
});

describe.each(['en-us', 'zh-hans'])('the tab exports (%s)', (locale) => {
  const t = cliTranslator(locale);
  // As the tab does it: diagnose what its loader kept of Steve's answers, then export its own input and report.
  const input = tabInput(fixture.steve, now);
  const report = diagnoseInput(input);
  // An input read past the loader keeps plan-secret status values no agent writes: its report may show them.
  const raw: DiagnosisInput = { ...input, objects: fixture.steve };
  const rawReport = diagnoseInput(raw);

  it.each([
    ['as the loader read it', false], ['as the loader read it', true], ['read past the loader', false], ['read past the loader', true],
  ])('leak nothing, %s, obfuscate=%s', (how, obfuscate) => {
    const read = how === 'read past the loader';
    const sanitized = sanitizedOf(redactDiagnosis(read ? raw : input, read ? rawReport : report, {
      cluster:    (read ? rawReport : report).clusters[0],
      actionLog:  [{ at: now, detail: `ran --token ${ MARK }-log0123` }],
      unreadable: [{
        input: 'nodes', status: 500, reason: `proxy http://u:${ MARK }-err0123@proxy refused`
      }],
    }), obfuscate as boolean);
    const bundle = JSON.stringify(bundleFromSanitized(sanitized, {
      t,
      rancherVersion:   'v2.10.1',
      extensionVersion: '0.1.0',
    }), null, 2);
    const markdown = exportMarkdown(sanitized, t);
    const csv = exportCsv(sanitized, t);

    expect(JSON.parse(bundle).cluster.name).toBe(report.clusters[0].name);
    expect(leaks(bundle, fixture)).toEqual([]);
    expect(leaks(markdown, fixture)).toEqual([]);
    expect(leaks(csv, fixture)).toEqual([]);
    expect(bundle).not.toContain(MARK);
    expect(markdown).toContain(t('nodeHealth.report.title'));
    if (obfuscate) {
      expect(hostLeaks(bundle, fixture)).toEqual([]);
      expect(hostLeaks(markdown, fixture)).toEqual([]);
      expect(hostLeaks(csv, fixture)).toEqual([]);
    }
  });

  it('says what the tab said, and the bundle diagnosed again says the same', () => {
    const bundle = bundleFromSanitized(sanitizedOf(redactDiagnosis(input, report), false), { t });
    const verdicts = (records: { key: string; status: string; findings: { rule: string }[] }[]) => records.map((r) => `${ r.key } ${ r.status } ${ r.findings.map((f) => f.rule).join(',') }`).sort();

    expect(verdicts(bundle.records)).toEqual(verdicts(report.records));
    expect(verdicts(diagnose(bundle.objects, { now: bundle.createdAt, availability: bundle.availability }).records)).toEqual(verdicts(report.records));
  });
});

describe('the bundle of kubectl output', () => {
  const t = cliTranslator('en-us');
  const bundle = createBundle({
    objects: fixture.objects, now, t
  });

  it('leaks nothing and says what it removed, of every kind', () => {
    expect(leaks(JSON.stringify(bundle), fixture)).toEqual([]);
    // Fields that no rule reads are left out before any pattern looks at them; these kinds count what the rest holds.
    expect(REDACTION_KINDS.filter((k) => bundle.redactions[k] === 0).sort()).toEqual(['certificate', 'kubeconfig', 'privateKey', 'secretField']);
  });

  it('gives the findings of the sanitised input (status values of the wrong shape are not read)', () => {
    const rules = (r: ReturnType<typeof diagnose>) => r.records.map((x) => `${ x.key } ${ x.findings.map((f) => f.rule).join(',') }`).sort();

    expect(rules(diagnose(bundle.objects, { now: bundle.createdAt, availability: bundle.availability }))).toEqual(rules(diagnose(redactObjects(fixture.objects).objects, { now })));
  });
});

describe('the command line', () => {
  const root = mkdtempSync(join(tmpdir(), 'nh-canary-'));
  const input = join(root, 'input');
  let out = '';
  let err = '';
  const io: CliIo = {
    stdout:    (s) => {
      out += s;
    },
    stderr: (s) => {
      err += `${ s }\n`;
    },
    readFile:  (p) => readFileSync(p, 'utf8'),
    writeFile: (p, c) => writeFileSync(p, c),
  };

  beforeAll(() => {
    mkdirSync(input);
    // Half as a kubectl List in JSON, half as multi-document YAML.
    const half = Math.ceil(fixture.objects.length / 2);

    writeFileSync(join(input, 'local.json'), JSON.stringify({
      apiVersion: 'v1', kind: 'List', items: fixture.objects.slice(0, half)
    }));
    writeFileSync(join(input, 'rest.yaml'), fixture.objects.slice(half).map((o) => dump(o)).join('---\n'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it.each([[[]], [['--obfuscate']]])('bundles without leaking (%j), and the reports from the bundle leak nothing either', async(extra) => {
    const file = join(root, `bundle${ extra.length }.json`);

    out = '';
    err = '';
    expect(await main(['bundle', '--now', now, ...extra, '-o', file, input], io)).toBe(0);
    const text = readFileSync(file, 'utf8');

    expect(text).toContain('node-health-bundle/v1');
    expect(leaks(text, fixture)).toEqual([]);
    expect(JSON.parse(text).leftOut.map((v: any) => v.field).sort()).toEqual(['data.applied-checksum', 'data.failed-checksum', 'data.failure-count', 'data.last-apply-time', 'data.probe-statuses']);
    if (extra.length) {
      expect(hostLeaks(text, fixture)).toEqual([]);
    }
    for (const format of ['text', 'markdown', 'json']) {
      await main(['diagnose', '--format', format, file], io);
    }
    expect(out.length).toBeGreaterThan(1000);
    expect(leaks(out, fixture)).toEqual([]);
    expect(leaks(err, fixture)).toEqual([]);
    if (extra.length) {
      expect(hostLeaks(out, fixture)).toEqual([]);
    }
  });

  it('diagnoses the raw input without printing any marker, in every format', async() => {
    out = '';
    err = '';
    for (const format of ['text', 'markdown', 'json']) {
      await main(['diagnose', '--now', now, '--format', format, input], io);
    }
    expect(out).toContain('custom-c2a0d6e4b3f2');
    expect(out.length).toBeGreaterThan(3000);
    expect(leaks(out, fixture)).toEqual([]);
    expect(leaks(err, fixture)).toEqual([]);
    // What was left out for its shape is said, without the value.
    expect(err).toContain('left out data.applied-checksum of Secret fleet-default/');
  });
});

describe('host reports in the tab\'s exports', () => {
  // A report given to the engine without the reading-time redaction (as a caller that skips it would):
  // the export's own redaction must still keep its planted values out.
  const t = cliTranslator('en-us');
  const machine = fixture.scenario.objects.find((o) => o.kind === 'Machine');
  const planted = `${ MARK }-HOST`;
  const doc = {
    format:         'node-health-host/v1',
    hostname:       'host-a',
    collectedAt:    now,
    connectionInfo: {
      secretName: `${ machine?.metadata?.name }-machine-plan`, namespace: machine?.metadata?.namespace, server: `https://admin:${ planted }@rancher.example.com`
    },
    signatures:     [{
      id: 'agent-credentials', source: 'agent', count: 1, sample: `token=${ planted } Authorization: Bearer ${ planted }0123 --password ${ planted }`
    }],
    notes: [`kubeconfig: ${ planted }`],
  };
  const input = tabInput(fixture.steve, now);
  const report = diagnoseInput(input, undefined, [readHostReport(doc)]);

  it.each([false, true])('leak nothing, obfuscate=%s', (obfuscate) => {
    const sanitized = sanitizedOf(redactDiagnosis(input, report), obfuscate);
    const bundle = JSON.stringify(bundleFromSanitized(sanitized, { t }));
    const markdown = exportMarkdown(sanitized, t);

    expect(report.hosts[0].record).not.toBeNull();
    expect(JSON.stringify(report.hosts)).toContain(planted);
    for (const text of [bundle, markdown]) {
      expect(text).not.toContain(planted);
      // Like the host part of Rancher's links, the server's address does not leave.
      expect(text).not.toContain('rancher.example.com');
    }
    expect(markdown).toContain('### Host report from');
    expect(JSON.parse(bundle).hostReports).toHaveLength(1);
  });
});
