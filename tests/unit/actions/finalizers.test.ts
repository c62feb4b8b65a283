import { actionOffers } from '@pkg/node-health/data';
import {
  buildEtcdForceRemovePatch, buildFinalizerRemovalPatch, canUpdate, escapeJsonPointer, etcdForceRemoveEligibility,
  finalizerPurpose, finalizerRemovalEligibility, isReplacement, objectChanges, objectUrls, recheckEtcdRelease, recheckFinalizerRemoval,
  stuckFacts
} from '@pkg/node-health/actions';
import {
  MACHINE, NOW_MS, NS, steveBootstrap, steveMachine, stuckRecord
} from './fixtures';

describe('buildFinalizerRemovalPatch', () => {
  it('tests the uid, the deletion time, the resourceVersion and the exact finalizer list before removing them', () => {
    const machine = steveMachine({ resourceVersion: '4711', finalizers: ['machine.cluster.x-k8s.io', 'example.com/keep'] });

    expect(JSON.stringify(buildFinalizerRemovalPatch(machine))).toBe(JSON.stringify([
      {
        op: 'test', path: '/metadata/uid', value: '5f0e8a52-1111-4c4c-9d9d-000000000001'
      },
      {
        op: 'test', path: '/metadata/deletionTimestamp', value: '2024-05-02T10:00:00Z'
      },
      {
        op: 'test', path: '/metadata/resourceVersion', value: '4711'
      },
      {
        op: 'test', path: '/metadata/finalizers', value: ['machine.cluster.x-k8s.io', 'example.com/keep']
      },
      { op: 'remove', path: '/metadata/finalizers' },
    ]));
  });

  it('copies the finalizer list, so a later change to the object does not change the guard', () => {
    const machine = steveMachine();
    const patch = buildFinalizerRemovalPatch(machine);

    machine.metadata.finalizers.push('late.example.com');
    expect(patch[3]).toEqual({
      op: 'test', path: '/metadata/finalizers', value: ['machine.cluster.x-k8s.io']
    });
  });

  it('refuses to build an unguarded patch', () => {
    const noVersion = steveMachine();

    delete noVersion.metadata.resourceVersion;
    expect(() => buildFinalizerRemovalPatch(noVersion)).toThrow(/resourceVersion/);
    expect(() => buildFinalizerRemovalPatch(steveMachine({ finalizers: [] }))).toThrow(/no finalizers/);
    const noUid = steveMachine();

    delete noUid.metadata.uid;
    expect(() => buildFinalizerRemovalPatch(noUid)).toThrow(/uid/);
    // A Machine that is not being deleted is never the target of the removal.
    expect(() => buildFinalizerRemovalPatch(steveMachine({ deletingSince: null }))).toThrow(/not being deleted/);
  });
});

describe('buildEtcdForceRemovePatch', () => {
  it('adds the annotation to an existing map, escaping the slash in its key', () => {
    expect(JSON.stringify(buildEtcdForceRemovePatch(steveBootstrap()))).toBe(JSON.stringify([
      {
        op: 'test', path: '/metadata/resourceVersion', value: '815'
      },
      {
        op: 'add', path: '/metadata/annotations/rke.cattle.io~1etcd-force-remove', value: 'true'
      },
    ]));
  });

  it('adds the whole annotations map when the object has none', () => {
    expect(JSON.stringify(buildEtcdForceRemovePatch(steveBootstrap({ bootstrapAnnotations: null })))).toBe(JSON.stringify([
      {
        op: 'test', path: '/metadata/resourceVersion', value: '815'
      },
      {
        op: 'add', path: '/metadata/annotations', value: { 'rke.cattle.io/etcd-force-remove': 'true' }
      },
    ]));
  });

  it('refuses without a resourceVersion', () => {
    const bootstrap = steveBootstrap();

    delete bootstrap.metadata.resourceVersion;
    expect(() => buildEtcdForceRemovePatch(bootstrap)).toThrow(/resourceVersion/);
  });
});

