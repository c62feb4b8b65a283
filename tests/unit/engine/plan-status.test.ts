import { derivePlanStatus, diagnose } from '@pkg/node-health/engine';
import type { NodeRecord } from '@pkg/node-health/engine';
import { buildScenario } from '../../../scenarios/catalog';
import { clusterObjects, diagnoseScenario } from './helpers';
import { planStatusValueProblem } from '@pkg/node-health/engine/plan-status';
import {
  base64Equal, base64Includes, base64Is, base64NonEmpty, base64Number, base64UnixDate, decodeBase64, parseUnixDate
} from '@pkg/node-health/engine/fields';

const b64 = (s: string) => Buffer.from(s).toString('base64');

function machine(reconciled?: Record<string, string>, planApplied?: Record<string, string>) {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta1',
    kind:       'Machine',
    metadata:   { name: 'm', namespace: 'fleet-default' },
    status:     {
      conditions: [
        ...(reconciled ? [{ type: 'Reconciled', ...reconciled }] : []),
        ...(planApplied ? [{ type: 'PlanApplied', ...planApplied }] : []),
      ]
    },
  };
}

function secret(data: Record<string, string>, annotations: Record<string, string> = { 'rke.cattle.io/plan-last-updated': '2026-01-01T00:00:00Z' }) {
  return {
    apiVersion: 'v1',
    kind:       'Secret',
    type:       'rke.cattle.io/machine-plan',
    metadata:   {
      name: 'm-machine-plan', namespace: 'fleet-default', annotations
    },
    data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, b64(v)])),
  };
}

describe('plan status, as Rancher\'s planner words it', () => {
  it.each([
    ['waiting for agent to check in and apply initial plan', 'waiting-for-agent'],
    ['waiting for probes: kube-apiserver, kubelet', 'probes-failing'],
    ['failure while applying plan', 'apply-failed'],
    ['waiting for plan to be applied', 'waiting-for-plan'],
    ['waiting for bootstrap etcd to be available', 'no-plan'],
  ])('Reconciled "%s" is %s', (message, state) => {
    const s = derivePlanStatus(machine({
      status: 'Unknown', reason: 'Waiting', message
    }), undefined);

    expect(s.state).toBe(state);
    expect(s.source).toBe('condition');
    expect(s.message).toBe(message);
  });

  it('reads the probe names from the message when the secret is not readable', () => {
    expect(derivePlanStatus(machine({ status: 'Unknown', message: 'waiting for probes: kube-apiserver, kubelet' }), undefined).unhealthyProbes)
      .toStrictEqual(['kube-apiserver', 'kubelet']);
  });

  it('ends the probe names where the planner\'s next message begins', () => {
    const probes = (message: string) => derivePlanStatus(machine({ status: 'Unknown', message }), undefined).unhealthyProbes;

    // pkg/capr/planner/planner.go joins a machine's messages with ", ": the drain's words follow the list.
    expect(probes('waiting for probes: kube-apiserver, draining node')).toStrictEqual(['kube-apiserver']);
    expect(probes('waiting for probes: calico, kubelet, error draining machine custom-9a6e3d0f2c71: timed out')).toStrictEqual(['calico', 'kubelet']);
  });

  it('Reconciled True is in sync', () => {
    expect(derivePlanStatus(machine({ status: 'True' }), undefined).state).toBe('in-sync');
  });

  it('PlanApplied False with the agent error is a failed plan', () => {
    const s = derivePlanStatus(machine({ status: 'True' }, { status: 'False', message: 'error applying plan -- check rancher-system-agent.service logs on node for more information' }), undefined);

    expect(s.state).toBe('apply-failed');
  });

  it('a secret with a written plan and nothing applied means the agent never checked in', () => {
    expect(derivePlanStatus(undefined, secret({})).state).toBe('waiting-for-agent');
  });

  it('a secret with an applied checksum and no failures is in sync', () => {
    expect(derivePlanStatus(undefined, secret({ 'applied-checksum': 'abc', 'success-count': '3' })).state).toBe('in-sync');
  });

  it('failures at the threshold with a failed checksum other than the applied one are a failed plan', () => {
    const s = derivePlanStatus(undefined, secret({
      'applied-checksum': 'abc', 'failed-checksum': 'def', 'failure-count': '3', 'failure-threshold': '3'
    }));

    expect(s.state).toBe('apply-failed');
    expect(s.failureCount).toBe(3);
  });

  it('failures below the threshold are not yet a failed plan', () => {
    const s = derivePlanStatus(undefined, secret({
      'applied-checksum': 'abc', 'failed-checksum': 'def', 'failure-count': '1', 'failure-threshold': '3'
    }));

    expect(s.state).not.toBe('apply-failed');
  });

  it('reads failure-threshold as the planner does: none means one failure, -1 never; max-failures is the agent\'s retries', () => {
    const failures = (extra: Record<string, string>) => derivePlanStatus(undefined, secret({
      'applied-checksum': 'abc', 'failed-checksum': 'def', 'failure-count': '2', ...extra
    })).state;

    expect(failures({})).toBe('apply-failed');
    // Rancher's normal plan: the agent retries for ever, one failure fails the plan.
    expect(failures({ 'max-failures': '-1', 'failure-threshold': '1' })).toBe('apply-failed');
    // A Windows worker's plan fails at five.
    expect(failures({ 'max-failures': '-1', 'failure-threshold': '5' })).not.toBe('apply-failed');
    expect(failures({ 'failure-threshold': '-1' })).not.toBe('apply-failed');
    expect(failures({ 'max-failures': '5' })).toBe('apply-failed');
  });

  it('takes -1 for max-failures and failure-threshold, as Rancher writes them, and refuses other negative numbers', () => {
    expect(planStatusValueProblem('max-failures', b64('-1'))).toBeNull();
    expect(planStatusValueProblem('failure-threshold', b64('-1'))).toBeNull();
    expect(planStatusValueProblem('failure-threshold', b64('5'))).toBeNull();
    expect(planStatusValueProblem('max-failures', b64('-2'))).toMatch(/-1/);
    expect(planStatusValueProblem('failure-count', b64('-1'))).toBe('not a whole number');
  });

  it('a failure of the checksum that was applied since is not a failed plan', () => {
    const s = derivePlanStatus(undefined, secret({
      'applied-checksum': 'abc', 'failed-checksum': 'abc', 'failure-count': '3', 'failure-threshold': '1'
    }));

    expect(s.state).toBe('in-sync');
  });

  it('unhealthy probes in probe-statuses are named', () => {
    const s = derivePlanStatus(undefined, secret({ 'applied-checksum': 'abc', 'probe-statuses': JSON.stringify({ kubelet: { healthy: false }, 'kube-apiserver': { healthy: true } }) }));

    expect(s.state).toBe('probes-failing');
    expect(s.unhealthyProbes).toStrictEqual(['kubelet']);
  });

  it('newer agents\' plan-state is read directly', () => {
    expect(derivePlanStatus(undefined, secret({ 'applied-checksum': 'abc', 'plan-state': 'failed' })).state).toBe('apply-failed');
    expect(derivePlanStatus(undefined, secret({ 'applied-checksum': 'abc', 'plan-state': 'in-progress' })).state).toBe('applying');
  });

  it('reads last-apply-time in Go\'s UnixDate format', () => {
    const s = derivePlanStatus(undefined, secret({ 'applied-checksum': 'abc', 'last-apply-time': 'Mon Jan 15 08:04:02 UTC 2026' }));

    expect(s.lastApplyTime).toBe('2026-01-15T08:04:02.000Z');
  });

  it('never reads the plan itself: a secret whose plan is garbage gives the same status', () => {
    const a = secret({ 'applied-checksum': 'abc' });
    const b = {
      ...a,
      data: {
        ...a.data, plan: '!!!not base64!!!', appliedPlan: b64('x')
      }
    };

    expect(derivePlanStatus(undefined, b)).toStrictEqual(derivePlanStatus(undefined, a));
  });
});

