import {
  agentWaitBootstrap, certRotationBlocked, ghostEtcd, large, AGENT_WAIT_MACHINE, GHOST_MACHINE
} from '../../scenarios/catalog';
import { plannerClusterMessage } from '../../scenarios/builders/composite';
import { chooseFilter, filterValue, mountTab, sortByHeader } from './tab-harness';
import type { MountedTab } from './tab-harness';

let tab: MountedTab | null = null;

afterEach(() => {
  tab?.wrapper.unmount();
  tab = null;
});

const banner = (t: MountedTab) => t.wrapper.find('[data-testid="node-health-blocking"]');
const visibleKeys = (t: MountedTab) => t.wrapper.findAll('tr.main-row').map((tr) => tr.attributes('data-node-id'));

describe('the blocking banner', () => {
  it('names the machine the cluster waits for, quotes the condition as text and says since when', async() => {
    tab = mountTab(ghostEtcd());
    await tab.show();
    const b = banner(tab);

    expect(b.classes()).toContain('warning');
    expect(b.find(`[data-testid="node-health-blocking-${ GHOST_MACHINE }"]`).text()).toBe(GHOST_MACHINE);
    expect(b.find('q').text()).toBe(`configuring etcd node(s) ${ GHOST_MACHINE }: waiting for agent to check in and apply initial plan`);
    expect(b.text()).toContain('%nodeHealth.tab.blocking.since%');
    // The planner configures nodes here: no certificate rotation is running, whatever the cluster once asked for.
    expect(b.text()).not.toContain('%nodeHealth.tab.blocking.rotation%');
  });

  it('is an info while the planner is still in time with the machine, and says what it does', async() => {
    const s = ghostEtcd();
    const cluster = s.objects.find((o: any) => o.kind === 'Cluster' && o.apiVersion.startsWith('provisioning')) as any;
    const minuteAgo = new Date(Date.parse(s.now) - 60000).toISOString().replace(/\.\d{3}Z$/, 'Z');

    for (const c of cluster.status.conditions.filter((x: any) => ['Updated', 'Provisioned'].includes(x.type))) {
      Object.assign(c, { lastUpdateTime: minuteAgo, lastTransitionTime: minuteAgo });
    }
    tab = mountTab(s);
    await tab.show();
    const b = banner(tab);

    expect(b.classes()).toContain('info');
    expect(b.text()).toContain('%nodeHealth.tab.blocking.progressTitle%');
    expect(b.text()).not.toContain('%nodeHealth.tab.blocking.title%');
  });

  it('says the planner stopped on an error about the machine when its condition is False', async() => {
    const s = ghostEtcd();
    const cluster = s.objects.find((o: any) => o.kind === 'Cluster' && o.apiVersion.startsWith('provisioning')) as any;

    for (const c of cluster.status.conditions.filter((x: any) => ['Updated', 'Provisioned'].includes(x.type))) {
      Object.assign(c, { status: 'False', reason: 'Error' });
    }
    const translated: string[] = [];

    tab = mountTab(s, {
      t: (key, args) => {
        translated.push(`${ key } ${ JSON.stringify(args ?? {}) }`);

        return `%${ key }%`;
      }
    });
    await tab.show();

    expect(banner(tab).classes()).toContain('warning');
    expect(translated.filter((k) => k.startsWith('nodeHealth.tab.blocking.condition ')).map((k) => JSON.parse(k.slice(k.indexOf('{'))).state)).toContain('failed');
  });

  it('names no machine, nor says the cluster waits for one, when the planner waits for the agent', async() => {
    const translated: string[] = [];

    tab = mountTab(agentWaitBootstrap(), {
      t: (key, args) => {
        translated.push(`${ key } ${ JSON.stringify(args ?? {}) }`);

        return `%${ key }%`;
      }
    });
    await tab.show();
    const b = banner(tab);
    const argsOf = (key: string) => translated.filter((k) => k.startsWith(`${ key } `)).map((k) => JSON.parse(k.slice(k.indexOf('{'))));

    expect(b.find('q').text()).toBe(`configuring bootstrap node(s) ${ AGENT_WAIT_MACHINE }: waiting for cluster agent to connect`);
    expect(b.find(`[data-testid="node-health-blocking-${ AGENT_WAIT_MACHINE }"]`).exists()).toBe(false);
    expect(argsOf('nodeHealth.tab.blocking.title').map((a) => a.count)).toContain(0);
    expect(argsOf('nodeHealth.tab.blocking.condition').map((a) => a.state)).toEqual(expect.arrayContaining(['held']));
    expect(argsOf('nodeHealth.tab.blocking.condition').map((a) => a.state)).not.toContain('configuring');
  });

  it('says a certificate rotation waits for the machine when the planner says it does', async() => {
    tab = mountTab(certRotationBlocked());
    await tab.show();

    expect(banner(tab).text()).toContain('%nodeHealth.tab.blocking.rotation%');
  });

  it('opens the machine\'s row, clearing the filters that hid it', async() => {
    tab = mountTab(ghostEtcd());
    await tab.show();
    await chooseFilter(tab.wrapper, 'status', 'healthy');
    await tab.wrapper.find('[data-testid="node-health-search"]').setValue('node02');
    await tab.settle();
    expect(visibleKeys(tab)).toEqual(['machine:fleet-default/custom-3524fa7f0d71']);

    await banner(tab).find(`[data-testid="node-health-blocking-${ GHOST_MACHINE }"]`).trigger('click');
    await tab.settle();
    expect((tab.wrapper.find('[data-testid="node-health-search"]').element as HTMLInputElement).value).toBe('');
    expect(filterValue(tab.wrapper, 'status')).toBe('all');
    expect(tab.wrapper.find(`[data-testid="node-health-detail-row-machine:fleet-default/${ GHOST_MACHINE }"]`).exists()).toBe(true);
  });

  it('counts the machines the planner\'s message leaves unnamed ("a,b,c and N more")', async() => {
    const s = ghostEtcd();
    const cluster = s.objects.find((o: any) => o.kind === 'Cluster' && o.apiVersion.startsWith('provisioning')) as any;
    // Five of its workers waiting, as the planner words it: three named, two counted.
    const workers = (s.objects as any[]).filter((o) => o.kind === 'Machine' && o.metadata.labels?.['rke.cattle.io/worker-role'] === 'true').slice(0, 5)
      .map((m) => ({
        machineName: m.metadata.name, tier: 'worker' as const, plannerMessage: 'waiting for plan to be applied'
      }));
    const message = plannerClusterMessage(workers);

    expect(message).toMatch(/ and 2 more$/);
    for (const c of cluster.status.conditions.filter((x: any) => ['Updated', 'Provisioned'].includes(x.type))) {
      c.message = message;
    }
    const more: unknown[] = [];

    tab = mountTab(s, {
      t: (key, args) => {
        if (key === 'nodeHealth.tab.blocking.more') {
          more.push(args);
        }

        return `%${ key }%`;
      }
    });
    await tab.show();

    expect(banner(tab).findAll('a[data-testid^="node-health-blocking-"]')).toHaveLength(3);
    expect(banner(tab).find('[data-testid="node-health-unnamed-blocking"]').text()).toBe('%nodeHealth.tab.blocking.more%');
    expect(more).toContainEqual({ count: 2 });
  });

  it('goes to the page of the table the machine is on', async() => {
    const s = large(300);

    tab = mountTab(s);
    await tab.show();
    const names = tab.wrapper.findAll('[data-testid^="node-health-blocking-"]').map((a) => a.text());

    expect(names.length).toBeGreaterThan(0);
    // Sorted by machine name, the last blocking machine is far down the list.
    await sortByHeader(tab, 'nodeHealth.tab.table.machine');
    const target = names[names.length - 1];
    const key = `machine:fleet-default/${ target }`;

    expect(visibleKeys(tab)).toHaveLength(50);
    expect(visibleKeys(tab)).not.toContain(key);

    await tab.wrapper.find(`[data-testid="node-health-blocking-${ target }"]`).trigger('click');
    await tab.settle();
    expect(visibleKeys(tab)).toContain(key);
    expect(tab.wrapper.find(`[data-testid="node-health-detail-row-${ key }"]`).exists()).toBe(true);
    // 300 nodes loaded, sorted and paged in jsdom: more than jest's default 5 s on a busy machine.
  }, 30000);

  it('is not there when nothing holds the cluster back', async() => {
    const s = ghostEtcd();

    tab = mountTab(s);
    const cluster = tab.wrapper.props('resource');

    tab.wrapper.unmount();
    const calm = JSON.parse(JSON.stringify(cluster));

    calm.status.conditions = calm.status.conditions.map((c: any) => ({
      ...c, status: 'True', message: ''
    }));
    tab = mountTab(s, {}, calm);
    await tab.show();
    expect(banner(tab).exists()).toBe(false);
  });
});