describe('escapeJsonPointer', () => {
  it('escapes ~ before / as RFC 6901 requires', () => {
    expect(escapeJsonPointer('a/b~c')).toBe('a~1b~0c');
    expect(escapeJsonPointer('~1')).toBe('~01');
  });
});

describe('canUpdate', () => {
  it('follows Steve\'s links.update', () => {
    expect(canUpdate(steveMachine({ canUpdateMachine: true }))).toBe(true);
    expect(canUpdate(steveMachine({ canUpdateMachine: false }))).toBe(false);
    expect(canUpdate({ links: { update: '' } })).toBe(false);
    expect(canUpdate(null)).toBe(false);
  });

  it('reads "blocked", as Rancher\'s management objects carry it, as not allowed', () => {
    expect(canUpdate({ links: { update: 'blocked' } })).toBe(false);
  });
});

describe('a "blocked" update link, wherever may-I-update is asked', () => {
  const blocked = (obj: Record<string, any> | undefined) => ({ ...obj, links: { ...obj?.links, update: 'blocked' } });

  it('refuses the finalizer cleanup, the etcd release and the row detail\'s offer', () => {
    const record = stuckRecord({ etcd: true });
    const objects = {
      ...record.objects, machine: blocked(record.objects.machine), bootstrap: blocked(record.objects.bootstrap)
    };
    const withBlocked = { ...record, objects };

    expect(finalizerRemovalEligibility(withBlocked).reason?.key).toBe('nodeHealth.actions.reason.noUpdatePermission');
    expect(etcdForceRemoveEligibility(withBlocked).reason?.key).toBe('nodeHealth.actions.reason.noUpdatePermission');
    const finding = record.findings.find((f) => f.actions.includes('remove-finalizers'));

    expect(finding).toBeDefined();
    expect(actionOffers(finding!, withBlocked).filter((o) => o.id !== 're-register').map((o) => [o.id, o.allowed])).toEqual(
      finding!.actions.filter((id) => id !== 're-register').map((id) => [id, false])
    );
  });
});

describe('finalizerRemovalEligibility', () => {
  it('is offered and allowed on a machine stuck deleting, for a user who may update it', () => {
    expect(finalizerRemovalEligibility(stuckRecord())).toEqual({
      offered: true, allowed: true, reason: null
    });
  });

  it('is not offered before the stuck threshold, nor on a machine that is not deleting', () => {
    const recent = finalizerRemovalEligibility(stuckRecord({ deletingSince: '2024-05-02T11:55:00Z' }));
    const running = finalizerRemovalEligibility(stuckRecord({ deletingSince: null }));

    expect(recent).toEqual({
      offered: false, allowed: false, reason: { key: 'nodeHealth.actions.reason.notStuck' }
    });
    expect(running.offered).toBe(false);
  });

  it('is not offered once the Machine read again is no longer being deleted, whatever the findings said', () => {
    const record = stuckRecord();
    const original = record.objects.machine ?? {};
    const { deletionTimestamp, ...metadata } = original.metadata;
    const recreated = {
      ...original,
      metadata: {
        ...metadata, uid: 'another-uid', resourceVersion: '9001'
      }
    };

    expect(deletionTimestamp).toBeDefined();
    expect(finalizerRemovalEligibility({ ...record, objects: { ...record.objects, machine: recreated } })).toEqual({
      offered: false, allowed: false, reason: { key: 'nodeHealth.actions.reason.notDeleting' }
    });
  });

  it('is offered but refused, with the reason, to a user without update permission', () => {
    expect(finalizerRemovalEligibility(stuckRecord({ canUpdateMachine: false }))).toEqual({
      offered: true,
      allowed: false,
      reason:  { key: 'nodeHealth.actions.reason.noUpdatePermission', args: { object: `Machine ${ NS }/${ MACHINE }` } },
    });
  });

  it('is refused when the object in hand has lost its finalizers or resourceVersion', () => {
    const record = stuckRecord();
    const original = record.objects.machine ?? {};
    const machine = { ...original, metadata: { ...original.metadata, finalizers: [] } };

    expect(finalizerRemovalEligibility({ ...record, objects: { ...record.objects, machine } }).reason?.key).toBe('nodeHealth.actions.reason.noFinalizers');
    const noVersion = { ...original, metadata: { ...original.metadata, resourceVersion: undefined } };

    expect(finalizerRemovalEligibility({ ...record, objects: { ...record.objects, machine: noVersion } }).reason?.key).toBe('nodeHealth.actions.reason.noResourceVersion');
  });
});

