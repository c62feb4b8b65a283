import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { diagnose, linkChain } from '@pkg/node-health/engine';
import type { DiagnosisReport, KubeObject } from '@pkg/node-health/engine';
import {
  BUNDLE_FORMAT, bundleFromSanitized, bundleRecords, createBundle, exportFileName, redactDiagnosis, sanitizedOf, settledAvailability
} from '@pkg/node-health/export';
import { diagnoseInput } from '@pkg/node-health/data';
import { BundleError, readBundle } from '@pkg/node-health/export/bundle';
import { toJsonReport } from '@pkg/node-health/report/render';
import { BUNDLE_FORMAT as CLI_BUNDLE_FORMAT, loadInputs } from '../../../cli/input';
import { cliTranslator } from '../../../cli/l10n';
import { SCENARIO_NAMES } from '../../../scenarios/catalog';
import { kubectlObjects, scenario, steveObjects, tabInput } from './fixtures';

const t = cliTranslator('en-us');

function roundTrip(objects: KubeObject[], now: string) {
  const original = diagnose(objects, { now });
  const bundle = createBundle({
    objects, now, t, rancherVersion: 'v2.10.1', extensionVersion: '0.1.0'
  });
  const again = diagnose(bundle.objects, { now: bundle.createdAt, availability: bundle.availability });

  return {
    original, bundle, again
  };
}

describe('bundle shape', () => {
  const s = scenario('ghost-etcd');
  const objects = kubectlObjects(s);
  const before = JSON.stringify(objects);
  const bundle = createBundle({
    objects,
    now:              s.now,
    t,
    rancherVersion:   'v2.10.1',
    extensionVersion: '0.1.0',
    actionLog:        [{
      at: s.now, user: 'admin', cluster: 'c-m-1', action: 'remove-finalizers', target: 'Machine fleet-default/custom-2d74d4c9a104', result: 'succeeded', detail: 'patched with --token abc0123456789'
    }],
    unreadable:   [{
      input: 'bootstraps', status: 403, reason: 'rkebootstraps.rke.cattle.io is forbidden'
    }],
    availability: { bootstraps: 'forbidden' },
  });

  it('has the documented top-level fields', () => {
    expect(Object.keys(bundle).sort()).toEqual([
      'actionLog', 'availability', 'cluster', 'clusters', 'counts', 'createdAt', 'format', 'generator', 'hostReports', 'hosts', 'leftOut', 'objects', 'obfuscated',
      'records', 'redactions', 'unreadable',
    ].sort());
    expect(bundle.format).toBe(BUNDLE_FORMAT);
    expect(BUNDLE_FORMAT).toBe(CLI_BUNDLE_FORMAT);
    expect(bundle.createdAt).toBe(new Date(s.now).toISOString());
    expect(bundle.generator).toEqual({
      name: 'node-health', rancherVersion: 'v2.10.1', extensionVersion: '0.1.0'
    });
    expect(bundle.cluster?.name).toBe(s.clusters[0].name);
    expect(bundle.cluster?.mgmtId).toBe(s.clusters[0].mgmtId);
    expect(bundle.obfuscated).toBe(false);
  });

  it('settles availability: what was given stays, what was seen is ok, the rest absent', () => {
    expect(bundle.availability).toEqual({
      machines:            'ok',
      planSecrets:         'ok',
      bootstraps:          'forbidden',
      infraMachines:       'ok',
      mgmtNodes:           'ok',
      nodes:               'ok',
      // The kubelets' Leases were in the objects too.
      leases:              'ok',
      // A custom cluster's CAPI Cluster was in the objects; it has no pools.
      capiClusters:        'ok',
      machineHealthChecks: 'absent',
      machineDeployments:  'absent',
      machineSets:         'absent',
    });
    expect(Object.values(settledAvailability([]))).toStrictEqual(Array(11).fill('absent'));
  });

  it('carries every record with its findings, keys, chain and plan status', () => {
    const report = diagnose(objects, { now: s.now, availability: { bootstraps: 'forbidden' } });

    expect(bundle.records).toHaveLength(report.records.length);
    expect(bundle.records.map((r) => r.key).sort()).toEqual(report.records.map((r) => r.key).sort());
    const ghost = bundle.records.find((r) => r.machine === 'custom-2d74d4c9a104');

    expect(ghost?.findings.map((f) => f.rule)).toEqual(report.records.find((r) => r.machineName === 'custom-2d74d4c9a104')?.findings.map((f) => f.rule));
    expect(ghost?.findings[0].title).not.toMatch(/^nodeHealth\./);
    expect(ghost?.findings[0].actions).toEqual(expect.any(Array));
    expect(ghost?.chain.map((c) => c.kind)).toEqual(expect.arrayContaining(['machine', 'planSecret', 'node']));
    expect(ghost?.planStatus.state).toBe('waiting-for-agent');
    expect(bundle.counts).toEqual(report.counts);
  });

  it('redacts the action log and keeps what could not be read', () => {
    expect(JSON.stringify(bundle.actionLog)).not.toContain('abc0123456789');
    expect(bundle.actionLog).toHaveLength(1);
    expect(bundle.unreadable).toEqual([{
      input: 'bootstraps', status: 403, reason: 'rkebootstraps.rke.cattle.io is forbidden'
    }]);
  });

  it('leaves the input objects as they were', () => {
    expect(JSON.stringify(objects)).toBe(before);
  });
});

/**
 * A bundle keeps no links, so it cannot say whether its reader may write: an action's permission check is the
 * exporter's, judged in the tab, and unjudged in the bundle. Everything else of the report is the same.
 */
