/**
 * A server the provider refuses to delete (rancher#40812, #40608, #41635): the tab names the provider's error, leads
 * to Rancher's Force Delete once the server is gone, and never offers the finalizer removal that would orphan it.
 */
import { diagnose } from '@pkg/node-health/engine';
import type { NodeRecord } from '@pkg/node-health/engine';
import { finalizerRemovalEligibility } from '@pkg/node-health/actions';
import { buildScenario, CREATE_FAILED_MACHINE, DELETE_FAILED_MACHINE } from '../../../scenarios/catalog';
import { clusterObjects, findingsByName } from './helpers';

const s = buildScenario('infra-delete-failed');
const fresh = () => JSON.parse(JSON.stringify(clusterObjects(s, s.clusters[0].mgmtId))) as any[];
const infraOf = (objects: any[]) => objects.find((o) => o.kind === 'VmwarevsphereMachine' && o.metadata.name === DELETE_FAILED_MACHINE);
const machineOf = (objects: any[]) => objects.find((o) => o.kind === 'Machine' && o.metadata.name === DELETE_FAILED_MACHINE);
const recordOf = (objects: any[], options = {}) => diagnose(objects, { now: s.now, ...options }).records.find((r) => r.machineName === DELETE_FAILED_MACHINE) as NodeRecord;

describe('a cloud credential the provider refuses', () => {
  const createInfraOf = (objects: any[]) => objects.find((o) => o.kind === 'VmwarevsphereMachine' && o.metadata.name === CREATE_FAILED_MACHINE);
  const createFailed = (objects: any[]) => diagnose(objects, { now: s.now }).records.find((r) => r.machineName === CREATE_FAILED_MACHINE)!
    .findings.find((f) => f.rule === 'infrastructure-create-failed')!;
  /** The create job's output ending with `said`, everywhere Rancher writes it. */
  const saying = (said: string) => {
    const objects = fresh();
    const infra = createInfraOf(objects);
    const output = `Running pre-create checks...\n${ said }`;

    infra.status.failureMessage = output;
    for (const c of infra.status.conditions) {
      c.message = c.message.replace(/CreateError: [\s\S]*$/, `CreateError: ${ output }`);
    }

    return objects;
  };

  it('is said for the Harvester driver\'s expired token (rancher#44912), with the step to renew the credential', () => {
    const f = createFailed(saying('Error with pre-create check: "the server has asked for the client to provide credentials (get settings.harvesterhci.io server-version)"'));

    expect(f.args.refused).toBe('yes');
    expect(f.fix.map((x) => x.key)).toContain('nodeHealth.fix.cloudCredentialRefused');
    expect(f.fix.map((x) => x.key)).not.toContain('nodeHealth.rules.infrastructureCreateFailed.fix.fixCause');
  });

  it('is not said for another error of the provider, whose cause is to be fixed', () => {
    const f = createFailed(saying('Error with pre-create check: "InstanceLimitExceeded: You have requested more instances (21) than your current instance limit of 20 allows"'));

    expect(f.args.refused).toBe('no');
    expect(f.fix.map((x) => x.key)).toContain('nodeHealth.rules.infrastructureCreateFailed.fix.fixCause');
    expect(f.fix.map((x) => x.key)).not.toContain('nodeHealth.fix.cloudCredentialRefused');
  });
});

