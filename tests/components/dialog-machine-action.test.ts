/**
 * MachineActionDialog on the scenarios' real shapes (Steve objects with their links): Force Delete on the vCenter
 * whose login fails, Delete on a Windows worker whose VM vanished, Resume on a paused machine. Nothing is written
 * before the checks pass, what only the user can judge is confirmed and the machine's name is typed; the write
 * is guarded and leaves an audit Event; an object changed since the review is shown again, not written.
 */
import { enableAutoUnmount, flushPromises, mount } from '@vue/test-utils';
import MachineActionDialog from '@pkg/node-health/dialog/MachineActionDialog.vue';
import { diagnose } from '@pkg/node-health/engine';
import type { ActionId, NodeRecord } from '@pkg/node-health/engine';
import type { MachineActionRequest } from '@pkg/node-health/actions';
import { buildScenario, DELETE_FAILED_MACHINE } from '../../scenarios/catalog';
import { clusterObjects } from '../unit/engine/helpers';
import { dialogStore, missingExtensionKeys, translate } from './dialog-helpers';
import type { Answer } from './dialog-helpers';

enableAutoUnmount(afterEach);

afterAll(() => {
  expect(missingExtensionKeys()).toEqual([]);
});

beforeEach(() => sessionStorage.clear());

function steveRecords(scenario: string): { records: NodeRecord[]; now: number } {
  const s = buildScenario(scenario);
  const objects = JSON.parse(JSON.stringify(s.clusters.flatMap((c) => clusterObjects(s, c.mgmtId, 'steve'))));
  const report = diagnose(objects, { now: s.now, defaultCluster: s.clusters[0].mgmtId });

  return { records: report.records, now: Date.parse(s.now) };
}

function recordWith(scenario: string, action: ActionId): { record: NodeRecord; now: number } {
  const { records, now } = steveRecords(scenario);
  const record = records.find((r) => r.preflight?.some((p) => p.id === action));

  if (!record) {
    throw new Error(`no record of ${ scenario } offers ${ action }`);
  }

  return { record, now };
}

/** Reads answer with the object (or what `reads` gives in turn); writes with `write`. */
function server(object: unknown, write: Answer = () => ({}), reads: unknown[] = [object]): Answer {
  let n = 0;

  return (payload) => (payload.method === 'GET' ? reads[Math.min(n++, reads.length - 1)] : write(payload));
}

function open(action: ActionId, scenario: string, answer: (record: NodeRecord) => Answer) {
  const { record, now } = recordWith(scenario, action);
  const store = dialogStore(answer(record));
  const onDone = jest.fn();
  const request: MachineActionRequest = {
    action,
    record,
    context: {
      clusterId: 'c-m-test', user: 'jane', onDone, now: () => now
    }
  };
  const wrapper = mount(MachineActionDialog, { props: { resources: [request] }, global: { mocks: { $store: store, t: translate } } });

  return {
    wrapper, store, record, onDone
  };
}

type Opened = ReturnType<typeof open>;

const runButton = (w: Opened['wrapper']) => w.find('[data-testid="nh-run-async-button"]');
const writes = (store: Opened['store']) => store.requests().filter((r: any) => r.method !== 'GET');

async function typeName(o: Opened) {
  await o.wrapper.find('[data-testid="nh-confirm-input"]').setValue(o.record.machineName);
}

