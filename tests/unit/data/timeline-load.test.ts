/**
 * The timeline's reads when a row opens, against the embedded Rancher: the Events about the record's objects and
 * the provisioning jobs with their pods' logs; what the user may not read is a note, the rest stays; event
 * messages and log lines pass the redaction.
 */
import { get as httpGet } from 'http';
import { loadTimelineInputs, podLogUrl } from '@pkg/node-health/data';
import type { TimelineRequester } from '@pkg/node-health/data';
import { diagnose } from '@pkg/node-health/engine';
import type { NodeRecord } from '@pkg/node-health/engine';
import { startMockRancher } from '../../../mock-rancher/server';
import type { MockRancher } from '../../../mock-rancher/server';
import { buildScenario, DELETE_FAILED_MACHINE, MHC_BLOCKED_MACHINES } from '../../../scenarios/catalog';
import { clusterObjects } from '../engine/helpers';

let mock: MockRancher;

beforeAll(async() => {
  mock = await startMockRancher({ scenarios: ['infra-delete-failed', 'health-check-blocked'], logRequests: 'none' });
});

afterAll(() => mock.close());

function get(url: string): Promise<{ status: number; type: string; text: string }> {
  return new Promise((resolve, reject) => {
    httpGet(url, { headers: { 'x-mock-user': 'admin' } }, (res) => {
      let text = '';

      res.on('data', (chunk) => {
        text += chunk;
      });
      res.on('end', () => resolve({
        status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), text
      }));
    }).on('error', reject);
  });
}

/** management/request as the dashboard store answers it: JSON parsed, plain text as `{ data }`. */
function storeAgainst(url: string, refuse: (path: string) => number | null = () => null): TimelineRequester & { paths: string[] } {
  const paths: string[] = [];

  return {
    paths,
    async dispatch(_type: string, payload: any) {
      paths.push(payload.url);
      const status = refuse(payload.url);

      if (status) {
        throw Object.defineProperty({ message: 'forbidden' }, '_status', { value: status });
      }
      const res = await get(`${ url }${ payload.url }`);

      if (res.status >= 400) {
        throw Object.defineProperty({ message: res.text }, '_status', { value: res.status });
      }

      return res.type.includes('json') ? JSON.parse(res.text) : { data: res.text };
    },
  };
}

function record(scenario: string, machine: string): NodeRecord {
  const s = buildScenario(scenario);
  const objects = s.clusters.flatMap((c) => clusterObjects(s, c.mgmtId, 'steve'));

  return diagnose(JSON.parse(JSON.stringify(objects)), { now: s.now }).records.find((r) => r.machineName === machine) as NodeRecord;
}

describe('reading a record\'s Events and job logs', () => {
  it('reads the delete job of the server the provider refuses to delete, and its pod\'s log', async() => {
    const store = storeAgainst(mock.url);
    // The embedded Rancher runs Steve with its SQL cache, as Rancher does by default: the tab asks by filter.
    const loaded = await loadTimelineInputs(store, record('infra-delete-failed', DELETE_FAILED_MACHINE), 'filter');

    expect(loaded.notes).toEqual([]);
    expect(loaded.inputs.jobLogs).toHaveLength(1);
    expect(loaded.inputs.jobLogs?.[0]).toMatchObject({
      job: `${ DELETE_FAILED_MACHINE }-machine-provision`, remove: true, failedMessage: 'Job has reached the specified backoff limit'
    });
    expect(loaded.inputs.jobLogs?.[0].lines.slice(-1)[0]).toMatch(/Cannot complete login due to an incorrect user name or password/);
    expect(store.paths.some((p) => p.startsWith('/k8s/clusters/local/api/v1/namespaces/fleet-default/pods/') && p.includes('/log?container=machine&tailLines=200'))).toBe(true);
  });

  it('asks Steve\'s SQL cache by filter, not by label selector', async() => {
    const store = storeAgainst(mock.url);

    await loadTimelineInputs(store, record('infra-delete-failed', DELETE_FAILED_MACHINE), 'filter');
    const jobs = store.paths.find((p) => p.startsWith('/v1/batch.jobs/'));

    expect(jobs).toContain(`filter=${ encodeURIComponent(`metadata.labels[rke.cattle.io/infra-machine-name]=${ DELETE_FAILED_MACHINE }`) }`);
    expect(jobs).not.toContain('labelSelector');
  });

  it('reads the Events about the Machine (Rancher\'s cluster) and its Node (the downstream cluster)', async() => {
    const loaded = await loadTimelineInputs(storeAgainst(mock.url), record('health-check-blocked', MHC_BLOCKED_MACHINES[0]), 'filter');

    expect(loaded.inputs.events?.map((e) => e.reason).sort()).toEqual(['DetectedUnhealthy', 'NodeNotReady']);
  });

  it('a user who may not read Events or pod logs gets the rest, with a note for each', async() => {
    const store = storeAgainst(mock.url, (p) => (p.includes('/events') || p.startsWith('/v1/pods/') ? 403 : null));
    const loaded = await loadTimelineInputs(store, record('infra-delete-failed', DELETE_FAILED_MACHINE), 'filter');

    expect(loaded.notes.map((n) => n.key)).toEqual(['nodeHealth.timeline.note.eventsDenied', 'nodeHealth.timeline.note.logsDenied']);
    expect(loaded.inputs.jobLogs?.[0]).toMatchObject({ failedMessage: 'Job has reached the specified backoff limit', lines: [] });
  });

  it('redacts what looks like a credential in an Event\'s message and in a log line', async() => {
    const canary = 'token-abcde:x7b9kq2m4n8p6r5t3v1w0y9z8a7b6c5d4e3f2g1h0j9k8l7m6';
    const r = record('infra-delete-failed', DELETE_FAILED_MACHINE);
    const podLog = (url: string) => url.includes('/log?');
    const store: TimelineRequester = {
      async dispatch(_type: string, payload: any) {
        if (payload.url.includes('/events')) {
          return {
            data: [{
              metadata: { uid: 'e1' }, involvedObject: { kind: 'Machine', uid: r.objects.machine?.metadata.uid }, reason: 'X', message: `Authorization: Bearer ${ canary }`, lastTimestamp: '2026-04-14T10:00:00Z'
            }]
          };
        }
        if (podLog(payload.url)) {
          return { data: `curl -H "Authorization: Bearer ${ canary }" https://rancher.example.com\nline two` };
        }
        if (payload.url.startsWith('/v1/batch.jobs/')) {
          return { data: [{ metadata: { name: 'j', labels: {} }, status: { startTime: '2026-04-14T10:00:00Z' } }] };
        }

        return {
          data: [{
            metadata: {
              name: 'p', namespace: 'fleet-default', labels: { 'job-name': 'j' }
            }
          }]
        };
      },
    };
    const loaded = await loadTimelineInputs(store, r, 'selectors');

    expect(JSON.stringify(loaded)).not.toContain(canary);
    expect(loaded.inputs.jobLogs?.[0].lines[1]).toBe('line two');
  });

  it('builds the pod log URL with the driver\'s container and the last 200 lines', () => {
    expect(podLogUrl('fleet-default', 'a-machine-provision-x1')).toBe('/k8s/clusters/local/api/v1/namespaces/fleet-default/pods/a-machine-provision-x1/log?container=machine&tailLines=200');
  });
});
