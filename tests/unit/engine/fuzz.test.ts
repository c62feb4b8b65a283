/**
 * Malformed input never crashes the engine: objects with fields removed, nulled or of the wrong type, and
 * junk mixed into the input, always give a report, and no rule trips over a shape it did not expect. Over the
 * same rounds, no record that Rancher reports not ready is called healthy, and no cause denies its evidence.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { diagnose, DEFAULT_CONFIG } from '@pkg/node-health/engine';
import { createTranslator } from '@pkg/node-health/report/translate';
import { reportContradictions, silentNotReady } from './trust';
import { buildScenario } from '../../../scenarios/catalog';
import { createRng } from '../../../scenarios/random';
import { WRONG_VALUES, clusterObjects, mutate } from './helpers';

// The record scenarios, and those whose findings are the whole cluster's (quorum, control plane, frozen Nodes,
// pauses, health checks, the planner, Cluster API's connection), whose checks read every record at once.
const sources = [
  'ghost-etcd', 'windows-node-ref', 'every-failure', 'etcd-hook', 'orphan-node',
  'etcd-quorum', 'control-plane-down', 'nodes-frozen', 'reconciliation-paused', 'health-check-blocked', 'planner-files', 'capi-connection-down',
].flatMap((name) => {
  const s = buildScenario(name);

  return s.clusters.flatMap((c) => [
    {
      name, now: s.now, objects: clusterObjects(s, c.mgmtId, 'kubectl')
    },
    {
      name: `${ name } (steve)`, now: s.now, objects: clusterObjects(s, c.mgmtId, 'steve')
    },
  ]);
});

const t = createTranslator(load(readFileSync(join(__dirname, '../../../pkg/node-health/l10n/en-us.yaml'), 'utf8')), 'en-us');

describe('malformed input', () => {
  it.each(sources.map((s) => [s.name, s] as const))('%s: 150 rounds of random damage never throw, hide a machine Rancher calls not ready, or contradict', (_, source) => {
    const rng = createRng(`fuzz:${ source.name }`);
    const failures: string[] = [];

    for (let round = 0; round < 150; round++) {
      const objects = source.objects.map((o) => (rng.chance(0.35) ? mutate(o, rng, rng.int(1, 6)) : o));

      if (rng.chance(0.2)) {
        objects.push(WRONG_VALUES[rng.int(0, WRONG_VALUES.length - 1)]);
      }
      let report;

      try {
        report = diagnose(objects, { now: source.now });
      } catch (e) {
        failures.push(`round ${ round }: threw ${ (e as Error).stack }`);
        continue;
      }
      for (const r of report.records) {
        for (const n of r.notes) {
          if (n.key === 'nodeHealth.notes.ruleFailed') {
            failures.push(`round ${ round }: ${ r.key }: ${ JSON.stringify(n.args) }`);
          }
        }
        if (!['healthy', 'warning', 'error', 'unknown'].includes(r.status)) {
          failures.push(`round ${ round }: ${ r.key }: status ${ r.status }`);
        }
      }
      for (const c of report.clusters) {
        for (const n of c.notes ?? []) {
          if (n.key === 'nodeHealth.notes.ruleFailed') {
            failures.push(`round ${ round }: cluster ${ c.name }: ${ JSON.stringify(n.args) }`);
          }
        }
      }
      failures.push(...silentNotReady(report, DEFAULT_CONFIG).map((p) => `round ${ round }: ${ p }`));
      failures.push(...reportContradictions(report, t).map((p) => `round ${ round }: ${ p }`));
    }
    expect(failures.slice(0, 5)).toStrictEqual([]);
  });

  it('junk instead of objects gives an empty report', () => {
    const report = diagnose([null, 1, 'x', [], {}, { kind: 'Machine' }, {
      apiVersion: 'cluster.x-k8s.io/v1beta1', kind: 'Machine', metadata: null
    }] as unknown[], { now: '2026-01-01T00:00:00Z' });

    expect(report.records).toStrictEqual([]);
    expect(report.skipped.length).toBeGreaterThan(0);
  });

  it('not even an array is a clear empty report, not a crash', () => {
    expect(diagnose(null as unknown as unknown[], { now: '2026-01-01T00:00:00Z' }).records).toStrictEqual([]);
  });

  it('a machine with no status at all is unknown, with the reason', () => {
    const report = diagnose([{
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind:       'Machine',
      metadata:   {
        name: 'm1', namespace: 'ns', labels: { 'cluster.x-k8s.io/cluster-name': 'c' }
      }
    }], { now: '2026-01-01T00:00:00Z' });

    expect(report.records[0].status).toBe('unknown');
    expect(report.records[0].notes.map((n) => n.key)).toContain('nodeHealth.notes.noStatus');
  });

  it('an invalid now is refused with a clear error', () => {
    expect(() => diagnose([], { now: 'yesterday' })).toThrow(/not a valid time/);
  });
});
