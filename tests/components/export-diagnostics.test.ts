import { readFileSync } from 'fs';
import { join } from 'path';
import { load } from 'js-yaml';
import { mount, flushPromises } from '@vue/test-utils';
import { downloadFile } from '@shell/utils/download';
import { copyTextToClipboard } from '@shell/utils/clipboard';
import DiagnosticsExport from '@pkg/node-health/components/DiagnosticsExport.vue';
import type { DiagnosisReport } from '@pkg/node-health/engine';
import * as joinModule from '@pkg/node-health/engine/join';
import { diagnoseInput } from '@pkg/node-health/data';
import type { DiagnosisInput } from '@pkg/node-health/data';
import { clearActionLog, recordAction } from '@pkg/node-health/actions/action-log';
import type { NodeHealthBundle } from '@pkg/node-health/export';
import {
  MARK, canaryFixture, leaks, sessionExport, tabInput
} from '../unit/export/fixtures';

jest.mock('@shell/utils/download', () => ({ downloadFile: jest.fn() }));
jest.mock('@shell/utils/clipboard', () => ({ copyTextToClipboard: jest.fn() }));

const download = downloadFile as jest.Mock;
const copy = copyTextToClipboard as jest.Mock;

// Text with its arguments, so that the test can read the counts the component passes.
const t = (key: string, args?: Record<string, unknown>) => (args ? `${ key } ${ JSON.stringify(args) }` : key);

const fixture = canaryFixture();
// As the tab's session holds it: the loader's input, and its diagnosis.
const input: DiagnosisInput = tabInput(fixture.steve, fixture.scenario.now);
const report: DiagnosisReport = diagnoseInput(input);
const cluster = report.clusters[0];

function mountClosed(props: Record<string, unknown> = {}) {
  return mount(DiagnosticsExport, {
    props: {
      take: sessionExport(input, report),
      cluster,
      ...props,
    },
    global: { mocks: { t } },
  });
}

/** Mounted and opened: the export works on the snapshot taken when the user opens it. */
async function mountExport(props: Record<string, unknown> = {}) {
  const wrapper = mountClosed(props);

  await wrapper.find('[data-testid="nh-export-open"]').trigger('click');
  await flushPromises();

  return wrapper;
}

type Wrapper = Awaited<ReturnType<typeof mountExport>>;

async function downloadedBundle(wrapper: Wrapper): Promise<{ name: string; text: string; bundle: NodeHealthBundle }> {
  download.mockClear();
  await wrapper.find('[data-testid="nh-export-download"]').trigger('click');
  await flushPromises();
  expect(download).toHaveBeenCalledTimes(1);
  const [name, text, type] = download.mock.calls[0];

  expect(type).toBe('application/json');

  return {
    name, text, bundle: JSON.parse(text)
  };
}

async function switchObfuscationOn(wrapper: Wrapper): Promise<void> {
  await wrapper.find('[data-testid="nh-export-obfuscate"] label.checkbox-container').trigger('click');
}