describe('etcdForceRemoveEligibility', () => {
  it('is offered for an etcd machine held by the cleanup hook, with its RKEBootstrap', () => {
    expect(etcdForceRemoveEligibility(stuckRecord({ etcd: true }))).toEqual({
      offered: true, allowed: true, reason: null
    });
  });

  it('is not offered for a machine without the hook, nor without the RKEBootstrap', () => {
    expect(etcdForceRemoveEligibility(stuckRecord()).offered).toBe(false);
    expect(etcdForceRemoveEligibility(stuckRecord({ etcd: true, withBootstrap: false })).offered).toBe(false);
  });

  it('says so when the release is already there or the user may not update the RKEBootstrap', () => {
    const released = stuckRecord({ etcd: true, bootstrapAnnotations: { 'rke.cattle.io/etcd-force-remove': 'true' } });

    expect(etcdForceRemoveEligibility(released)).toEqual({
      offered: true, allowed: false, reason: { key: 'nodeHealth.actions.reason.etcdAlreadyReleased', args: { object: `RKEBootstrap ${ NS }/${ MACHINE }` } }
    });
    expect(etcdForceRemoveEligibility(stuckRecord({ etcd: true, canUpdateBootstrap: false })).reason?.key).toBe('nodeHealth.actions.reason.noUpdatePermission');
  });

  it('is not offered once the Machine, read again, is no longer being deleted', () => {
    const record = stuckRecord({ etcd: true });

    record.objects.machine = steveMachine({ etcd: true, deletingSince: null });
    expect(etcdForceRemoveEligibility(record)).toEqual({
      offered: false, allowed: false, reason: { key: 'nodeHealth.actions.reason.notDeleting' }
    });
  });
});

describe('recheckFinalizerRemoval', () => {
  const reviewed = steveMachine();

  it('lets the write through when only the resourceVersion moved on', () => {
    expect(recheckFinalizerRemoval(stuckRecord(), reviewed, steveMachine({ resourceVersion: '4800' }))).toEqual({ verdict: 'unchanged' });
  });

  it('calls a new uid a replacement, whatever else it shows', () => {
    const other = steveMachine();

    other.metadata.uid = 'another-uid';
    expect(recheckFinalizerRemoval(stuckRecord(), reviewed, other)).toEqual({ verdict: 'replaced' });
    delete other.metadata.uid;
    expect(recheckFinalizerRemoval(stuckRecord(), reviewed, other)).toEqual({ verdict: 'replaced' });
  });

  it('calls a changed deletion time, finalizer list or permission a change', () => {
    const record = stuckRecord();

    expect(recheckFinalizerRemoval(record, reviewed, steveMachine({ deletingSince: '2024-05-02T11:00:00Z' })).verdict).toBe('changed');
    expect(recheckFinalizerRemoval(record, reviewed, steveMachine({ deletingSince: null })).verdict).toBe('changed');
    expect(recheckFinalizerRemoval(record, reviewed, steveMachine({ finalizers: ['example.com/other'] })).verdict).toBe('changed');
    // Nothing reviewed differs: the eligibility's reason says why, no change is listed.
    expect(recheckFinalizerRemoval(record, reviewed, steveMachine({ canUpdateMachine: false }))).toEqual({ verdict: 'changed', changes: [] });
  });

  it('never lets a record the engine does not offer the removal for through', () => {
    const notStuck = stuckRecord({ deletingSince: '2024-05-02T11:55:00Z' });
    const machine = steveMachine({ deletingSince: '2024-05-02T11:55:00Z' });

    expect(recheckFinalizerRemoval(notStuck, machine, machine).verdict).toBe('changed');
  });
});

