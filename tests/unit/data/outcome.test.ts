import { describeFailure, errorKey, fatalIssue, unavailableNotices } from '@pkg/node-health/data';
import type { ClusterTarget, LoadIssue, LoadResult } from '@pkg/node-health/data';

const provisioned: ClusterTarget = {
  name: 'dev', namespace: 'fleet-default', mgmtId: 'c-m-1', machineManaged: true, custom: true, cluster: {}
};
const importedTarget: ClusterTarget = {
  ...provisioned, machineManaged: false, custom: false
};

function loadWith(issues: LoadIssue[], availability: Partial<LoadResult['availability']> = {}): LoadResult {
  return {
    objects:      [],
    availability: {
      machines:            'ok',
      planSecrets:         'ok',
      bootstraps:          'ok',
      infraMachines:       'ok',
      mgmtNodes:           'ok',
      nodes:               'ok',
      leases:              'absent',
      capiClusters:        'ok',
      machineHealthChecks: 'ok',
      machineDeployments:  'ok',
      machineSets:         'ok',
      ...availability
    },
    issues,
    requests: [{ input: 'machines', url: '/v1/x' }],
    loadedAt: 0,
  };
}

const issue = (input: LoadIssue['input'], kind: LoadIssue['kind'], status: number | null = null): LoadIssue => ({
  input, kind, status, message: null
});

describe('describeFailure', () => {
  it('reads the status the shell hides on a rejected Steve body', () => {
    const body = {
      type: 'error', status: 403, message: 'secrets is forbidden: User "u-1" cannot list'
    };

    Object.defineProperty(body, '_status', { value: 403 });
    expect(describeFailure(body)).toEqual({
      kind: 'forbidden', status: 403, message: body.message
    });
  });

  it('names each kind of failure', () => {
    const withStatus = (status: number) => Object.defineProperty({}, '_status', { value: status });

    expect(describeFailure(withStatus(401)).kind).toBe('unauthorized');
    expect(describeFailure(withStatus(404)).kind).toBe('not-found');
    expect(describeFailure(withStatus(502)).kind).toBe('server');
    expect(describeFailure(withStatus(409)).kind).toBe('unknown');
    expect(describeFailure({ response: { status: 500, data: { message: 'boom' } } })).toEqual({
      kind: 'server', status: 500, message: 'boom'
    });
    expect(describeFailure(Object.assign(new Error('Network Error'), { code: 'ERR_NETWORK', isAxiosError: true })))
      .toEqual({
        kind: 'network', status: null, message: 'Network Error'
      });
    // a programming error is not blamed on the network
    expect(describeFailure(new TypeError('x is undefined')).kind).toBe('unknown');
    expect(describeFailure(undefined)).toEqual({
      kind: 'unknown', status: null, message: null
    });
    expect(describeFailure({ message: 'x'.repeat(2000) }).message).toHaveLength(501);
  });
});

describe('fatalIssue', () => {
  it('is the failure of the input the view is built on', () => {
    const machines = issue('machines', 'server', 500);

    expect(fatalIssue(provisioned, loadWith([machines], { machines: 'error' }))).toBe(machines);
    const nodes = issue('nodes', 'forbidden', 403);

    expect(fatalIssue(importedTarget, loadWith([nodes], { nodes: 'forbidden' }))).toBe(nodes);
    expect(fatalIssue(provisioned, loadWith([nodes], { nodes: 'forbidden' }))).toBeNull();
  });

  it('is the first failure when nothing could be read, and never a hidden list', () => {
    const all: LoadResult = loadWith([issue('mgmtNodes', 'network'), issue('nodes', 'network')], {
      machines: 'absent', planSecrets: 'absent', bootstraps: 'absent', infraMachines: 'absent', mgmtNodes: 'error', nodes: 'error'
    });

    expect(fatalIssue(provisioned, all)?.input).toBe('mgmtNodes');
    expect(fatalIssue(importedTarget, all)?.input).toBe('nodes');
    expect(fatalIssue(provisioned, loadWith([issue('planSecrets', 'hidden')], { planSecrets: 'forbidden' }))).toBeNull();
    expect(errorKey(issue('nodes', 'not-found', 404))).toBe('nodeHealth.tab.error.not-found');
  });
});

describe('unavailableNotices', () => {
  it('gives one notice per input with its most telling reason, the server messages and the infrastructure kinds', () => {
    const notices = unavailableNotices(provisioned, loadWith([
      { ...issue('infraMachines', 'hidden'), subject: 'rke.cattle.io.custommachine' },
      {
        ...issue('infraMachines', 'server', 503), subject: 'rke-machine.cattle.io.amazonec2machine', message: 'unavailable'
      },
      { ...issue('mgmtNodes', 'forbidden', 403), message: 'nodes is forbidden' },
    ]));

    expect(notices).toEqual([
      {
        input:     'infraMachines',
        inputKey:  'nodeHealth.tab.unavailable.input.infraMachines',
        reasonKey: 'nodeHealth.tab.unavailable.reason.server',
        impactKey: 'nodeHealth.tab.unavailable.impact.infraMachines',
        args:      {
          namespace: 'fleet-default', cluster: 'c-m-1', status: 503
        },
        kind:     'server',
        messages: ['unavailable'],
        subjects: ['rke.cattle.io.custommachine', 'rke-machine.cattle.io.amazonec2machine'],
      },
      expect.objectContaining({
        input: 'mgmtNodes', reasonKey: 'nodeHealth.tab.unavailable.reason.forbidden', args: expect.objectContaining({ namespace: 'c-m-1' }), messages: ['nodes is forbidden']
      }),
    ]);
  });

  it('says no more than the reason where only part of a list is hidden: the list is not missing', () => {
    const [partial] = unavailableNotices(provisioned, loadWith([issue('planSecrets', 'partial')]));

    expect(partial).toMatchObject({ reasonKey: 'nodeHealth.tab.unavailable.reason.partial', impactKey: null });
  });
});