describe('infrastructure-delete-failed', () => {
  it('names the provider\'s error and is the only finding of the machine; the other machines stay healthy', () => {
    const report = diagnose(fresh(), { now: s.now });
    const byName = findingsByName(report);

    expect(byName.get(DELETE_FAILED_MACHINE)).toStrictEqual(['infrastructure-delete-failed']);
    expect([...byName.entries()].filter(([name, rules]) => ![DELETE_FAILED_MACHINE, CREATE_FAILED_MACHINE].includes(name) && rules.length > 0)).toStrictEqual([]);
    const f = recordOf(fresh()).findings[0];

    expect(f.args).toMatchObject({
      kind: 'VmwarevsphereMachine', server: DELETE_FAILED_MACHINE, forced: 'no', message: `Error removing host "${ DELETE_FAILED_MACHINE }": ServerFaultCode: Cannot complete login due to an incorrect user name or password`
    });
    expect(f.evidence.map((e) => e.path)).toEqual(expect.arrayContaining(['status.failureReason', 'status.conditions[DeleteJob].message', 'metadata.deletionTimestamp']));
    // Quoted in parentheses within the cause, the line loses its own full stop; the evidence keeps the output as written.
    expect(f.evidence.find((e) => e.path === 'status.failureMessage')?.value).toMatch(/incorrect user name or password\.$/);
  });

  it('leads to the provider first and Rancher\'s Force Delete last, never to the finalizers', () => {
    const f = recordOf(fresh()).findings[0];

    // vCenter refused the login: the step is to renew the pool's cloud credential, which the VM's machine names.
    expect(f.fix.map((x) => x.key.split('.').pop())).toStrictEqual(['providerSays', 'cloudCredentialRefused', 'serverGone', 'forceDelete', 'noFinalizers']);
    expect(f.args.refused).toBe('yes');
    expect(f.fix[1].args).toStrictEqual({ credential: infraOf(fresh()).status.cloudCredentialSecretName, job: 'delete' });
    expect(f.fix[0].command).toBe(`kubectl -n fleet-default logs --tail=50 -- job/${ DELETE_FAILED_MACHINE }-machine-provision`);
    expect(f.fix[3].command).toBe(`kubectl -n fleet-default annotate vmwarevspheremachines.rke-machine.cattle.io -- ${ DELETE_FAILED_MACHINE } provisioning.cattle.io/force-machine-remove=true`);
    // Rancher's own Force Delete, checked before it writes; never the finalizer removal.
    expect(f.actions).toStrictEqual(['force-delete']);
    expect(JSON.stringify(f.fix)).not.toContain('finalizers"}]');
  });

  it('keeps the finalizer removal from the dialog too, with the reason, whatever the findings offered', () => {
    const record = recordOf(fresh());

    expect(finalizerRemovalEligibility(record)).toMatchObject({ offered: false, reason: { key: 'nodeHealth.actions.reason.infrastructureDeleteFailed' } });
    // Findings made before the delete failed offered it: the preflight refuses on what the record shows now.
    const stale = { ...record, findings: [{ ...record.findings[0], actions: ['remove-finalizers'] }] } as NodeRecord;

    expect(finalizerRemovalEligibility(stale).offered).toBe(false);
  });

  it('is read from the Machine when the infrastructure machine cannot be read (InfrastructureReady reason DeleteError)', () => {
    const objects = fresh().filter((o) => o.kind !== 'VmwarevsphereMachine');
    const record = recordOf(objects, { availability: { infraMachines: 'forbidden' } });

    expect(record.findings.map((f) => f.rule)).toContain('infrastructure-delete-failed');
    expect(record.findings.map((f) => f.rule)).not.toContain('stuck-deleting');
  });

  it('says when Force Delete was already asked for', () => {
    const objects = fresh();

    const infra = infraOf(objects);

    infra.metadata.annotations = { ...(infra.metadata.annotations ?? {}), 'provisioning.cattle.io/force-machine-remove': 'true' };
    expect(recordOf(objects).findings[0].args.forced).toBe('yes');
  });

  it('near miss: while the delete job still runs, the machine is only stuck deleting, with the finalizer removal as last resort', () => {
    const objects = fresh();
    const infra = infraOf(objects);

    delete infra.status.failureReason;
    delete infra.status.failureMessage;
    infra.status.conditions = infra.status.conditions.map((c: any) => (c.type === 'DeleteJob' ? {
      type: 'DeleteJob', status: 'Unknown', message: 'creating machine deletion job'
    } : c.type === 'Ready' ? {
      type: 'Ready', status: 'False', message: `deleting server [fleet-default/${ DELETE_FAILED_MACHINE }] of kind (VmwarevsphereMachine) for machine ${ DELETE_FAILED_MACHINE } in infrastructure provider`
    } : c));
    machineOf(objects).status.conditions = machineOf(objects).status.conditions.map((c: any) => (c.type === 'InfrastructureReady' ? {
      ...c, reason: 'Deleting', message: 'deleting'
    } : c));
    const record = recordOf(objects);

    expect(record.findings.map((f) => f.rule)).toStrictEqual(['stuck-deleting']);
    expect(record.findings[0].actions).toContain('remove-finalizers');
  });
});

describe('infrastructure-create-failed', () => {
  it('names the provider\'s refusal on the machine that could not be created, and not "agent never checked in"', () => {
    const created = diagnose(fresh(), { now: s.now }).records.find((r) => r.machineName === CREATE_FAILED_MACHINE)!;
    const f = created.findings.find((x) => x.rule === 'infrastructure-create-failed')!;

    expect(f.args).toMatchObject({ kind: 'VmwarevsphereMachine', message: 'Error with pre-create check: "ServerFaultCode: Cannot complete login due to an incorrect user name or password."' });
    expect(created.findings.map((x) => x.rule)).not.toContain('agent-never-checked-in');
    expect(f.fix.map((x) => x.key.split('.').pop())).toStrictEqual(['providerSays', 'cloudCredentialRefused', 'halfCreated', 'replace']);
    expect(f.fix[3].command).toContain(CREATE_FAILED_MACHINE);
    // Its Node never came because its server never did: the wait points to the provider's refusal, not to the cluster or the host.
    const wait = created.findings.find((x) => x.rule === 'waiting-for-node-ref')!;

    expect(wait.args).toMatchObject({ family: 'infrastructurePending' });
    expect(String(wait.args.said)).toMatch(/^failed creating server \[fleet-default\//);
    expect(wait.fix.map((x) => x.key.split('.').pop())).toStrictEqual(['seeInfrastructure']);
  });

  it('is read from the Machine alone as Cluster API v1beta1 copies it (failureReason CreateError)', () => {
    const objects = fresh().filter((o) => !(o.kind === 'VmwarevsphereMachine' && o.metadata.name === CREATE_FAILED_MACHINE));
    const m = objects.find((o) => o.kind === 'Machine' && o.metadata.name === CREATE_FAILED_MACHINE);

    m.status.conditions = m.status.conditions.filter((c: any) => c.type !== 'InfrastructureReady');
    m.status.failureReason = 'CreateError';
    // rancher#34945, as the Machine showed it.
    m.status.failureMessage = 'Failure detected from referenced resource rke-machine.cattle.io/v1, Kind=VmwarevsphereMachine with name "x": Error with pre-create check: "ServerFaultCode: Cannot complete login due to an incorrect user name or password."';
    const record = diagnose(objects, { now: s.now, availability: { infraMachines: 'forbidden' } }).records.find((r) => r.machineName === CREATE_FAILED_MACHINE)!;

    expect(record.findings.map((x) => x.rule)).toContain('infrastructure-create-failed');
  });
});