describe('recheckEtcdRelease', () => {
  const reviewed = { machine: steveMachine({ etcd: true }), bootstrap: steveBootstrap() };

  it('lets the release through when the Machine and the RKEBootstrap are the ones reviewed', () => {
    const bootstrap = steveBootstrap();

    bootstrap.metadata.resourceVersion = '900';
    expect(recheckEtcdRelease(stuckRecord({ etcd: true }), reviewed, { machine: steveMachine({ etcd: true, resourceVersion: '4800' }), bootstrap }))
      .toEqual({ verdict: 'unchanged' });
  });

  it('refuses a replaced Machine, a Machine no longer deleting, a replaced or released RKEBootstrap', () => {
    const record = stuckRecord({ etcd: true });
    const otherMachine = steveMachine({ etcd: true });
    const withUid = { ...reviewed, bootstrap: { ...steveBootstrap(), metadata: { ...steveBootstrap().metadata, uid: 'b-1' } } };
    const otherBootstrap = { ...steveBootstrap(), metadata: { ...steveBootstrap().metadata, uid: 'b-2' } };

    otherMachine.metadata.uid = 'another-uid';
    expect(recheckEtcdRelease(record, reviewed, { machine: otherMachine, bootstrap: steveBootstrap() })).toEqual({ verdict: 'replaced' });
    expect(recheckEtcdRelease(record, reviewed, { machine: steveMachine({ etcd: true, deletingSince: null }), bootstrap: steveBootstrap() }).verdict).toBe('changed');
    expect(recheckEtcdRelease(record, withUid, { machine: reviewed.machine, bootstrap: otherBootstrap })).toEqual({
      verdict: 'changed',
      changes: [{ key: 'nodeHealth.actions.change.replacedObject', args: { object: `RKEBootstrap ${ NS }/${ MACHINE }` } }],
    });
    const released = steveBootstrap({ bootstrapAnnotations: { 'rke.cattle.io/etcd-force-remove': 'true' } });

    expect(recheckEtcdRelease(record, reviewed, { machine: reviewed.machine, bootstrap: released }))
      .toEqual({ verdict: 'changed', changes: [{ key: 'nodeHealth.actions.change.etcdRelease', args: { after: 'true' } }] });
  });
});

describe('stuckFacts', () => {
  it('states how long the deletion is pending, that the Node is gone and that it is an etcd member', () => {
    expect(stuckFacts(stuckRecord({ etcd: true }), NOW_MS)).toEqual([
      { key: 'nodeHealth.actions.fact.deleting', args: { duration: 2 * 60 * 60 * 1000, since: '2024-05-02T10:00:00Z' } },
      { key: 'nodeHealth.actions.fact.nodeGone', args: { node: 'node-1' } },
      { key: 'nodeHealth.actions.fact.etcdMember' },
    ]);
  });

  it('states that the agent never checked in when the plan says so', () => {
    const record = stuckRecord();

    record.plan = { ...record.plan, state: 'waiting-for-agent' };
    expect(stuckFacts(record, NOW_MS).map((f) => f.key)).toContain('nodeHealth.actions.fact.agentNeverCheckedIn');
  });
});

describe('finalizerPurpose', () => {
  it('explains the Cluster API finalizer and flags unknown ones', () => {
    expect(finalizerPurpose('machine.cluster.x-k8s.io')).toEqual({ key: 'nodeHealth.actions.finalizer.capiMachine' });
    expect(finalizerPurpose('example.com/cleanup')).toEqual({ key: 'nodeHealth.actions.finalizer.unknown', args: { finalizer: 'example.com/cleanup' } });
  });
});

