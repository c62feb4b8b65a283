/**
 * A machine against its pool: how long it has been waiting for its Node, or took, against the median of the
 * pool's other machines; only a machine that never had its Node is provisioning.
 */
import { diagnose } from '@pkg/node-health/engine';
import type { NodeRecord } from '@pkg/node-health/engine';
import { poolSentence } from '@pkg/node-health/report/pool';
import { fleetRows } from '@pkg/node-health/fleet/diagnosis';
import { buildScenario, CREATE_FAILED_MACHINE, DELETE_FAILED_MACHINE } from '../../../scenarios/catalog';
import { clusterObjects, diagnoseScenario } from './helpers';

const MIN = 60 * 1000;

describe('a machine compared with its pool', () => {
  it('the replacement vCenter cannot create: provisioning for an hour where its pool took 4 min, an outlier', () => {
    const report = diagnoseScenario(buildScenario('infra-delete-failed'));
    const r = report.records.find((x) => x.machineName === CREATE_FAILED_MACHINE) as NodeRecord;

    expect(r.pool).toEqual({
      pool: 'wk', custom: false, provisioningMs: 60 * MIN, done: false, medianMs: 4 * MIN, peers: 2, outlier: true
    });
    expect(poolSentence(r.pool)).toEqual({
      key:  'nodeHealth.pool.waiting',
      args: {
        duration: 60 * MIN, median: 4 * MIN, peers: 2, pool: 'wk', where: 'pool'
      }
    });
  });

  it('a machine being deleted, or one whose Node went away later, is not provisioning', () => {
    const deleting = diagnoseScenario(buildScenario('infra-delete-failed')).records.find((x) => x.machineName === DELETE_FAILED_MACHINE) as NodeRecord;

    expect(deleting.pool?.done).toBe(true);
    const orphan = diagnoseScenario(buildScenario('orphan-node')).records.find((x) => x.machineName === 'custom-6a3d0f9e2b58') as NodeRecord;

    expect(orphan.pool).toBeUndefined();
  });

  it('custom hosts are compared with the cluster\'s machines of the same roles; a usual one says nothing', () => {
    const report = diagnoseScenario(buildScenario('healthy'));
    const worker = report.records.find((x) => x.roles.length === 1 && x.roles[0] === 'worker') as NodeRecord;

    expect(worker.pool).toMatchObject({
      pool: 'worker', custom: true, done: true, outlier: false
    });
    expect(poolSentence(worker.pool)).toBeNull();
  });

  it('too few peers: no median, never an outlier', () => {
    const s = buildScenario('reconciliation-paused');
    const report = diagnose(s.clusters.flatMap((c) => clusterObjects(s, c.mgmtId)), { now: s.now });
    const added = report.records.find((x) => x.pool && !x.pool.done) as NodeRecord;

    expect(added.pool).toMatchObject({ medianMs: null, outlier: false });
    expect(poolSentence(added.pool)?.key).toBe('nodeHealth.pool.waitingAlone');
  });

  it('on the fleet page, which reads no downstream Node, Rancher\'s copies of the Nodes tell the same: the replacement is marked slow for its pool', () => {
    const s = buildScenario('infra-delete-failed');
    const report = diagnose(s.objects, {
      now: s.now, availability: { mgmtNodes: 'ok' }, nodesLeftToTab: true
    });
    const rows = fleetRows(report);

    expect(report.records.find((x) => x.machineName === CREATE_FAILED_MACHINE)?.pool).toMatchObject({
      done: false, provisioningMs: 60 * MIN, outlier: true
    });
    expect(rows.filter((r) => r.slowForPool).map((r) => r.machine)).toEqual([CREATE_FAILED_MACHINE]);
  });
});
