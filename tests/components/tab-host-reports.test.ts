/**
 * Host reports in the tab: pasted or uploaded, kept in the browser session only, joined to their machine,
 * and the findings they confirm marked in the row detail; the row detail offers the host check to copy.
 */
import { flushPromises } from '@vue/test-utils';
import CopyToClipboard from '@shell/components/CopyToClipboard';
import FileSelector from '@shell/components/form/FileSelector';
import { ghostEtcd, windowsNodeRef, GHOST_MACHINE, WINDOWS_CASE_MACHINE } from '../../scenarios/catalog';
import { ghostHostReport, linuxHostReport } from '../../scenarios/host-reports';
import { HOST_CHECK_SCRIPTS } from '@pkg/node-health/host-check/scripts';
import HostReports from '@pkg/node-health/components/HostReports.vue';
import { mountTab, settle } from './tab-harness';
import type { MountedTab } from './tab-harness';

let tab: MountedTab | null = null;
const ghost = ghostEtcd();

beforeEach(() => {
  window.sessionStorage.clear();
});

afterEach(() => {
  tab?.wrapper.unmount();
  tab = null;
});

async function paste(t: MountedTab, text: string): Promise<void> {
  if (!t.wrapper.find('[data-testid="node-health-host-reports"]').exists()) {
    await t.wrapper.find('[data-testid="node-health-host-reports-toggle"]').trigger('click');
  }
  await t.wrapper.find('[data-testid="node-health-host-reports-input"]').setValue(text);
  await t.wrapper.find('[data-testid="node-health-host-reports-add"]').trigger('click');
  await settle();
}

async function openRow(t: MountedTab, key: string) {
  await t.wrapper.find(`[data-testid="node-health-toggle-${ key }"]`).trigger('click');
  await flushPromises();

  return t.wrapper.find(`[data-testid="node-health-detail-row-${ key }"]`);
}

const GHOST_KEY = `machine:fleet-default/${ GHOST_MACHINE }`;