function withoutPermission<T>(json: T): T {
  return JSON.parse(JSON.stringify(json), (key, value) => (key === 'actions' && Array.isArray(value) && value.every((a) => a && typeof a === 'object') ? value.map((a: any) => ({ id: a.id, checks: a.checks.filter((c: any) => c.id !== 'mayUpdate' && c.id !== 'mayDelete') })) : value));
}

describe.each(SCENARIO_NAMES)('round trip of scenario %s', (name) => {
  const s = scenario(name);

  it.each([['kubectl', kubectlObjects(s)], ['steve', steveObjects(s)]] as [string, KubeObject[]][])('%s-shaped: diagnosing the bundle gives the same records and findings', (_shape, objects) => {
    const { original, bundle, again } = roundTrip(objects, s.now);

    expect(withoutPermission(toJsonReport(again, t))).toEqual(withoutPermission(toJsonReport(original, t)));
    expect(again.records.map((r) => [r.key, linkChain(r)])).toEqual(original.records.map((r) => [r.key, linkChain(r)]));
    expect(withoutPermission(bundleRecords(again, t))).toEqual(withoutPermission(bundle.records));
  });
});

describe('bundle as the tab makes it', () => {
  const s = scenario('every-failure');
  const input = tabInput(steveObjects(s), s.now);
  const report: DiagnosisReport = diagnoseInput(input);

  it('from its own input and report gives the bundle of the objects, as the command line makes it', () => {
    const fromTab = bundleFromSanitized(sanitizedOf(redactDiagnosis(input, report, { cluster: report.clusters[0] }), false), { t });
    const fromObjects = createBundle({
      objects: input.objects, now: s.now, t
    });

    expect(withoutPermission(fromTab.records)).toEqual(withoutPermission(fromObjects.records));
    expect(fromTab.objects).toEqual(fromObjects.objects);
    expect(fromTab.cluster).toEqual(fromObjects.cluster);
    expect(withoutPermission(toJsonReport(diagnose(fromTab.objects, { now: fromTab.createdAt, availability: fromTab.availability }), t))).toEqual(withoutPermission(toJsonReport(report, t)));
  });

  it('keeps the tab\'s report untouched, and no plan of a plan secret', () => {
    const before = JSON.stringify(report.records.map((r) => r.objects));
    const sanitized = sanitizedOf(redactDiagnosis(input, report), true);

    expect(JSON.stringify(report.records.map((r) => r.objects))).toBe(before);
    expect(sanitized.report.records).toHaveLength(report.records.length);
    expect(sanitized.report.records.every((r) => !r.objects.planSecret || Object.keys(r.objects.planSecret.data ?? {}).every((k) => !['plan', 'appliedPlan'].includes(k)))).toBe(true);
  });
});

describe('the command line reads a bundle back', () => {
  const dir = mkdtempSync(join(tmpdir(), 'nh-bundle-'));

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('as objects at the bundle time with its availability', () => {
    const s = scenario('etcd-hook');
    const bundle = createBundle({
      objects: kubectlObjects(s), now: s.now, t, availability: { infraMachines: 'forbidden' }
    });
    const file = join(dir, 'bundle.json');

    writeFileSync(file, JSON.stringify(bundle));
    const input = loadInputs([file]);

    expect(input.objects).toEqual(bundle.objects);
    expect(input.bundleNow).toBe(bundle.createdAt);
    expect(input.availability).toEqual(bundle.availability);
    // A bundle of a bundle reads the same.
    const again = createBundle({
      objects: input.objects, now: input.bundleNow as string, t, availability: input.availability
    });

    expect(again.records).toEqual(bundle.records);
    expect(again.objects).toEqual(bundle.objects);
  });
});

describe('exportFileName', () => {
  it('names the cluster and the time with characters every file system accepts', () => {
    expect(exportFileName('prod/east 1', '2026-01-15T08:10:00.000Z', 'json')).toBe('node-health-prod-east-1-2026-01-15T081000Z.json');
    expect(exportFileName(null, '2026-01-15T08:10:00Z', 'csv')).toBe('node-health-2026-01-15T081000Z.csv');
  });
});

describe('reading a bundle back', () => {
  it('gives what was written, typed, and refuses what is not a bundle', () => {
    const s = scenario('ghost-etcd');
    const bundle = createBundle({
      objects: kubectlObjects(s), now: s.now, t, rancherVersion: 'v2.12.2', extensionVersion: '0.1.0', obfuscate: true
    });
    const read = readBundle(JSON.parse(JSON.stringify(bundle)));

    expect(read).toEqual({
      createdAt:        bundle.createdAt,
      cluster:          bundle.cluster?.name ?? null,
      rancherVersion:   'v2.12.2',
      extensionVersion: '0.1.0',
      obfuscated:       true,
      redactions:       bundle.redactions,
      availability:     bundle.availability,
      objects:          bundle.objects,
      hostReports:      bundle.hostReports,
    });
    // Fields of the wrong type are left empty, not passed on.
    expect(readBundle({
      format: BUNDLE_FORMAT, objects: [], createdAt: 7, generator: 'x', redactions: { secret: 'many', token: 2 }, hostReports: {}
    })).toMatchObject({
      createdAt: null, rancherVersion: null, redactions: { token: 2 }, hostReports: [], availability: {}
    });
    expect(() => readBundle({ format: BUNDLE_FORMAT })).toThrow(BundleError);
    expect(() => readBundle({ format: 'node-health-report/v1', objects: [] })).toThrow(BundleError);
  });
});