describe('base64 status values', () => {
  it.each([
    ['', ''],
    ['3', '3'],
    ['Mon Jan 15 08:04:02 UTC 2026', 'Mon Jan 15 08:04:02 UTC 2026'],
    ['{"kubelet":{"healthy":false}}', '{"kubelet":{"healthy":false}}'],
    ['节点', '节点'],
  ])('decodes %j as Buffer encodes it', (text, expected) => {
    expect(decodeBase64(Buffer.from(text).toString('base64'))).toBe(expected);
  });

  it('gives null for text that is not base64', () => {
    expect(decodeBase64('not*base64')).toBeNull();
  });

  it('decodes values longer than its buffer, and short ones after them, alike', () => {
    const long = `${ 'x'.repeat(9000) }é${ 'y'.repeat(5000) }`;
    const ascii = 'z'.repeat(10000);

    expect(decodeBase64(Buffer.from(long).toString('base64'))).toBe(long);
    expect(decodeBase64(Buffer.from(ascii).toString('base64'))).toBe(ascii);
    expect(decodeBase64(Buffer.from('ok').toString('base64'))).toBe('ok');
  });

  it('accepts line breaks and the URL-safe alphabet', () => {
    const text = 'a>b?c~d';

    expect(decodeBase64(Buffer.from(text).toString('base64').replace(/(.{4})/g, '$1\n'))).toBe(text);
    expect(decodeBase64(Buffer.from(text).toString('base64url'))).toBe(text);
  });

  it.each([
    ['{"kubelet":{"healthy":false}}', true],
    ['{"kubelet":{"healthy":true}}', false],
    ['fals', false],
    ['false', true],
    [' false', true],
    ['  false', true],
  ])('finds a word in %j without decoding it to text', (text, found) => {
    expect(base64Includes(Buffer.from(text).toString('base64'), 'false')).toBe(found);
  });

  it('finds nothing in what is not base64', () => {
    expect(base64Includes('ZmFsc2U*', 'false')).toBe(false);
    expect(base64Includes(undefined, 'false')).toBe(false);
  });
});

