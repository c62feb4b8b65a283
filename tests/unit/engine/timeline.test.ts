/**
 * The timeline of a record: oldest first, each entry once, from the record's own objects (conditions, plan
 * times, creation and deletion) and from what is read when a row opens (Events, the provisioning jobs' logs).
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import { load } from 'js-yaml';
import { entryExplaining, eventsIndex, timelineOf } from '@pkg/node-health/engine';
import type { JobLog, KubeObject, NodeRecord } from '@pkg/node-health/engine';
import {
  buildScenario, DELETE_FAILED_MACHINE, GHOST_MACHINE, MHC_BLOCKED_MACHINES, SCENARIO_NAMES, VIABLE_INIT_MACHINE
} from '../../../scenarios/catalog';
import { diagnoseScenario } from './helpers';

function recordOf(scenario: string, machine: string): { record: NodeRecord; objects: KubeObject[]; downstream: KubeObject[]; logs: Record<string, string> } {
  const s = buildScenario(scenario);
  const record = diagnoseScenario(s).records.find((r) => r.machineName === machine);

  if (!record) {
    throw new Error(`no record ${ machine } in ${ scenario }`);
  }

  return {
    record, objects: s.objects, downstream: Object.values(s.downstream).flat(), logs: s.podLogs ?? {}
  };
}

/** The job logs as the loader builds them from the scenario's jobs, pods and pod logs. */
function jobLogsOf(objects: KubeObject[], logs: Record<string, string>, infraName: string): JobLog[] {
  return objects.filter((o) => o.kind === 'Job' && o.metadata.labels?.['rke.cattle.io/infra-machine-name'] === infraName).map((job: any) => {
    const pod = objects.find((o) => o.kind === 'Pod' && o.metadata.labels?.['job-name'] === job.metadata.name) as KubeObject;
    const failed = (job.status.conditions ?? []).find((c: any) => c.type === 'Failed');

    return {
      job:            job.metadata.name,
      remove:         job.metadata.labels['rke.cattle.io/infra-remove'] === 'true',
      startTime:      job.status.startTime,
      completionTime: job.status.completionTime ?? failed?.lastTransitionTime ?? null,
      failedMessage:  failed?.message ?? null,
      lines:          logs[`${ pod.metadata.namespace }/${ pod.metadata.name }`].split('\n'),
    };
  });
}

const sorted = (at: string[]) => at.every((t, i) => i === 0 || Date.parse(at[i - 1]) <= Date.parse(t));

