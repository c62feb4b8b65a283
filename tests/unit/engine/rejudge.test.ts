/**
 * Judging the same objects again later (diagnoseChanges with no change), as the tab does when nothing changed since its last
 * load: every scenario gives, at any later time and with or without host reports, exactly the report a fresh
 * diagnosis of the same objects gives, however many times it is judged again.
 */
import { diagnose, diagnoseChanges, diagnoseKeeping, readHostReport } from '@pkg/node-health/engine';
import type { DiagnoseOptions, DiagnosisReport, HostReport } from '@pkg/node-health/engine';
import { buildScenario, everyFailure, ghostEtcd, SCENARIO_NAMES } from '../../../scenarios/catalog';
import { everyFailureHostReports, ghostHostReport } from '../../../scenarios/host-reports';
import { clusterObjects } from './helpers';

const HOUR = 3600000;
/** Later times: past the thresholds of the time-based rules (minutes to days) */
const LATER = [0, 5 * 60000, HOUR, 26 * HOUR, 40 * 24 * HOUR];

/** A report as plain data: records judged again are the same objects, so compare what they say. */
function plain(report: DiagnosisReport): unknown {
  return JSON.parse(JSON.stringify(report));
}

/** The objects diagnosed once and kept, and a way to judge them again (the session's diagnoseAgainAt). */
function diagnoseAgainLater(objects: unknown[], options: DiagnoseOptions) {
  let state = diagnoseKeeping(objects, options);
  const rejudge = (now: DiagnoseOptions['now'], hostReports: HostReport[] | undefined = options.hostReports): DiagnosisReport => {
    state = diagnoseChanges(state, {}, {
      ...options, now, hostReports
    }, state.objects);

    return state.report;
  };

  return { report: state.report, rejudge };
}

describe('judging the same objects again', () => {
  it.each(SCENARIO_NAMES)('%s: judged again at later times, the same report as a fresh diagnosis', (name) => {
    const s = buildScenario(name);
    const objects = s.clusters.flatMap((c) => clusterObjects(s, c.mgmtId, 'steve'));
    const options = { now: s.now, defaultCluster: s.clusters.length === 1 ? s.clusters[0].mgmtId : undefined };
    const kept = diagnoseAgainLater(objects, options);

    expect(plain(kept.report)).toEqual(plain(diagnose(objects, options)));
    for (const later of LATER) {
      const now = Date.parse(s.now) + later;

      expect(plain(kept.rejudge(now))).toEqual(plain(diagnose(objects, { ...options, now })));
    }
  });

  it('a threshold crossed between two judgings changes the report, as a fresh diagnosis says', () => {
    const s = everyFailure();
    const objects = s.clusters.flatMap((c) => clusterObjects(s, c.mgmtId, 'steve'));
    const options = { now: Date.parse(s.now) - 40 * 24 * HOUR, defaultCluster: s.clusters[0].mgmtId };
    const kept = diagnoseAgainLater(objects, options);
    const early = plain(kept.report);
    const later = kept.rejudge(s.now);

    expect(plain(later)).not.toEqual(early);
    expect(plain(later)).toEqual(plain(diagnose(objects, { ...options, now: s.now })));
  });

  it('host reports given, taken away and given again: the same as a fresh diagnosis each time', () => {
    for (const [s, docs] of [[ghostEtcd(), (sc: any) => [ghostHostReport(sc)]], [everyFailure(), everyFailureHostReports]] as const) {
      const reports = docs(s as any).map((d: unknown) => readHostReport(d));
      const objects = s.clusters.flatMap((c) => clusterObjects(s, c.mgmtId, 'steve'));
      const options = { now: s.now, defaultCluster: s.clusters[0].mgmtId };
      const kept = diagnoseAgainLater(objects, { ...options, hostReports: reports });

      expect(kept.report.hosts.some((h) => h.record)).toBe(true);
      expect(plain(kept.rejudge(s.now, []))).toEqual(plain(diagnose(objects, options)));
      expect(plain(kept.rejudge(s.now, reports))).toEqual(plain(diagnose(objects, { ...options, hostReports: reports })));
    }
  });
});
