/**
 * Diagnosing changes (diagnoseChanges): for every scenario and input kind, an object changed, added or removed
 * gives exactly the report a full diagnosis of the new input gives (records, statuses, findings, steps, the
 * clusters' findings, counts), also when the clock moved, over chains of changes, and over the fuzz rounds'
 * damaged objects. And it is incremental: one object changed judges again only the records it touches.
 */
import {
  applyChanges, classify, diagnose, diagnoseChanges, diagnoseKeeping, metadata, readHostReport
} from '@pkg/node-health/engine';
import { conditionStatus } from '@pkg/node-health/engine/conditions';
import type { DiagnoseOptions, DiagnosisReport, DiagnosisState, ObjectChanges } from '@pkg/node-health/engine';
import { buildScenario, everyFailure, large, SCENARIO_NAMES } from '../../../scenarios/catalog';
import { everyFailureHostReports } from '../../../scenarios/host-reports';
import { createRng } from '../../../scenarios/random';
import { clusterObjects, mutate } from './helpers';

const HOUR = 3600000;

function plain(report: DiagnosisReport): unknown {
  return JSON.parse(JSON.stringify(report));
}

function uidOf(o: any): string {
  return metadata(o).uid as string;
}

function inputOf(name: string) {
  const s = buildScenario(name);
  const objects = s.clusters.flatMap((c) => clusterObjects(s, c.mgmtId, 'steve'));
  const options: DiagnoseOptions = { now: s.now, defaultCluster: s.clusters.length === 1 ? s.clusters[0].mgmtId : undefined };

  return { objects, options };
}

/** Per kind of object, one of it: the first, and one from the middle. */
function samples(objects: unknown[]): Map<string, unknown[]> {
  const byKind = new Map<string, unknown[]>();

  for (const o of objects) {
    const kind = classify(o);

    if (kind && uidOf(o)) {
      byKind.set(kind, [...(byKind.get(kind) ?? []), o]);
    }
  }

  return new Map([...byKind].map(([kind, list]) => [kind, [...new Set([list[0], list[Math.floor(list.length / 2)]])]]));
}

/** Damage that leaves the uid: the same object, changed. */
function withUid(damaged: any, uid: string): any {
  const meta = damaged.metadata !== null && typeof damaged.metadata === 'object' && !Array.isArray(damaged.metadata) ? damaged.metadata : {};

  return { ...damaged, metadata: { ...meta, uid } };
}

/** A change that moves what the object joins, where it has such a key, else a changed condition or label. */
function changed(o: any, rng: ReturnType<typeof createRng>, others: any[]): any {
  const copy = JSON.parse(JSON.stringify(o));
  const other = others[rng.int(0, others.length - 1)];

  copy.metadata.resourceVersion = `${ copy.metadata.resourceVersion ?? 0 }1`;
  switch (rng.int(0, 3)) {
  case 0:
    // Another object's labels and annotations: its join keys (machine uid, machine name, cluster) move here.
    copy.metadata.labels = JSON.parse(JSON.stringify(other?.metadata?.labels ?? {}));
    copy.metadata.annotations = JSON.parse(JSON.stringify(other?.metadata?.annotations ?? {}));
    break;
  case 1:
    // Another object's spec and status: a Machine's nodeRef, a Node's providerID and conditions.
    copy.spec = JSON.parse(JSON.stringify(other?.spec ?? {}));
    copy.status = JSON.parse(JSON.stringify(other?.status ?? {}));
    break;
  case 2:
    return withUid(mutate(copy, rng, rng.int(1, 6)), copy.metadata.uid);
  default:
    copy.metadata.deletionTimestamp = '2026-01-01T00:00:00Z';
    copy.metadata.finalizers = ['example.com/stuck'];
  }

  return copy;
}

function added(o: any, i: number): any {
  const copy = JSON.parse(JSON.stringify(o));

  copy.metadata.uid = `added-${ i }-${ copy.metadata.uid }`;
  copy.metadata.name = `${ copy.metadata.name }-added`;
  if (copy.id) {
    copy.id = `${ copy.id }-added`;
  }

  return copy;
}