describe('a record\'s timeline', () => {
  it.each(SCENARIO_NAMES.filter((n) => !/^(large|huge|fleet)/.test(n)))('on %s: every record\'s is oldest first with no entry twice', (name) => {
    const s = buildScenario(name);
    const events = [...s.objects, ...Object.values(s.downstream).flat()].filter((o) => o.kind === 'Event');
    const about = eventsIndex(events);

    for (const r of diagnoseScenario(s).records) {
      const entries = timelineOf(r, { events });
      const keys = entries.map((e) => JSON.stringify(e));

      expect(sorted(entries.map((e) => e.at))).toBe(true);
      expect(new Set(keys).size).toBe(keys.length);
      // The plan's apply time, each condition transition of each of its objects, and the Events about them.
      if (r.plan.lastApplyTime) {
        expect(entries.some((e) => e.key === 'nodeHealth.timeline.planApplied' && e.at === r.plan.lastApplyTime)).toBe(true);
      }
      for (const kind of ['machine', 'infraMachine', 'bootstrap', 'mgmtNode', 'node'] as const) {
        const obj = r.objects[kind] as any;
        const said = new Set(entries.filter((e) => e.source === 'condition').map((e) => `${ e.args.type }@${ e.at }`));

        for (const c of (obj?.status?.conditions ?? []).filter((x: any) => x.lastTransitionTime)) {
          expect(said).toContain(`${ c.type }@${ c.lastTransitionTime }`);
        }
      }
      expect(entries.filter((e) => e.source === 'event' || e.source === 'action')).toHaveLength(about(r).filter((e) => !!(e.lastTimestamp ?? e.eventTime)).length);
      // Each taint of its Node that says when it was added.
      const taints = ((r.objects.node as any)?.spec?.taints ?? []).filter((t: any) => t.timeAdded);

      expect(entries.filter((e) => e.source === 'taint').map((e) => e.at).sort()).toEqual(taints.map((t: any) => t.timeAdded).sort());
    }
  });

  it('a Node an admin marked out of service: the taint, with when it was added, explains the finding', () => {
    const { record } = recordOf('every-failure', 'custom-39b7e3f1ca09');
    const taint = (record.objects.node as any).spec.taints.find((t: any) => t.key === 'node.kubernetes.io/out-of-service');
    const entries = timelineOf(record);
    const entry = {
      at: taint.timeAdded, source: 'taint', key: 'nodeHealth.timeline.taintAdded', args: { taint: 'node.kubernetes.io/out-of-service=nodeshutdown:NoExecute' }
    };

    expect(entries).toContainEqual(expect.objectContaining(entry));
    expect(entryExplaining(record.findings.find((f) => f.rule === 'node-taint')!, entries)).toMatchObject(entry);
  });

  it('the ghost: created, its plan written and never applied, its conditions, its deletion', () => {
    const { record } = recordOf('ghost-etcd', GHOST_MACHINE);
    const entries = timelineOf(record);
    const keys = entries.map((e) => e.key);

    expect(keys[0]).toMatch(/^nodeHealth\.timeline\.created\./);
    expect(keys).toContain('nodeHealth.timeline.planWritten');
    expect(keys).not.toContain('nodeHealth.timeline.planApplied');
    expect(keys).toContain('nodeHealth.timeline.deleting');
    const conditionTypes = entries.filter((e) => e.source === 'condition').map((e) => e.args.type);
    const machineConditions = (record.objects.machine as any).status.conditions.filter((c: any) => c.lastTransitionTime).map((c: any) => c.type);

    for (const type of machineConditions) {
      expect(conditionTypes).toContain(type);
    }
  });

  it('names Rancher\'s node of a record as the tab\'s chain of objects does, with its namespace and name', () => {
    const { record } = recordOf('ghost-etcd', 'custom-3524fa7f0d71');
    const mgmtNode = record.objects.mgmtNode as any;
    const chainName = (load(readFileSync(join(__dirname, '../../../pkg/node-health/l10n/en-us.yaml'), 'utf8')) as any).nodeHealth.chain.kind.mgmtNode;
    const created = timelineOf(record).find((e) => e.key === 'nodeHealth.timeline.created.mgmtNode');

    expect(chainName).toBe('Rancher node');
    expect(created?.object).toBe(`${ chainName } ${ mgmtNode.metadata.namespace }/${ mgmtNode.metadata.name }`);
  });

  it('a healthy custom node: the plan\'s last apply time is on it', () => {
    const s = buildScenario('healthy');
    const r = diagnoseScenario(s).records[0];

    expect(r.plan.lastApplyTime).toBeTruthy();
    expect(timelineOf(r).find((e) => e.key === 'nodeHealth.timeline.planApplied')?.at).toBe(r.plan.lastApplyTime);
  });

  it('the server the provider refuses to delete: the delete job failed, with its log\'s last lines', () => {
    const { record, objects, logs } = recordOf('infra-delete-failed', DELETE_FAILED_MACHINE);
    const jobLogs = jobLogsOf(objects, logs, DELETE_FAILED_MACHINE);
    const entries = timelineOf(record, { jobLogs });
    const job = entries.find((e) => e.source === 'log');

    expect(job).toMatchObject({
      key: 'nodeHealth.timeline.jobFailed', object: `VmwarevsphereMachine fleet-default/${ DELETE_FAILED_MACHINE }`, args: { kind: 'delete', message: 'Job has reached the specified backoff limit' }
    });
    expect(job?.lines?.[job.lines.length - 1]).toBe(`Error removing host "${ DELETE_FAILED_MACHINE }": ServerFaultCode: Cannot complete login due to an incorrect user name or password.`);
    // The job gave up after the infrastructure machine's deletion was asked for.
    expect(entries.findIndex((e) => e.key === 'nodeHealth.timeline.deleting')).toBeLessThan(entries.indexOf(job!));
  });

  it('a create job that still runs: said to run, from its start, with the driver\'s last words (rancher-docs#585)', () => {
    const { record, objects, logs } = recordOf('viable-init-node', VIABLE_INIT_MACHINE);
    const entries = timelineOf(record, { jobLogs: jobLogsOf(objects, logs, VIABLE_INIT_MACHINE) });
    const job = entries.find((e) => e.source === 'log');

    expect(job).toMatchObject({
      key: 'nodeHealth.timeline.jobRunning', at: '2023-04-28T18:26:00Z', args: { kind: 'create', job: `${ VIABLE_INIT_MACHINE }-machine-provision` }
    });
    expect(job?.lines?.[job.lines.length - 1]).toBe(`(${ VIABLE_INIT_MACHINE }) Waiting for VMware Tools to come online...`);
  });

  it('a health check that found the node unhealthy: its Events on the Machine and the node controller\'s on the Node, with their counts', () => {
    const machine = MHC_BLOCKED_MACHINES[0];
    const { record, objects, downstream } = recordOf('health-check-blocked', machine);
    const events = [...objects, ...downstream].filter((o) => o.kind === 'Event');
    const entries = timelineOf(record, { events });
    const found = entries.filter((e) => e.source === 'event');

    expect(found.map((e) => e.args.reason).sort()).toEqual(['DetectedUnhealthy', 'NodeNotReady']);
    expect(found.find((e) => e.args.reason === 'DetectedUnhealthy')?.args).toMatchObject({ count: 29, message: `Machine fleet-default/${ machine } has unhealthy Node ${ record.nodeName }` });
    // Another machine's Events stay on its own timeline.
    expect(timelineOf(recordOf('health-check-blocked', MHC_BLOCKED_MACHINES[1]).record, { events }).filter((e) => e.source === 'event')).toHaveLength(2);
  });

  it('reads events.k8s.io/v1 Events too, and the kubelet\'s, which carry the Node\'s name as its uid; the tab\'s own writes are actions', () => {
    const { record } = recordOf('health-check-blocked', MHC_BLOCKED_MACHINES[0]);
    const node = record.objects.node as KubeObject;
    const machine = record.objects.machine as KubeObject;
    const entries = timelineOf(record, {
      events: [
        {
          apiVersion: 'events.k8s.io/v1',
          kind:       'Event',
          metadata:   { name: 'a', namespace: 'default' },
          regarding:  {
            kind: 'Node', name: node.metadata.name, uid: node.metadata.uid
          },
          reason:    'Rebooted',
          note:      'Node rebooted, boot id: 1',
          eventTime: '2026-07-02T13:00:00.000000Z',
          series:    { count: 3, lastObservedTime: '2026-07-02T13:10:00.000000Z' }
        },
        {
          apiVersion:     'v1',
          kind:           'Event',
          metadata:       { name: 'b', namespace: 'default' },
          involvedObject: {
            kind: 'Node', name: node.metadata.name, uid: node.metadata.name
          },
          reason:         'Starting',
          message:        'Starting kubelet.',
          firstTimestamp: '2026-07-02T12:00:00Z',
          lastTimestamp:  '2026-07-02T12:00:00Z',
          count:          1
        },
        {
          apiVersion:     'v1',
          kind:           'Event',
          metadata:       { name: 'c', namespace: 'fleet-default' },
          involvedObject: {
            kind: 'Machine', name: machine.metadata.name, uid: machine.metadata.uid
          },
          reason:         'NodeHealthDeletedMachine',
          message:        'admin deleted the machine from Node Health',
          type:           'Normal',
          firstTimestamp: '2026-07-02T14:00:00Z',
          lastTimestamp:  '2026-07-02T14:00:00Z',
          count:          1
        },
        {
          apiVersion:     'v1',
          kind:           'Event',
          metadata:       { name: 'd', namespace: 'fleet-default' },
          involvedObject: {
            kind: 'Machine', name: machine.metadata.name, uid: 'another-uid'
          },
          reason:        'Other',
          message:       'a former machine under the same name',
          lastTimestamp: '2026-07-02T14:00:00Z'
        },
      ],
    });
    const rebooted = entries.find((e) => e.args.reason === 'Rebooted');

    expect(rebooted).toMatchObject({ at: '2026-07-02T13:10:00.000000Z', args: { message: 'Node rebooted, boot id: 1', count: 3 } });
    expect(entries.find((e) => e.args.reason === 'Starting')?.source).toBe('event');
    expect(entries.find((e) => e.args.reason === 'NodeHealthDeletedMachine')?.source).toBe('action');
    expect(entries.some((e) => e.args.reason === 'Other')).toBe(false);
  });

  describe('the entry a finding started with', () => {
    it('the ghost: stuck deleting since its deletion was asked for; its agent never checked in since Rancher wrote its plan', () => {
      const { record } = recordOf('ghost-etcd', GHOST_MACHINE);
      const entries = timelineOf(record);
      const of = (rule: string) => entryExplaining(record.findings.find((f) => f.rule === rule)!, entries);

      expect(of('stuck-deleting')).toMatchObject({ key: 'nodeHealth.timeline.deleting', object: `Machine fleet-default/${ GHOST_MACHINE }` });
      // The plan and the Machine's Reconciled condition moved at the same moment: the plan tells why.
      expect(of('agent-never-checked-in')).toMatchObject({ key: 'nodeHealth.timeline.planWritten', source: 'plan' });
    });

    it('an Event at the moment the Node went NotReady explains it before the condition does', () => {
      const { record, objects, downstream } = recordOf('health-check-blocked', MHC_BLOCKED_MACHINES[0]);
      const finding = record.findings.find((f) => f.rule === 'node-not-ready')!;
      const events = [...objects, ...downstream].filter((o) => o.kind === 'Event');

      expect(entryExplaining(finding, timelineOf(record, { events }))).toMatchObject({ source: 'event', args: { reason: 'NodeNotReady' } });
      expect(entryExplaining(finding, timelineOf(record))).toMatchObject({ source: 'condition', args: { type: 'Ready', status: 'Unknown' } });
    });

    it('a Node registers with all its conditions at once: its creation explains a finding dated then, not a condition the finding does not read', () => {
      const s = buildScenario('ghost-etcd');
      const orphan = diagnoseScenario(s).records.find((r) => r.findings.some((f) => f.rule === 'orphan-node'))!;
      const finding = orphan.findings.find((f) => f.rule === 'orphan-node')!;

      expect(entryExplaining(finding, timelineOf(orphan))).toMatchObject({ key: 'nodeHealth.timeline.created.node' });
    });

    it('only entries at or before the since, on an object the evidence names; none without a since', () => {
      const { record } = recordOf('ghost-etcd', GHOST_MACHINE);
      const finding = record.findings.find((f) => f.rule === 'stuck-deleting')!;
      const at = (iso: string, object: string) => ({
        at: iso, source: 'event' as const, object, key: 'nodeHealth.timeline.event', args: { reason: iso }
      });
      const machine = `Machine fleet-default/${ GHOST_MACHINE }`;
      const entries = [at('2026-01-13T08:09:00Z', machine), at('2026-01-13T08:10:00.400Z', 'Node elsewhere'), at('2026-01-13T08:10:01Z', machine)];

      expect(entryExplaining(finding, entries)?.args.reason).toBe('2026-01-13T08:09:00Z');
      expect(entryExplaining({ ...finding, since: null }, entries)).toBeNull();
      expect(entryExplaining(finding, [entries[1], entries[2]])).toBeNull();
    });
  });
});