describe('MachineActionDialog: Force Delete where the provider refused the delete', () => {
  const forceDelete = (answer: (infra: any) => Answer = (infra) => server(infra)) => open('force-delete', 'infra-delete-failed', (r) => answer(r.objects.infraMachine));

  it('shows the object it writes, the checks, and asks the user to confirm the server is gone before anything is written', async() => {
    const o = forceDelete();

    expect(o.record.machineName).toBe(DELETE_FAILED_MACHINE);
    expect(o.wrapper.find('[data-testid="nh-target"]').text()).toBe(`VmwarevsphereMachine fleet-default/${ DELETE_FAILED_MACHINE }`);
    expect(o.wrapper.findAll('[data-testid^="nh-preflight-check-"]').map((li) => li.attributes('data-testid'))).toEqual([
      'nh-preflight-check-deleteFailed', 'nh-preflight-check-serverGone', 'nh-preflight-check-mayUpdate',
    ]);
    expect(o.wrapper.find('[data-testid="nh-risk"]').text()).toContain('nodeHealth.dialog.machineAction.force-delete.risk');
    // Until the user confirms it there is nothing to refuse, but no name to type and no write either.
    expect(o.wrapper.find('[data-testid="nh-refused"]').exists()).toBe(false);
    expect(o.wrapper.find('[data-testid="nh-confirm-input"]').exists()).toBe(false);
    expect(runButton(o.wrapper).attributes('disabled')).toBeDefined();

    await o.wrapper.find('[data-testid="nh-confirm-check-serverGone"] .checkbox-custom').trigger('click');
    await typeName(o);
    expect(runButton(o.wrapper).attributes('disabled')).toBeUndefined();
  });

  it('reads the infrastructure machine again, annotates it behind tests of its uid and resourceVersion, and leaves an Event', async() => {
    const o = forceDelete();
    const infra = o.record.objects.infraMachine as any;

    await o.wrapper.find('[data-testid="nh-confirm-check-serverGone"] .checkbox-custom').trigger('click');
    await typeName(o);
    await runButton(o.wrapper).trigger('click');
    await flushPromises();

    expect(o.store.requests()[0]).toMatchObject({ url: infra.links.self, method: 'GET' });
    const [patch, event] = writes(o.store);

    expect(patch).toMatchObject({
      url:    infra.links.view,
      method: 'PATCH',
      data:   [
        {
          op: 'test', path: '/metadata/uid', value: infra.metadata.uid
        },
        {
          op: 'test', path: '/metadata/resourceVersion', value: infra.metadata.resourceVersion
        },
        expect.objectContaining({ op: 'add' }),
      ],
    });
    expect(JSON.stringify(patch.data[2])).toContain('provisioning.cattle.io/force-machine-remove');
    expect(event).toMatchObject({
      url: '/k8s/clusters/local/api/v1/namespaces/fleet-default/events', method: 'POST', data: { reason: 'NodeHealthForceDelete', involvedObject: { uid: infra.metadata.uid } }
    });
    expect(o.onDone).toHaveBeenCalled();
    expect(o.wrapper.emitted('close')).toBeTruthy();
  });

  it('writes nothing when the object changed since the review, and shows it as it is now', async() => {
    const o = forceDelete((infra) => server(infra, () => ({}), [{ ...infra, metadata: { ...infra.metadata, resourceVersion: '999999' } }]));

    await o.wrapper.find('[data-testid="nh-confirm-check-serverGone"] .checkbox-custom').trigger('click');
    await typeName(o);
    await runButton(o.wrapper).trigger('click');
    await flushPromises();

    expect(writes(o.store)).toEqual([]);
    expect(o.wrapper.findAll('[data-testid="nh-review-change"]').map((li) => li.text()).join(' ')).toContain('nodeHealth.actions.change.resourceVersion');
    expect(o.wrapper.emitted('close')).toBeFalsy();
  });
});

describe('MachineActionDialog and the JSON report', () => {
  it('show the same checks with the same outcomes', async() => {
    const { toJsonReport } = await import('@pkg/node-health/report/render');
    const o = open('delete-machine', 'windows-node-ref', (r) => server(r.objects.machine));
    const json = toJsonReport({
      now: new Date(0).toISOString(), records: [o.record], clusters: []
    } as any, (key: string) => key);
    const reported = json.records[0].actions.find((a: any) => a.id === 'delete-machine')!.checks.map((c: any) => [c.id, c.ok === true ? 'passed' : c.ok === false ? 'failed' : 'unknown']);
    const shown = o.wrapper.findAll('[data-testid^="nh-preflight-check-"]').map((li) => [String(li.attributes('data-testid')).replace('nh-preflight-check-', ''), li.attributes('data-outcome')]);

    expect(shown).toEqual(reported);
  });
});

