/**
 * The tab's and the fleet page's exports leave from the view's own input and report, redacted once: nothing is
 * diagnosed again, the JSON report is made once, and the bundle, diagnosed again by the command line, says what
 * the view said.
 */
import { diagnose } from '@pkg/node-health/engine';
import type { DiagnosisReport } from '@pkg/node-health/engine';
import * as joinModule from '@pkg/node-health/engine/join';
import * as renderModule from '@pkg/node-health/report/render';
import { clusterIdentities, diagnoseInput } from '@pkg/node-health/data';
import type { DiagnosisInput } from '@pkg/node-health/data';
import { bundleFromSanitized, bundleRecords, redactDiagnosis, sanitizedOf } from '@pkg/node-health/export';
import { cliTranslator } from '../../../cli/l10n';
import { SCENARIO_NAMES } from '../../../scenarios/catalog';
import { scenario, steveObjects, tabInput } from './fixtures';

const t = cliTranslator('en-us');

/** A bundle keeps no links: an action's permission check is the exporter's, unjudged when the bundle is read. */
function withoutPermission<T>(json: T): T {
  return JSON.parse(JSON.stringify(json), (key, value) => (key === 'actions' && Array.isArray(value) && value.every((a) => a && typeof a === 'object') ? value.map((a: any) => ({ id: a.id, checks: a.checks.filter((c: any) => c.id !== 'mayUpdate' && c.id !== 'mayDelete') })) : value));
}

/** Texts the engine shortened (…) up to where either could have been cut. */
function shortenedAlike<T>(json: T): T {
  return JSON.parse(JSON.stringify(json), (_key, value) => (typeof value === 'string' && value.endsWith('…') ? `${ value.slice(0, 60) }…` : value));
}

function verdicts(records: { key: string; status: string; findings: { rule: string }[] }[], key = (k: string) => k): string[] {
  return records.map((r) => `${ key(r.key) } ${ r.status } ${ r.findings.map((f) => f.rule).join(',') }`).sort();
}

describe.each(SCENARIO_NAMES)('the tab\'s export of scenario %s', (name) => {
  const s = scenario(name);
  const input = tabInput(steveObjects(s), s.now);
  const report = diagnoseInput(input);

  afterEach(() => jest.restoreAllMocks());

  it.each([false, true])('says what the tab said, diagnosed again by the command line as well (pseudonyms: %s)', (obfuscate) => {
    const join = jest.spyOn(joinModule, 'join');
    const json = jest.spyOn(renderModule, 'toJsonReport');
    const sanitized = sanitizedOf(redactDiagnosis(input, report), obfuscate);
    const bundle = bundleFromSanitized(sanitized, { t });

    // Nothing diagnosed again, the JSON report made once.
    expect(join).not.toHaveBeenCalled();
    expect(json).toHaveBeenCalledTimes(1);
    expect(verdicts(bundle.records)).toEqual(verdicts(report.records, sanitized.text));
    // The whole input leaves, not only the records' objects: Cluster API's objects too, for the cluster's findings.
    expect(bundle.clusters.map((c) => c.findings.map((f) => f.rule))).toEqual(report.clusters.map((c) => c.findings.map((f) => f.rule)));
    jest.restoreAllMocks();

    const again = diagnose(bundle.objects, { now: bundle.createdAt, availability: bundle.availability });

    expect(verdicts(again.records)).toEqual(verdicts(bundle.records));
    // Every word the same too, but where the engine shortened a long text: a pseudonym of another length cuts it elsewhere.
    const same = obfuscate ? shortenedAlike : <T>(x: T) => x;

    expect(same(withoutPermission(bundleRecords(again, t)))).toEqual(same(withoutPermission(bundle.records)));
    expect(same(withoutPermission(renderModule.toJsonReport(again, t).clusters))).toEqual(same(withoutPermission(bundle.clusters)));
  });
});

describe('a view\'s diagnosis, redacted', () => {
  const s = scenario('every-failure');
  const input = tabInput(steveObjects(s), s.now);
  const report: DiagnosisReport = diagnoseInput(input);

  it('holds the redacted copies of the objects, and leaves the view\'s own as they were', () => {
    const before = JSON.stringify(report);
    const redacted = redactDiagnosis(input, report, { cluster: report.clusters[0] });
    const copies = new Set(redacted.objects);

    expect(JSON.stringify(report)).toBe(before);
    expect(redacted.report.records).toHaveLength(report.records.length);
    for (const r of redacted.report.records) {
      expect(Object.values(r.objects).filter((o) => o && !copies.has(o))).toEqual([]);
    }
    // One cluster, shared by its records and the report's list, as in the view's report.
    expect(redacted.cluster).toBe(redacted.report.clusters[0]);
    expect(redacted.report.records.filter((r) => r.cluster).every((r) => r.cluster === redacted.cluster)).toBe(true);
    expect(redacted.objects.every((o) => !o.links || Object.keys(o.links).join() === 'self')).toBe(true);
  });

  it('diagnoses what leaves instead, where the input held plan-secret values no agent writes (read past the loader)', () => {
    const planSecret = input.objects.find((o) => o.metadata?.name && o._type === 'rke.cattle.io/machine-plan' && o.data?.['applied-checksum']);
    const hostile: DiagnosisInput = {
      ...input,
      objects: input.objects.map((o) => (o === planSecret ? { ...o, data: { ...o.data, 'applied-checksum': Buffer.from('password=hunter2').toString('base64') } } : o)),
    };
    const hostileReport = diagnoseInput(hostile);
    const join = jest.spyOn(joinModule, 'join');
    const redacted = redactDiagnosis(hostile, hostileReport);

    expect(planSecret).toBeDefined();
    expect(redacted.leftOut).toEqual([expect.objectContaining({ field: 'data.applied-checksum' })]);
    expect(join).toHaveBeenCalledTimes(1);
    join.mockRestore();
    expect(verdicts(redacted.report.records)).toEqual(verdicts(diagnose(redacted.objects, { now: s.now, availability: redacted.availability }).records));
  });

  it('carries identities, availability and time as the view had them', () => {
    const redacted = redactDiagnosis(input, report);

    expect(redacted.report.now).toBe(report.now);
    expect(redacted.report.counts).toEqual(report.counts);
    expect(clusterIdentities(input.targets).map((c) => c.mgmtId)).toEqual(redacted.report.clusters.map((c) => c.mgmtId));
  });
});