describe('reading status values without making text of them', () => {
  it.each([
    ['3', 3], ['0', 0], ['007', 7], [' 12 ', 12], ['-1', -1], ['1e3', 1000], ['123456789012345678', 123456789012345680], ['', null], ['three', null],
  ])('reads %j as the number %j', (text, n) => {
    expect(base64Number(b64(text))).toBe(n);
  });

  it('reads no number from what is not base64', () => {
    expect(base64Number('***')).toBeNull();
    expect(base64Number(undefined)).toBeNull();
  });

  it.each([
    ['failed', 'failed', true], ['failed', 'fail', false], ['failedx', 'failed', false], ['', 'failed', false],
  ])('%j is %j: %j', (text, word, same) => {
    expect(base64Is(b64(text), word)).toBe(same);
  });

  it('tells empty, invalid and present values apart', () => {
    expect(base64NonEmpty(b64('abc'))).toBe(true);
    expect(base64NonEmpty('')).toBe(false);
    expect(base64NonEmpty('***')).toBe(false);
    expect(base64NonEmpty(null)).toBe(false);
  });

  it('compares decoded bytes, whatever the line breaks', () => {
    expect(base64Equal(b64('sum-1'), b64('sum-1'))).toBe(true);
    expect(base64Equal(b64('sum-1'), `${ b64('sum-1').slice(0, 4) }\n${ b64('sum-1').slice(4) }`)).toBe(true);
    expect(base64Equal(b64('sum-1'), b64('sum-2'))).toBe(false);
  });
});

describe('last-apply-time', () => {
  it.each([
    ['Mon Jan 15 08:04:02 UTC 2026', '2026-01-15T08:04:02.000Z'],
    ['Tue Feb  3 23:59:59 GMT 2026', '2026-02-03T23:59:59.000Z'],
    ['Tue Feb  3 23:59:59 +0130 2026', '2026-02-03T22:29:59.000Z'],
    ['Tue Feb  3 01:00:00 -0200 2026', '2026-02-03T03:00:00.000Z'],
    ['Wed Dec 31 12:00:00 CET 2025', '2025-12-31T12:00:00.000Z'],
    ['2026-01-15T08:04:02Z', '2026-01-15T08:04:02.000Z'],
  ])('reads %j as Go writes it', (text, iso) => {
    expect(new Date(parseUnixDate(text) as number).toISOString()).toBe(iso);
  });

  it.each(['Mon Foo 15 08:04:02 UTC 2026', 'yesterday', ''])('gives null for %j', (text) => {
    expect(parseUnixDate(text)).toBeNull();
  });
});

describe('base64UnixDate', () => {
  // Read from the decoded bytes where the agent's shape is, as text otherwise: the same time either way.
  it.each([
    'Mon Jan  2 15:04:05 UTC 2006', 'Thu Jan 15 08:04:02 UTC 2026', 'Wed Dec 31 23:59:59 GMT 2025', 'Sun Feb 29 00:00:00 MST 2004',
    'Wed Dec 31 12:00:00 CET 2025', 'Mon Foo 15 08:04:02 UTC 2026', 'Mon anF 15 08:04:02 UTC 2026', 'Mon Jan 2 15:04:05 UTC 2006',
    'Mon Jan  2 15:04:05 -0700 2006', ' Mon Jan  2 15:04:05 UTC 2006', 'Mon Jan  2 15:04:05 UTC 2006 ', 'Mon Jan 99 15:04:05 UTC 2006',
    'Mon Jan  2 25:61:61 UTC 0050', 'Mon_Jan  2 15:04:05 UTC 2006', 'Mon Jan  2 15:04:05 U C 2006', '2026-01-15T08:04:02Z', 'yesterday', '',
  ])('reads %j as parseUnixDate reads its text', (text) => {
    expect(base64UnixDate(b64(text))).toBe(parseUnixDate(text));
  });

  it.each([null, undefined, 42, 'not base64!', {}])('reads %j as parseUnixDate reads what decodeBase64 makes of it', (value) => {
    expect(base64UnixDate(value)).toBe(parseUnixDate(decodeBase64(value)));
  });

  it('reads the agent\'s times to the second', () => {
    expect(new Date(base64UnixDate(b64('Thu Jan 15 08:04:02 UTC 2026')) as number).toISOString()).toBe('2026-01-15T08:04:02.000Z');
  });
});

describe('the plan of a machine whose plan secret is known not to exist', () => {
  const s = buildScenario('reconciliation-paused');
  const mgmtId = s.clusters[0].mgmtId;
  const withoutSecret = (records: NodeRecord[]) => records.find((r) => r.objects.machine && !r.objects.planSecret) as NodeRecord;

  it('is no plan when every plan secret was read', () => {
    const record = withoutSecret(diagnoseScenario(s).records);

    expect(record.findings.map((f) => f.rule)).toContain('plan-secret-missing');
    expect(record.plan.state).toBe('no-plan');
  });

  it('stays unknown when only some plan secrets could be seen', () => {
    const report = diagnose(clusterObjects(s, mgmtId), {
      now: s.now, defaultCluster: mgmtId, availability: { planSecrets: 'partial' }
    });

    expect(withoutSecret(report.records).plan.state).toBe('unknown');
  });
});
