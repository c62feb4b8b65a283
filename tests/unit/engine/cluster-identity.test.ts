/**
 * The clusters' identity given with the objects (DiagnoseOptions.clusters, from the views' targets) is what the
 * engine uses; read from the cluster objects only where none is given, it gives the same report.
 */
import { diagnose } from '@pkg/node-health/engine';
import type { ClusterIdentity, DiagnosisReport, KubeObject } from '@pkg/node-health/engine';
import {
  clusterIdentities, clusterInput, clusterTarget, diagnoseInput, diagnoseOptions
} from '@pkg/node-health/data';
import type { ClusterTarget, LoadResult } from '@pkg/node-health/data';
import { toJsonReport } from '@pkg/node-health/report/render';
import { SCENARIO_NAMES, buildScenario } from '../../../scenarios/catalog';
import { cliTranslator } from '../../../cli/l10n';

const t = cliTranslator('en-us');

function provisioningClusters(objects: KubeObject[]): KubeObject[] {
  return objects.filter((o) => o.kind === 'Cluster' && String(o.apiVersion).startsWith('provisioning.cattle.io/'));
}

/** Everything a report says, and which cluster each record belongs to. */
function said(report: DiagnosisReport) {
  return {
    json:     toJsonReport(report, t),
    clusters: report.clusters,
    records:  report.records.map((r) => [r.key, r.cluster?.name ?? null, r.cluster?.mgmtId ?? null, r.cluster?.kind ?? null, r.machineManaged]),
  };
}

describe.each(SCENARIO_NAMES)('scenario %s', (name) => {
  it('gives the same report with the targets\' identity as with the identity read from the cluster objects', () => {
    const s = buildScenario(name);
    const objects = [...s.objects, ...Object.values(s.downstream).flat()] as KubeObject[];
    const targets = provisioningClusters(objects).map((c) => clusterTarget(c)).filter((x): x is ClusterTarget => !!x);
    const defaultCluster = targets.length === 1 ? targets[0].mgmtId ?? undefined : undefined;

    expect(targets.length).toBeGreaterThan(0);
    const given = diagnose(objects, {
      now: s.now, defaultCluster, clusters: clusterIdentities(targets)
    });
    const read = diagnose(objects, { now: s.now, defaultCluster });

    expect(said(given)).toEqual(said(read));
  });
});

describe('the identity given', () => {
  const cluster: KubeObject = {
    apiVersion: 'provisioning.cattle.io/v1',
    kind:       'Cluster',
    metadata:   {
      name: 'east', namespace: 'fleet-default', uid: 'u-east', resourceVersion: '1', creationTimestamp: '2026-01-15T08:00:00Z'
    },
    spec:   { rkeConfig: {} },
    status: { clusterName: 'c-m-object' },
  };
  const node: KubeObject = {
    apiVersion: 'v1',
    kind:       'Node',
    metadata:   {
      name: 'n1', uid: 'u-n1', creationTimestamp: '2026-01-15T08:00:00Z'
    },
    status: {}
  };
  const now = '2026-01-15T09:00:00Z';

  it('is what the engine uses for the cluster object of its namespace and name', () => {
    const identity: ClusterIdentity = {
      name: 'east', namespace: 'fleet-default', mgmtId: 'c-m-given', machineManaged: false
    };
    const report = diagnose([cluster, node], {
      now, clusters: [identity], defaultCluster: 'c-m-given'
    });

    expect(report.clusters.map((c) => [c.name, c.namespace, c.mgmtId, c.kind])).toEqual([['east', 'fleet-default', 'c-m-given', 'imported']]);
    // The Node the objects do not place joins the given cluster, not a cluster made up for the id.
    expect(report.records.map((r) => [r.key, r.cluster])).toEqual([['node:c-m-given/n1', report.clusters[0]]]);
  });

  it('of another cluster changes nothing; without any, the object tells it', () => {
    const other: ClusterIdentity = {
      name: 'west', namespace: 'fleet-default', mgmtId: 'c-m-west', machineManaged: false
    };

    for (const clusters of [[other], undefined]) {
      const report = diagnose([cluster], { now, clusters });

      expect(report.clusters.map((c) => [c.name, c.mgmtId, c.kind])).toEqual([['east', 'c-m-object', 'provisioned']]);
    }
  });

  it('goes from the tab\'s target to the engine as it is', () => {
    const target = clusterTarget({ ...cluster, status: { clusterName: 'c-m-object' } }) as ClusterTarget;
    const load: LoadResult = {
      objects: [node], availability: {} as LoadResult['availability'], issues: [], requests: [], loadedAt: Date.parse(now)
    };
    const input = clusterInput({
      ...target, mgmtId: 'c-m-target', machineManaged: false
    }, load);

    expect(diagnoseOptions(input).clusters).toEqual([{
      name: 'east', namespace: 'fleet-default', mgmtId: 'c-m-target', machineManaged: false
    }]);
    expect(diagnoseInput(input).clusters.map((c) => [c.mgmtId, c.kind])).toEqual([['c-m-target', 'imported']]);
  });
});