/** The incremental report against a full diagnosis of the same new input; the state for the next step. */
function step(state: DiagnosisState, changes: ObjectChanges, options: DiagnoseOptions, label: string, failures: string[]): DiagnosisState {
  const next = diagnoseChanges(state, changes, options);
  const full = diagnose(applyChanges(state.objects, changes) as unknown[], options);

  if (JSON.stringify(plain(next.report)) !== JSON.stringify(plain(full))) {
    const a = next.report.records.map((r) => `${ r.key } ${ r.status } ${ r.findings.map((f) => f.rule) } ${ r.notes.map((n) => n.key) }`);
    const b = full.records.map((r) => `${ r.key } ${ r.status } ${ r.findings.map((f) => f.rule) } ${ r.notes.map((n) => n.key) }`);
    const differ = a.filter((x, i) => x !== b[i]).slice(0, 2);

    failures.push(`${ label }: differs from a full diagnosis (${ differ.join(' | ') || 'details' })`);
  }

  return next;
}

describe('diagnoseChanges', () => {
  it.each(SCENARIO_NAMES)('%s: each kind of object changed, added or removed gives the report of a full diagnosis', (name) => {
    const { objects, options } = inputOf(name);
    const rng = createRng(`incremental:${ name }`);
    const failures: string[] = [];
    let state = diagnoseKeeping(objects, options);
    let i = 0;

    expect(plain(state.report)).toEqual(plain(diagnose(objects, options)));
    for (const [kind, picked] of samples(objects)) {
      const sameKind = objects.filter((o) => classify(o) === kind);

      for (const o of picked) {
        i++;
        // One after the other on the same state, half of them an hour or a day later.
        const later = (at: number) => ({ ...options, now: Date.parse(String(options.now)) + (at % 3 === 0 ? 0 : (at % 3) * 13 * HOUR) });

        state = step(state, { changed: [changed(o, rng, sameKind)] }, later(i), `${ kind } ${ uidOf(o) } changed`, failures);
        state = step(state, { added: [added(o, i)] }, later(i + 1), `${ kind } ${ uidOf(o) } added`, failures);
        state = step(state, { removed: [uidOf(o)] }, later(i + 2), `${ kind } ${ uidOf(o) } removed`, failures);
      }
    }
    expect(state.how.path).toBe('incremental');
    expect(failures.slice(0, 5)).toStrictEqual([]);
  });

  it.each(SCENARIO_NAMES.filter((name) => inputOf(name).objects.length <= 250))('%s: every object removed, and every Node and Machine renamed, one at a time', (name) => {
    const { objects, options } = inputOf(name);
    const state = diagnoseKeeping(objects, options);
    const failures: string[] = [];

    for (const o of objects) {
      const uid = uidOf(o);

      if (!uid) {
        continue;
      }
      step(state, { removed: [uid] }, options, `${ uid } removed`, failures);
      if (['node', 'machine'].includes(classify(o) ?? '')) {
        const renamed = JSON.parse(JSON.stringify(o));

        renamed.metadata.name = `${ renamed.metadata.name }-renamed`;
        step(state, { changed: [renamed] }, options, `${ uid } renamed`, failures);
      }
    }
    expect(failures.slice(0, 5)).toStrictEqual([]);
  });

  it.each(['ghost-etcd', 'windows-node-ref', 'every-failure', 'etcd-hook', 'orphan-node'])('%s: 60 rounds of fuzz damage to changed objects give the report of a full diagnosis', (name) => {
    const { objects, options } = inputOf(name);
    const rng = createRng(`incremental-fuzz:${ name }`);
    const failures: string[] = [];
    let state = diagnoseKeeping(objects, options);

    for (let round = 0; round < 60; round++) {
      const identified = state.objects.filter((o) => uidOf(o));
      const picked = [...new Set([0, 1, 2].map(() => identified[rng.int(0, identified.length - 1)]))];
      const changes: ObjectChanges = rng.chance(0.2) ? { removed: [uidOf(picked[0])] } : { changed: picked.map((o) => withUid(mutate(o, rng, rng.int(1, 6)), uidOf(o))) };

      state = step(state, changes, { ...options, now: Date.parse(String(options.now)) + round * 7 * 60000 }, `round ${ round }`, failures);
    }
    expect(failures.slice(0, 5)).toStrictEqual([]);
  });

  it('one Machine changed judges again only the records it touches, and says the same as a full diagnosis', () => {
    const s = large(300, { seed: 'incremental' });
    const objects = [...s.objects, ...(s.downstream[s.clusters[0].mgmtId] ?? [])];
    const options = { now: s.now, defaultCluster: s.clusters[0].mgmtId };
    const state = diagnoseKeeping(objects, options);
    const machine = objects.find((o) => classify(o) === 'machine' && (metadata(o as any).labels as any)?.['rke.cattle.io/control-plane-role'] !== 'true') as any;
    const copy = JSON.parse(JSON.stringify(machine));

    copy.status.conditions = (copy.status.conditions ?? []).map((c: any) => (c.type === 'Ready' ? {
      ...c, status: 'False', reason: 'Example', message: 'changed'
    } : c));
    const next = diagnoseChanges(state, { changed: [copy] });

    expect(next.how.path).toBe('incremental');
    expect(next.how.judged).toBeGreaterThan(0);
    expect(next.how.judged).toBeLessThan(next.how.records / 4);
    expect(plain(next.report)).toEqual(plain(diagnose(applyChanges(objects, { changed: [copy] }) as unknown[], options)));
    // Five minutes later with nothing changed: only the records whose rules read the clock are judged again.
    const later = { ...options, now: Date.parse(s.now) + 5 * 60000 };
    const again = diagnoseChanges(next, {}, later, next.objects);

    expect(again.how.judged).toBeLessThan(again.how.records / 4);
    expect(plain(again.report)).toEqual(plain(diagnose(next.objects, later)));
    // An hour later with still nothing changed, no kubelet has written its Node since: every Ready Node's status is
    // stale, and the records that said "not stale yet" until then are judged again, as a full diagnosis judges them.
    const hourLater = { ...options, now: Date.parse(s.now) + HOUR };
    const stale = diagnoseChanges(again, {}, hourLater, next.objects);
    const readyNodes = stale.report.records.filter((r) => r.objects.node && conditionStatus(r.objects.node, 'Ready') === 'True');

    expect(readyNodes.length).toBeGreaterThan(again.how.records / 2);
    expect(readyNodes.every((r) => r.findings.some((f) => f.rule === 'node-status-stale'))).toBe(true);
    expect(stale.how.judged).toBeGreaterThanOrEqual(readyNodes.length);
    expect(plain(stale.report)).toEqual(plain(diagnose(next.objects, hourLater)));
  });

  it('keeps the index of plan secrets, bootstraps and infrastructure machines while none of them changed, and builds it again when one did', () => {
    const s = large(60, { seed: 'kept-parts' });
    const objects = [...s.objects, ...(s.downstream[s.clusters[0].mgmtId] ?? [])];
    const options = { now: s.now, defaultCluster: s.clusters[0].mgmtId };
    const state = diagnoseKeeping(objects, options);
    const machine = JSON.parse(JSON.stringify(objects.find((o) => classify(o) === 'machine')));
    const secret = JSON.parse(JSON.stringify(objects.find((o) => classify(o) === 'planSecret')));

    machine.metadata.labels = { ...machine.metadata.labels, example: 'changed' };
    const machineChanged = diagnoseChanges(state, { changed: [machine] });

    expect(machineChanged.how.path).toBe('incremental');
    expect(machineChanged.joined.kept?.parts).toBe(state.joined.kept?.parts);
    secret.metadata.annotations = { ...secret.metadata.annotations, example: 'changed' };
    const secretChanged = diagnoseChanges(machineChanged, { changed: [secret] });

    expect(secretChanged.how.path).toBe('incremental');
    expect(secretChanged.joined.kept?.parts).not.toBe(state.joined.kept?.parts);
    expect(secretChanged.joined.kept?.parts.index.secrets.map((e) => e.obj)).toContain(secret);
    // Removing a Machine leaves its plan secret to a record of its own, as a full diagnosis does, with the index kept.
    const removed = diagnoseChanges(state, { removed: [machine.metadata.uid] });

    expect(removed.joined.kept?.parts).toBe(state.joined.kept?.parts);
    expect(plain(removed.report)).toEqual(plain(diagnose(applyChanges(objects, { removed: [machine.metadata.uid] }) as unknown[], options)));
  });

  it('the same objects later, with host reports given and taken away, and then changed: the report of a full diagnosis', () => {
    const s = everyFailure();
    const objects = s.clusters.flatMap((c) => clusterObjects(s, c.mgmtId, 'steve'));
    const options = { now: s.now, defaultCluster: s.clusters[0].mgmtId };
    const reports = everyFailureHostReports(s).map((d: unknown) => readHostReport(d));
    let state = diagnoseKeeping(objects, options);

    for (const [later, hostReports] of [[0, []], [HOUR, reports], [26 * HOUR, reports], [26 * HOUR, []], [40 * 24 * HOUR, []]] as const) {
      const at = {
        ...options, now: Date.parse(s.now) + later, hostReports: [...hostReports]
      };

      state = diagnoseChanges(state, {}, at, state.objects);
      expect(state.how.path).toBe('incremental');
      expect(plain(state.report)).toEqual(plain(diagnose(objects, at)));
    }
    const machine = JSON.parse(JSON.stringify(objects.find((o) => classify(o) === 'machine')));

    machine.metadata.labels = { ...machine.metadata.labels, example: 'changed' };
    state = diagnoseChanges(state, { changed: [machine] }, { ...options, hostReports: reports });
    expect(plain(state.report)).toEqual(plain(diagnose(applyChanges(objects, { changed: [machine] }) as unknown[], { ...options, hostReports: reports })));
  });

  it('changed options (availability) or changes that do not fit make a full diagnosis', () => {
    const { objects, options } = inputOf('every-failure');
    const state = diagnoseKeeping(objects, options);
    const machine = objects.find((o) => classify(o) === 'machine');
    const unavailable = { ...options, availability: { nodes: 'forbidden' as const } };

    expect(diagnoseChanges(state, {}, unavailable).how.path).toBe('full');
    expect(plain(diagnoseChanges(state, {}, unavailable).report)).toEqual(plain(diagnose(objects, unavailable)));
    expect(() => diagnoseChanges(state, { removed: ['no-such-uid'] })).toThrow(/do not fit/);
    expect(() => diagnoseChanges(state, { added: [machine] })).toThrow(/do not fit/);
  });
  it('with the views\' own options (the record tab\'s scope, the fleet\'s Nodes left to the tab): a change says what a full diagnosis says, notes once', () => {
    for (const name of ['every-failure', 'ghost-etcd', 'windows-node-ref']) {
      const { objects, options } = inputOf(name);
      const machines = objects.filter((o) => classify(o) === 'machine');

      for (const view of [{ scoped: { poolRead: false, workers: true } }, { nodesLeftToTab: true }] as Partial<DiagnoseOptions>[]) {
        const at = { ...options, ...view };
        let state = diagnoseKeeping(objects, at);

        for (const step of [1, 2]) {
          const machine = JSON.parse(JSON.stringify(machines[step % machines.length]));

          machine.metadata.resourceVersion = `${ machine.metadata.resourceVersion ?? 0 }${ step }`;
          machine.metadata.labels = { ...machine.metadata.labels, example: `changed-${ step }` };
          state = diagnoseChanges(state, { changed: [machine] }, at);
          expect(state.how.path).toBe('incremental');
          expect(plain(state.report)).toEqual(plain(diagnose(state.objects, at)));
        }
        state = diagnoseChanges(state, {}, { ...at, now: Date.parse(String(options.now)) + HOUR }, state.objects);
        expect(plain(state.report)).toEqual(plain(diagnose(state.objects, { ...at, now: Date.parse(String(options.now)) + HOUR })));
        for (const r of state.report.records) {
          expect(r.notes.map((n) => n.key)).toEqual([...new Set(r.notes.map((n) => n.key))]);
        }
      }
    }
  });
});
