/**
 * The fleet page's "Download report (HTML)": the report file of the fleet's view, its own input and diagnosis
 * redacted as a bundle (the rules that need a cluster's Node list left to its tab, as the page judged), in both
 * languages.
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import { load } from 'js-yaml';
import { mount, flushPromises } from '@vue/test-utils';
import { downloadFile } from '@shell/utils/download';
import FleetReportDownload from '@pkg/node-health/components/FleetReportDownload.vue';
import { TAB_ONLY_RULES } from '@pkg/node-health/fleet/diagnosis';
import { settleAvailability } from '@pkg/node-health/engine';
import * as joinModule from '@pkg/node-health/engine/join';
import { diagnoseInput } from '@pkg/node-health/data';
import type { DiagnosisInput } from '@pkg/node-health/data';
import { canaryFixture, leaks, tabInput } from '../unit/export/fixtures';

jest.mock('@shell/utils/download', () => ({ downloadFile: jest.fn() }));

const download = downloadFile as jest.Mock;
const t = (key: string, args?: Record<string, unknown>) => (args ? `${ key } ${ JSON.stringify(args) }` : key);
const messages = (lang: string) => load(readFileSync(join(__dirname, '../../pkg/node-health/l10n', `${ lang }.yaml`), 'utf8'));
const $store = {
  state:   { i18n: { translations: { 'en-us': messages('en-us') } }, $extension: { getDynamic: (kind: string, lang: string) => (kind === 'l10n' && lang === 'zh-hans' ? [async() => ({ default: messages('zh-hans') })] : []) } },
  getters: { 'i18n/current': () => 'en-us' },
};

const fixture = canaryFixture();
// As the fleet reads the cluster: no downstream Node list, Rancher's copies of the Nodes instead.
const fleetObjects = fixture.steve.filter((o) => !(o.apiVersion === 'v1' && o.kind === 'Node'));
const input: DiagnosisInput = {
  ...tabInput(fleetObjects, fixture.scenario.now), availability: settleAvailability(fleetObjects, { nodes: 'absent' }), nodesLeftToTab: true
};
const report = diagnoseInput(input);

function data(html: string, lang: string): any {
  return JSON.parse(new RegExp(`<script type="application/json" id="nh-data-${ lang }">([^<]*)</script>`).exec(html)?.[1] ?? 'null');
}

describe('FleetReportDownload', () => {
  beforeEach(() => download.mockReset().mockResolvedValue(undefined));

  it('downloads the fleet\'s report file: redacted, judged as the fleet, in both languages', async() => {
    const wrapper = mount(FleetReportDownload, { props: { report, input }, global: { mocks: { t, $store } } });
    const join = jest.spyOn(joinModule, 'join');

    await wrapper.find('[data-testid="node-health-fleet-report"]').trigger('click');
    await flushPromises();
    expect(download).toHaveBeenCalledTimes(1);
    // The page's own diagnosis, not made again.
    expect(join).not.toHaveBeenCalled();
    join.mockRestore();
    const [name, html, type] = download.mock.calls[0];

    expect(name).toMatch(/^node-health-fleet-.*\.html$/);
    expect(type).toBe('text/html;charset=utf-8');
    expect(html).toContain('<meta http-equiv="Content-Security-Policy"');
    expect(leaks(html, fixture)).toEqual([]);
    const en = data(html, 'en-us');
    const zh = data(html, 'zh-hans');

    expect(en.source.facts[0]).toEqual(['nodeHealth.htmlReport.source.from', 'nodeHealth.htmlReport.source.fromKind.fleet']);
    expect(zh.source.facts[0]).toEqual(['来源', '“所有集群的节点健康”页面']);
    expect(en.report.records.map((r: any) => r.key).sort()).toEqual(report.records.map((r) => r.key).sort());
    expect(en.report.counts).toEqual(report.counts);
    // Judged as the fleet judges: nothing of the rules that need the cluster's own Node list.
    const rules = en.report.records.flatMap((r: any) => r.findings.map((f: any) => f.rule));

    expect(rules.length).toBeGreaterThan(0);
    expect(rules.filter((r: string) => TAB_ONLY_RULES.includes(r))).toEqual([]);
  });

  it('waits for the fleet\'s first load, and says when the download fails', async() => {
    const empty = mount(FleetReportDownload, { props: { report: null }, global: { mocks: { t, $store } } });

    expect(empty.find('[data-testid="node-health-fleet-report"]').attributes('disabled')).toBeDefined();
    download.mockRejectedValue(new Error('blocked by the browser'));
    const wrapper = mount(FleetReportDownload, { props: { report, input }, global: { mocks: { t, $store } } });

    await wrapper.find('[data-testid="node-health-fleet-report"]').trigger('click');
    await flushPromises();
    expect(wrapper.find('[data-testid="node-health-fleet-report-failed"]').text()).toBe('nodeHealth.export.downloadFailed {"message":"blocked by the browser"}');
  });
});