describe('DiagnosticsExport', () => {
  beforeEach(() => {
    download.mockReset().mockResolvedValue(undefined);
    copy.mockReset().mockResolvedValue(undefined);
    clearActionLog(cluster.mgmtId as string);
  });

  it('shows what was removed, per kind, before anything is downloaded', async() => {
    const wrapper = await mountExport();
    const items = wrapper.findAll('[data-testid="nh-export-redactions"] li');
    // The loader kept only the agent's status values of plan secrets: the rest never reached the browser.
    const unread = wrapper.find('[data-testid="nh-export-redaction-unreadField"]');

    expect(download).not.toHaveBeenCalled();
    expect(items.length).toBeGreaterThanOrEqual(6);
    expect(wrapper.find('[data-testid="nh-export-redaction-planSecretData"]').exists()).toBe(false);
    expect(wrapper.find('[data-testid="nh-export-redaction-password"]').exists()).toBe(true);
    expect(unread.text()).toMatch(/^nodeHealth\.export\.redaction\.unreadField \{"count":\d+\}$/);
    expect(Number(/"count":(\d+)/.exec(unread.text())?.[1])).toBeGreaterThan(20);
  });

  it('says when nothing needed removing', async() => {
    const cleanInput: DiagnosisInput = {
      targets: [],
      objects: [{
        apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' }, status: {}
      }],
      availability: {},
      now:          fixture.scenario.now
    };
    const wrapper = await mountExport({ take: sessionExport(cleanInput, diagnoseInput(cleanInput)), cluster: null });

    expect(wrapper.findAll('[data-testid="nh-export-redactions"] li')).toHaveLength(0);
    expect(wrapper.find('[data-testid="nh-export-redactions"]').text()).toContain('nodeHealth.export.nothingRedacted');
  });

  it('downloads the bundle with no secret in it, with the action log and what could not be read', async() => {
    recordAction({
      cluster: cluster.mgmtId as string, user: 'admin', action: 'remove-finalizers', target: 'Machine fleet-default/custom-5e3f9c7a4d65', result: 'succeeded'
    });
    const issues = [{
      input: 'bootstraps', kind: 'forbidden', status: 403, message: 'rkebootstraps.rke.cattle.io is forbidden'
    }];
    const forbidden: DiagnosisInput = { ...input, availability: { bootstraps: 'forbidden' } };
    const wrapper = await mountExport({ take: sessionExport(forbidden, diagnoseInput(forbidden), issues), rancherVersion: 'v2.10.1' });
    // What leaves is the session's diagnosis: the export diagnoses nothing again.
    const join = jest.spyOn(joinModule, 'join');

    expect(wrapper.find('[data-testid="nh-export-unreadable"]').text()).toContain('nodeHealth.export.input.bootstraps');
    const { name, text, bundle } = await downloadedBundle(wrapper);

    expect(name).toMatch(/^node-health-ef-rke2-2026-06-15T140000Z\.json$/);
    expect(bundle.format).toBe('node-health-bundle/v1');
    expect(bundle.generator).toEqual({
      name: 'node-health', rancherVersion: 'v2.10.1', extensionVersion: expect.stringMatching(/^\d+\.\d+\.\d+/)
    });
    expect(bundle.cluster?.mgmtId).toBe(cluster.mgmtId);
    expect(bundle.records).toHaveLength(report.records.length);
    expect(bundle.actionLog).toEqual([expect.objectContaining({ action: 'remove-finalizers', result: 'succeeded' })]);
    expect(bundle.unreadable).toEqual([{
      input: 'bootstraps', status: 403, reason: 'rkebootstraps.rke.cattle.io is forbidden'
    }]);
    expect(bundle.availability.bootstraps).toBe('forbidden');
    expect(leaks(text, fixture)).toEqual([]);
    expect(text).toContain('ef-wk-notready');
    expect(join).not.toHaveBeenCalled();
    join.mockRestore();
  });

  it('replaces hostnames and addresses in the download once obfuscation is switched on', async() => {
    const wrapper = await mountExport();
    const plain = await downloadedBundle(wrapper);

    await switchObfuscationOn(wrapper);
    expect(wrapper.find('[data-testid="nh-export-obfuscate"] [role="checkbox"]').attributes('aria-checked')).toBe('true');
    const hidden = await downloadedBundle(wrapper);

    expect(plain.bundle.obfuscated).toBe(false);
    expect(hidden.bundle.obfuscated).toBe(true);
    expect(plain.text).toContain('ef-wk-notready');
    expect(plain.text).toContain('10.9.1.18');
    expect(hidden.text).not.toContain('ef-wk-notready');
    expect(hidden.text).not.toContain('10.9.1.18');
    // Machine names are kept: support addresses machines by them.
    expect(hidden.bundle.records.map((r) => r.machine).sort()).toEqual(plain.bundle.records.map((r) => r.machine).sort());
    expect(leaks(hidden.text, fixture)).toEqual([]);
  });

  it('copies the Markdown report and says so', async() => {
    const wrapper = await mountExport();

    await wrapper.find('[data-testid="nh-export-copy"]').trigger('click');
    await flushPromises();
    expect(copy).toHaveBeenCalledTimes(1);
    const markdown = copy.mock.calls[0][0] as string;

    expect(markdown).toMatch(/^# nodeHealth\.report\.title/);
    expect(markdown).toContain('custom-c2a0d6e4b3f2');
    expect(markdown).not.toContain(MARK);
    expect(wrapper.find('[data-testid="nh-export-outcome"]').text()).toBe('nodeHealth.export.copied');
  });

  it('copies the obfuscated report when obfuscation is on', async() => {
    const wrapper = await mountExport();

    await switchObfuscationOn(wrapper);
    await wrapper.find('[data-testid="nh-export-copy"]').trigger('click');
    await flushPromises();
    expect(copy.mock.calls[0][0]).not.toContain('ef-wk-notready');
  });

  it('says when copying fails', async() => {
    copy.mockRejectedValue(new Error('clipboard blocked'));
    const wrapper = await mountExport();

    await wrapper.find('[data-testid="nh-export-copy"]').trigger('click');
    await flushPromises();
    expect(wrapper.find('[data-testid="nh-export-outcome"]').text()).toBe('nodeHealth.export.copyFailed {"message":"clipboard blocked"}');
  });

  it('downloads the CSV, one row per record, readable by spreadsheets as UTF-8', async() => {
    const wrapper = await mountExport();

    await wrapper.find('[data-testid="nh-export-csv"]').trigger('click');
    await flushPromises();
    const [name, text, type] = download.mock.calls[0];

    expect(name).toMatch(/\.csv$/);
    expect(type).toBe('text/csv;charset=utf-8');
    expect(text.startsWith('\uFEFFnodeHealth.export.csv.cluster,')).toBe(true);
    expect(text.trim().split('\r\n')).toHaveLength(report.records.length + 1);
    expect(leaks(text, fixture)).toEqual([]);
  });

  it('downloads the report file: both languages when the shell has loaded them, redacted, safe to open from disk', async() => {
    const messages = (lang: string) => load(readFileSync(join(__dirname, '../../pkg/node-health/l10n', `${ lang }.yaml`), 'utf8'));
    const $store = {
      state:   { i18n: { translations: { 'en-us': messages('en-us') } }, $extension: { getDynamic: (kind: string, lang: string) => (kind === 'l10n' && lang === 'zh-hans' ? [async() => ({ default: messages('zh-hans') })] : []) } },
      getters: { 'i18n/current': () => 'en-us' },
    };
    const wrapper = mount(DiagnosticsExport, {
      props: {
        take: sessionExport(input, report), cluster, rancherVersion: 'v2.11.0'
      },
      global: { mocks: { t, $store } },
    });

    await wrapper.find('[data-testid="nh-export-open"]').trigger('click');
    await flushPromises();
    download.mockClear();
    await wrapper.find('[data-testid="nh-export-html"]').trigger('click');
    await flushPromises();
    expect(download).toHaveBeenCalledTimes(1);
    const [name, html, type] = download.mock.calls[0];

    expect(name).toMatch(/^node-health-.*\.html$/);
    expect(type).toBe('text/html;charset=utf-8');
    expect(html).toContain('<meta http-equiv="Content-Security-Policy"');
    expect(leaks(html, fixture)).toEqual([]);
    const data = (lang: string) => JSON.parse(new RegExp(`<script type="application/json" id="nh-data-${ lang }">([^<]*)</script>`).exec(html)?.[1] ?? 'null');
    const en = data('en-us');
    const zh = data('zh-hans');

    // The language shown now through the tab's own translation, the other from the extension's messages.
    expect(en.ui['status.error']).toBe('nodeHealth.status.error');
    expect(zh.ui['status.error']).toBe('错误');
    expect(en.source.facts).toContainEqual(['nodeHealth.htmlReport.source.rancherVersion', 'v2.11.0']);
    expect(zh.source.facts[0]).toEqual(['来源', '节点健康标签页']);
    expect(zh.report.records.map((r: any) => r.key)).toEqual(en.report.records.map((r: any) => r.key));
    expect(en.report.records).toHaveLength(report.records.length);
  });

  it('offers only to open the export until asked, and closes again', async() => {
    const wrapper = mountClosed();

    expect(wrapper.find('[data-testid="nh-export-preview"]').exists()).toBe(false);
    expect(wrapper.find('[data-testid="nh-export-download"]').exists()).toBe(false);
    await wrapper.find('[data-testid="nh-export-open"]').trigger('click');
    await flushPromises();
    expect(wrapper.find('[data-testid="nh-export-preview"]').text()).toContain(`nodeHealth.export.snapshot {"time":"${ report.now.slice(0, 10) } ${ report.now.slice(11, 19) } UTC"}`);
    await wrapper.find('[data-testid="nh-export-close"]').trigger('click');
    expect(wrapper.find('[data-testid="nh-export-preview"]').exists()).toBe(false);
  });

  it('downloads the snapshot it showed, until the user takes the latest data', async() => {
    // The session's diagnosis moves on with the tab's refreshes.
    let now = report;
    const take = jest.fn((actionLog: unknown[]) => sessionExport(input, now)(actionLog));
    const wrapper = await mountExport({ take });

    now = diagnoseInput({ ...input, now: '2026-06-15T15:00:00Z' });
    expect((await downloadedBundle(wrapper)).bundle.createdAt).toBe(new Date(report.now).toISOString());
    await wrapper.find('[data-testid="nh-export-obfuscate"] label.checkbox-container').trigger('click');
    expect((await downloadedBundle(wrapper)).bundle.createdAt).toBe(new Date(report.now).toISOString());
    expect(take).toHaveBeenCalledTimes(1);
    await wrapper.find('[data-testid="nh-export-refresh"]').trigger('click');
    await flushPromises();
    expect((await downloadedBundle(wrapper)).bundle.createdAt).toBe('2026-06-15T15:00:00.000Z');
  });

  it('says when the snapshot cannot be taken, and offers it again', async() => {
    const wrapper = await mountExport({ take: () => Promise.reject(new Error('the session is not set up')) });

    expect(wrapper.find('[data-testid="nh-export-preview"]').exists()).toBe(false);
    expect(wrapper.find('[data-testid="nh-export-outcome"]').text()).toBe('nodeHealth.export.downloadFailed {"message":"the session is not set up"}');
    expect(wrapper.find('[data-testid="nh-export-open"]').exists()).toBe(true);
  });

  it('says when a download fails', async() => {
    download.mockRejectedValue(new Error('blocked by the browser'));
    const wrapper = await mountExport();

    await wrapper.find('[data-testid="nh-export-download"]').trigger('click');
    await flushPromises();
    expect(wrapper.find('[data-testid="nh-export-outcome"]').text()).toContain('nodeHealth.export.downloadFailed');
  });
});
