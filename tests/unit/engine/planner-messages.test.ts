/**
 * The planner's message table: every entry's example is the planner's own words and matches its pattern, names
 * a rule of the catalogue, and is seen in a scenario's cluster conditions unless a rule test builds it.
 */
import { PLANNER_MESSAGES, unnamedMachines } from '@pkg/node-health/engine/signals/planner';
import { messageTokens, PLANNER_FORMS } from '@pkg/node-health/engine/cluster-info';
import { diagnose, RULE_IDS } from '@pkg/node-health/engine';
import { clusterObjects } from './helpers';
import { buildScenario, SCENARIO_NAMES } from '../../../scenarios/catalog';

/** Forms a test builds on a scenario's cluster: rules.test.ts ("the planner's … names the machine it waits for") and below. */
const BUILT_BY_RULE_TESTS = ['tierMachines', 'waiting', 'certificateRotation', 'agentWaiting'];

const clusterMessages = SCENARIO_NAMES.flatMap((name) => buildScenario(name).objects)
  .filter((o: any) => o.kind === 'Cluster' && /cattle\.io\//.test(o.apiVersion))
  .flatMap((o: any) => (o.status?.conditions ?? []).filter((c: any) => c.status !== 'True' && c.message).map((c: any) => c.message as string));

describe("the planner's messages", () => {
  it.each(PLANNER_MESSAGES.map((e) => [e.id, e] as const))('%s: the example matches, and the rule exists', (id, entry) => {
    expect(entry.pattern.test(entry.example)).toBe(true);
    expect(RULE_IDS).toContain(entry.rule);
  });

  it('the forms that name a blocking machine are the ones the cluster reader uses', () => {
    const blocking = PLANNER_MESSAGES.filter((e) => e.rule === 'blocking-cluster-operation');

    expect(new Set(PLANNER_FORMS)).toEqual(new Set(blocking.map((e) => e.pattern)));
    // Not every waiting message names a machine: the pattern alone does not blame one.
    expect(PLANNER_FORMS.some((f) => f.test('CAPI cluster or RKEControlPlane is paused'))).toBe(false);
  });

  it('name a machine however the planner writes it: alone, in brackets, or after its namespace', () => {
    expect(messageTokens('configuring worker node(s) custom-a,custom-b and 3 more')).toContain('custom-b');
    expect(messageTokens('waiting for [custom-a] certificate rotation')).toContain('custom-a');
    // pkg/capr/planner/config.go, etcdcreate.go: "machine %s/%s"
    expect(messageTokens('waiting for machine fleet-default/custom-a driver config to be saved')).toContain('custom-a');
    expect(messageTokens('waiting for etcd snapshot on machine fleet-default/custom-a')).toContain('custom-a');
  });

  it('each is seen in a scenario, or built by a rule test', () => {
    const unseen = PLANNER_MESSAGES.filter((e) => !clusterMessages.some((m) => e.pattern.test(m))).map((e) => e.id);

    expect(unseen.filter((id) => !BUILT_BY_RULE_TESTS.includes(id))).toStrictEqual([]);
  });

  it('certificate rotation in the planner\'s words makes it waiting or failed, never its end; the agent not connected yet is the agent finding', () => {
    const s = buildScenario('healthy');
    const objects = JSON.parse(JSON.stringify(clusterObjects(s, s.clusters[0].mgmtId))) as any[];
    const cluster = objects.find((o) => o.kind === 'Cluster' && o.apiVersion.startsWith('provisioning'));
    const say = (message: string) => {
      cluster.status.conditions = cluster.status.conditions.filter((c: any) => c.type !== 'Updated')
        .concat({
          type: 'Updated', status: 'Unknown', reason: 'Waiting', message, lastUpdateTime: '2026-01-01T00:00:00Z', lastTransitionTime: '2026-01-01T00:00:00Z'
        });

      return diagnose(objects, { now: s.now }).clusters[0];
    };

    expect(say('waiting for [custom-2d74d4c9a104] certificate rotation').certificateRotation).toBe('waiting');
    expect(say('waiting for [custom-2d74d4c9a104] certificate rotation probes').certificateRotation).toBe('waiting');
    expect(say('starting [custom-2d74d4c9a104] certificate rotation').certificateRotation).toBe('waiting');
    expect(say('operation [custom-2d74d4c9a104] certificate rotation failed').certificateRotation).toBe('failed');
    expect(say('certificate rotation done').certificateRotation).toBeNull();
    // Whether a requested rotation is done is the RKEControlPlane's status: the request alone says nothing.
    cluster.spec.rkeConfig = { ...cluster.spec.rkeConfig, rotateCertificates: { generation: 4 } };
    expect(say('configuring worker node(s) custom-2d74d4c9a104: waiting for plan to be applied').certificateRotation).toBeNull();
    expect(say('waiting for cluster agent to connect').findings.map((f) => f.rule)).toContain('cluster-agent-disconnected');
  });
});

describe('the machines a planner message counts without naming them', () => {
  it('are the N of atMostThree\'s "a,b,c and N more", and none otherwise', () => {
    expect(unnamedMachines('configuring worker node(s) custom-0040e2022d95,custom-01628eb65ce8,custom-01b5a33fdb41 and 111 more')).toBe(111);
    expect(unnamedMachines('configuring etcd node(s) custom-2d74d4c9a104: waiting for agent to check in and apply initial plan')).toBe(0);
    expect(unnamedMachines('configuring worker node(s) custom-a,custom-b,custom-c')).toBe(0);
    expect(unnamedMachines(null)).toBe(0);
  });
});