describe('host reports in the tab', () => {
  it('a pasted report from the ghost machine\'s host confirms agent-never-checked-in, without a request to the cluster', async() => {
    tab = mountTab(ghost);
    await tab.show();
    const requests = tab.steve.actions.length;

    await paste(tab, JSON.stringify(ghostHostReport(ghost)));
    expect(tab.steve.actions.length).toBe(requests);
    expect(tab.wrapper.find('[data-testid="node-health-host-report-joined"]').exists()).toBe(true);
    expect((tab.wrapper.findComponent(HostReports).vm as any).rows.map((r: any) => r.joined)).toEqual([GHOST_MACHINE]);
    // The host, when its report was made (as the timeline says times), then what it joined, with no space before the colon.
    const report = ghostHostReport(ghost);

    expect(tab.wrapper.find('[data-testid="node-health-host-report-0"]').text().replace(/\s+/g, ' '))
      .toMatch(new RegExp(`^${ report.hostname } \\(${ report.collectedAt.slice(0, 10) } ${ report.collectedAt.slice(11, 19) } UTC\\)%nodeHealth.colon%`));
    const detail = await openRow(tab, GHOST_KEY);
    const finding = detail.find('[data-testid="node-health-finding-agent-never-checked-in"]');

    expect(finding.find('[data-testid="node-health-finding-confirmed"]').exists()).toBe(true);
    expect(finding.find('[data-testid="node-health-finding-confirmation"]').text()).toBe('%nodeHealth.confirmed.agentCredentialsOtherSecret%');
    expect(finding.text()).toContain('Host dev-k8s-node01');
    expect(finding.text()).toContain('2026-01-15T08:04:03Z');
    expect(detail.find('[data-testid="node-health-finding-blocking-cluster-operation"] [data-testid="node-health-finding-confirmed"]').exists()).toBe(false);
    expect(detail.find('[data-testid="node-health-host-report"]').text()).toContain('custom-f489526f114a-machine-plan');
    // Kept for the session, and only there.
    expect(window.sessionStorage.getItem('node-health:host-reports:c-m-4qj7x2vd')).toContain('dev-k8s-node01');
  });

  it('keeps the reports across a remount in the same session, and removes them on request', async() => {
    tab = mountTab(ghost);
    await tab.show();
    await paste(tab, JSON.stringify([ghostHostReport(ghost)]));
    tab.wrapper.unmount();
    tab = mountTab(ghost);
    await tab.show();
    expect(tab.wrapper.find('[data-testid="node-health-host-reports-toggle"]').text()).toContain('(1)');
    await tab.wrapper.find('[data-testid="node-health-host-reports-toggle"]').trigger('click');
    await tab.wrapper.find('[data-testid="node-health-host-reports-clear"]').trigger('click');
    await settle();
    expect(window.sessionStorage.getItem('node-health:host-reports:c-m-4qj7x2vd')).toBeNull();
    const detail = await openRow(tab, GHOST_KEY);

    expect(detail.find('[data-testid="node-health-finding-confirmed"]').exists()).toBe(false);
  });

  it('lists a report that matches no machine, and says why a paste is not a report', async() => {
    tab = mountTab(ghost);
    await tab.show();
    const stray = {
      ...linuxHostReport(ghost, GHOST_MACHINE), hostname: 'stray-01', machineId: null, connectionInfo: { secretName: 'custom-000000000000-machine-plan' }
    };

    await paste(tab, JSON.stringify(stray));
    expect(tab.wrapper.find('[data-testid="node-health-host-report-unmatched"]').exists()).toBe(true);
    await paste(tab, '{"format": "node-health-bundle/v1"}');
    expect(tab.wrapper.find('[data-testid="node-health-host-reports-error"]').text()).toContain('%nodeHealth.host.paste.invalid%');
    await paste(tab, 'not json');
    expect(tab.wrapper.findAll('[data-testid="node-health-host-reports-error"]')).toHaveLength(1);
  });

  it('reads uploaded files, UTF-16 as Windows PowerShell writes it included', async() => {
    tab = mountTab(ghost);
    await tab.show();
    await tab.wrapper.find('[data-testid="node-health-host-reports-toggle"]').trigger('click');
    const text = JSON.stringify(ghostHostReport(ghost));
    const utf16 = new Uint8Array(2 + text.length * 2);

    utf16.set([0xFF, 0xFE]);
    for (let i = 0; i < text.length; i++) {
      utf16[2 + i * 2] = text.charCodeAt(i) & 0xFF;
      utf16[3 + i * 2] = text.charCodeAt(i) >> 8;
    }
    const files = [new File([utf16], 'node01.json'), new File(['{"kind": "List"}'], 'other.json')];

    tab.wrapper.findComponent(FileSelector).vm.$emit('selected', files);
    for (let i = 0; i < 5 && !tab.wrapper.find('[data-testid="node-health-host-report-joined"]').exists(); i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      await settle();
    }
    expect(tab.wrapper.find('[data-testid="node-health-host-report-joined"]').exists()).toBe(true);
    expect((tab.wrapper.findComponent(HostReports).vm as any).errors).toEqual(['other.json: expected a JSON document with "format": "node-health-host/v1"']);
    const detail = await openRow(tab, GHOST_KEY);

    expect(detail.find('[data-testid="node-health-finding-agent-never-checked-in"] [data-testid="node-health-finding-confirmed"]').exists()).toBe(true);
  });

  it('offers the host check for the row\'s operating system', async() => {
    tab = mountTab(ghost);
    await tab.show();
    const linux = await openRow(tab, GHOST_KEY);
    const copy = linux.find('[data-testid="node-health-host-check"]').findComponent(CopyToClipboard);

    expect(copy.props('text')).toBe(`sudo sh -s > node-health-host.json <<'NODE_HEALTH_HOST_CHECK'\n${ HOST_CHECK_SCRIPTS.linux }NODE_HEALTH_HOST_CHECK\n`);
    // The script to read before running it, drawn when asked for.
    const details = linux.find('[data-testid="node-health-host-check"] details');

    expect(details.find('pre').exists()).toBe(false);
    (details.element as HTMLDetailsElement).open = true;
    await details.trigger('toggle');
    expect(details.find('pre').text()).toBe(HOST_CHECK_SCRIPTS.linux.trim());
    tab.wrapper.unmount();

    const windows = windowsNodeRef();

    tab = mountTab(windows);
    await tab.show();
    const detail = await openRow(tab, `machine:fleet-default/${ WINDOWS_CASE_MACHINE }`);

    expect(detail.find('[data-testid="node-health-host-check"]').findComponent(CopyToClipboard).props('text')).toBe(HOST_CHECK_SCRIPTS.windows);
    expect(HOST_CHECK_SCRIPTS.windows).toContain('node-health-host/v1');
  });
});