describe('MachineActionDialog: Delete, for a pool to replace the machine', () => {
  it('deletes the Windows worker whose VM vanished through the Kubernetes API, with its uid and resourceVersion as preconditions', async() => {
    const o = open('delete-machine', 'windows-node-ref', (r) => server(r.objects.machine));
    const m = o.record.objects.machine as any;

    expect(o.wrapper.findAll('[data-testid^="nh-preflight-check-"]').map((li) => String(li.attributes('data-testid')).replace('nh-preflight-check-', ''))).toEqual([
      'notDeleting', 'hostGone', 'replacement', 'lastOfRole', 'etcdQuorum', 'notPaused', 'noRemediation', 'agentConnected', 'mayDelete',
    ]);
    await typeName(o);
    await runButton(o.wrapper).trigger('click');
    await flushPromises();
    const [del, event] = writes(o.store);

    expect(del).toEqual({
      url:                  `/k8s/clusters/local/apis/cluster.x-k8s.io/v1beta1/namespaces/fleet-default/machines/${ m.metadata.name }`,
      method:               'DELETE',
      headers:              { 'content-type': 'application/json' },
      data:                 {
        apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { uid: m.metadata.uid, resourceVersion: m.metadata.resourceVersion }, propagationPolicy: 'Background'
      },
      redirectUnauthorized: false,
    });
    expect(event.data).toMatchObject({ reason: 'NodeHealthDeletedMachine', type: 'Normal' });
  });

  it('refuses with the failing check\'s words and offers no confirmation when a check fails', () => {
    const { record, now } = recordWith('windows-node-ref', 'delete-machine');
    const refused: NodeRecord = {
      ...record,
      preflight: record.preflight?.map((p) => (p.id !== 'delete-machine' ? p : {
        ...p,
        allowed: false,
        checks:  p.checks.map((c) => (c.id === 'lastOfRole' ? {
          ...c, ok: false, key: 'nodeHealth.preflight.lastOfRole.last', args: { role: 'etcd' }
        } : c))
      })),
    };
    const store = dialogStore(() => ({}));
    const wrapper = mount(MachineActionDialog, {
      props:  {
        resources: [{
          action:  'delete-machine',
          record:  refused,
          context: {
            clusterId: 'c', user: 'jane', onDone: jest.fn(), now: () => now
          }
        }]
      },
      global: { mocks: { $store: store, t: translate } },
    });

    expect(wrapper.find('[data-testid="nh-preflight-check-lastOfRole"]').text()).toContain('nodeHealth.preflight.lastOfRole.last');
    expect(wrapper.find('[data-testid="nh-refused"]').text()).toBe('%nodeHealth.preflight.refusedBy.failed% {"check":"%nodeHealth.preflight.lastOfRole.title%"}');
    expect(wrapper.find('[data-testid="nh-confirm-input"]').exists()).toBe(false);
    expect(wrapper.find('[data-testid="nh-run-async-button"]').attributes('disabled')).toBeDefined();
  });

  it('refuses while a safety check could not be judged, as the engine\'s preflight does, and writes nothing', async() => {
    const s = buildScenario('windows-node-ref');
    const objects = JSON.parse(JSON.stringify(s.clusters.flatMap((c) => clusterObjects(s, c.mgmtId, 'steve'))));
    const { record } = recordWith('windows-node-ref', 'delete-machine');
    const machine = objects.find((o: any) => o.kind === 'Machine' && o.metadata.name === record.machineName);

    // A machine no pool label names: what replaces it cannot be told.
    delete machine.metadata.labels['rke.cattle.io/rke-machine-pool-name'];
    delete machine.metadata.labels['cluster.x-k8s.io/deployment-name'];
    const unjudged = diagnose(objects, { now: s.now, defaultCluster: s.clusters[0].mgmtId }).records.find((r) => r.machineName === record.machineName)!;
    const preflight = unjudged.preflight?.find((p) => p.id === 'delete-machine');

    expect(preflight?.allowed).toBe(false);
    expect(preflight?.checks.find((c) => c.id === 'replacement')?.ok).toBeNull();
    const store = dialogStore(server(machine));
    const wrapper = mount(MachineActionDialog, {
      props:  {
        resources: [{
          action:  'delete-machine',
          record:  unjudged,
          context: {
            clusterId: 'c', user: 'jane', onDone: jest.fn(), now: () => Date.parse(s.now)
          }
        }]
      },
      global: { mocks: { $store: store, t: translate } },
    });

    expect(wrapper.find('[data-testid="nh-preflight-check-replacement"]').text()).toContain('nodeHealth.preflight.replacement.unknown');
    expect(wrapper.find('[data-testid="nh-refused"]').text()).toBe('%nodeHealth.preflight.refusedBy.unknown% {"check":"%nodeHealth.preflight.replacement.title%"}');
    expect(wrapper.find('[data-testid="nh-confirm-input"]').exists()).toBe(false);
    expect(wrapper.find('[data-testid="nh-run-async-button"]').attributes('disabled')).toBeDefined();
    await wrapper.find('[data-testid="nh-run-async-button"]').trigger('click');
    await flushPromises();
    expect(writes(store)).toEqual([]);
  });
});

describe('MachineActionDialog: Resume a paused machine', () => {
  it('removes cluster.x-k8s.io/paused behind a test of its value', async() => {
    const o = open('resume-machine', 'node-signals', (r) => server(r.objects.machine));

    await typeName(o);
    await runButton(o.wrapper).trigger('click');
    await flushPromises();
    const [patch] = writes(o.store);

    expect(patch.method).toBe('PATCH');
    expect(patch.data.slice(2)).toEqual([
      {
        op: 'test', path: '/metadata/annotations/cluster.x-k8s.io~1paused', value: (o.record.objects.machine as any).metadata.annotations['cluster.x-k8s.io/paused']
      },
      { op: 'remove', path: '/metadata/annotations/cluster.x-k8s.io~1paused' },
    ]);
  });

  it('logs a cancel as cancelled, and writes nothing', async() => {
    const o = open('resume-machine', 'node-signals', (r) => server(r.objects.machine));
    const { getActionLog } = await import('@pkg/node-health/actions');

    await o.wrapper.find('[data-testid="nh-close"]').trigger('click');
    expect(writes(o.store)).toEqual([]);
    expect(getActionLog('c-m-test')[0]).toMatchObject({ action: 'resume-machine', result: 'cancelled' });
  });
});