describe('objectUrls', () => {
  it('writes to links.view and reads links.self, as the shell does', () => {
    expect(objectUrls(steveMachine(), 'cluster.x-k8s.io.machine')).toEqual({
      read:  `https://rancher.example.com/v1/cluster.x-k8s.io.machines/${ NS }/${ MACHINE }`,
      write: `https://rancher.example.com/apis/cluster.x-k8s.io/v1beta1/namespaces/${ NS }/machines/${ MACHINE }`,
    });
  });

  it('falls back to the Steve URL for an object without links', () => {
    const { links, ...bare } = steveMachine();

    expect(links).toBeDefined();
    expect(objectUrls(bare, 'cluster.x-k8s.io.machine')).toEqual({
      read:  `/v1/cluster.x-k8s.io.machines/${ NS }/${ MACHINE }`,
      write: `/v1/cluster.x-k8s.io.machines/${ NS }/${ MACHINE }`,
    });
  });
});

describe('objectChanges', () => {
  it('names what changed between the reviewed and the reloaded object', () => {
    const before = steveMachine({ resourceVersion: '1', finalizers: ['a', 'b'] });
    const after = steveMachine({ resourceVersion: '2', finalizers: ['a'] });

    expect(objectChanges(before, after)).toEqual([
      { key: 'nodeHealth.actions.change.finalizers', args: { before: 'a, b', after: 'a' } },
      { key: 'nodeHealth.actions.change.resourceVersion', args: { before: '1', after: '2' } },
    ]);
    expect(objectChanges(before, before)).toEqual([{ key: 'nodeHealth.actions.change.none' }]);
    expect(objectChanges(before, steveMachine({
      resourceVersion: '1', finalizers: ['a', 'b'], deletingSince: null
    }))).toEqual([
      { key: 'nodeHealth.actions.change.deletion', args: { before: '2024-05-02T10:00:00Z', after: '-' } },
    ]);
  });

  it('tells a machine recreated under the same name from the one reviewed', () => {
    const before = steveMachine();
    const recreated = steveMachine({ deletingSince: null });

    recreated.metadata.uid = '5f0e8a52-2222-4c4c-9d9d-000000000002';
    expect(isReplacement(before, recreated)).toBe(true);
    expect(isReplacement(before, steveMachine({ resourceVersion: '9' }))).toBe(false);
  });
});

describe('the engine\'s preflight gates each write, in the words of the check that failed', () => {
  it('refuses the finalizer removal where the machine\'s own Node is Ready and reporting: the host is alive', () => {
    const record = stuckRecord({ liveNode: true });
    const eligibility = finalizerRemovalEligibility(record);

    expect(record.objects.node).toBeDefined();
    expect(eligibility).toEqual({
      offered: true,
      allowed: false,
      reason:  { key: 'nodeHealth.preflight.hostGone.alive', args: { node: 'node-1', seconds: 0 } },
      check:   { id: 'hostGone', ok: false }
    });
  });

  it('allows it where the machine has no Node left', () => {
    expect(finalizerRemovalEligibility(stuckRecord()).allowed).toBe(true);
  });

  it('refuses the etcd release of the cluster\'s last etcd member, and of one whose loss breaks quorum', () => {
    expect(etcdForceRemoveEligibility(stuckRecord({ etcd: true, etcdPeers: 0 })).reason).toEqual({ key: 'nodeHealth.preflight.etcdQuorum.lastMember', args: {} });
    expect(etcdForceRemoveEligibility(stuckRecord({ etcd: true, etcdPeers: 2 })).allowed).toBe(true);
  });

  it('leaves the etcd release check to the dialog that offers the release first', () => {
    const record = stuckRecord({ etcd: true });
    const held = record.preflight?.find((p) => p.id === 'remove-finalizers')?.checks.find((c) => c.id === 'etcdReleased');

    expect(held?.ok).toBe(false);
    expect(finalizerRemovalEligibility(record).allowed).toBe(true);
  });
});
