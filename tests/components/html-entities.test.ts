/**
 * Text is escaped once. The shell's `t(key, args)` returns HTML-escaped text and Vue's `{{ }}` escapes it again,
 * so a component that shows `t()`'s text as is says "the machine&#39;s agent". Here every dialog, panel and row
 * detail is mounted with the shell's own `t` (its i18n plugin's `stringFor`) over the extension's translations,
 * in English and in Simplified Chinese, and no text or attribute on screen may hold an HTML entity.
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import { load } from 'js-yaml';
import {
  enableAutoUnmount, flushPromises, mount, RouterLinkStub, VueWrapper
} from '@vue/test-utils';
import { stringFor } from '@shell/plugins/i18n';
import NodeDetail from '@pkg/node-health/components/NodeDetail.vue';
import DiagnosticsExport from '@pkg/node-health/components/DiagnosticsExport.vue';
import HostReports from '@pkg/node-health/components/HostReports.vue';
import RegistrationCommandDialog from '@pkg/node-health/dialog/RegistrationCommandDialog.vue';
import RemoveFinalizersDialog from '@pkg/node-health/dialog/RemoveFinalizersDialog.vue';
import MachineActionDialog from '@pkg/node-health/dialog/MachineActionDialog.vue';
import type { NodeRecord } from '@pkg/node-health/engine';
import type { RegistrationAccess, RegistrationCommandRequest, RemoveFinalizersRequest } from '@pkg/node-health/actions';
import { createTranslator } from '@pkg/node-health/report/translate';
import type { Translate } from '@pkg/node-health/report/translate';
import { buildScenario, SCENARIO_NAMES } from '../../scenarios/catalog';
import { diagnoseScenario } from '../unit/engine/helpers';
import { diagnoseInput } from '@pkg/node-health/data';
import { kubectlObjects, sessionExport, tabInput } from '../unit/export/fixtures';
import {
  NOW_MS, NS, steveBootstrap, steveMachine, stuckRecord
} from '../unit/actions/fixtures';
import { mountTab } from './tab-harness';
import { dialogStore, httpError } from './dialog-helpers';
import { providedContext } from './record-context';
import type { Answer } from './dialog-helpers';

jest.mock('@shell/utils/clipboard', () => ({ copyTextToClipboard: jest.fn(() => Promise.reject(new Error('the page isn\'t focused'))) }));
jest.mock('@shell/utils/download', () => ({ downloadFile: jest.fn() }));
// eslint-disable-next-line @typescript-eslint/no-var-requires
const { copyTextToClipboard } = require('@shell/utils/clipboard') as { copyTextToClipboard: jest.Mock };
// eslint-disable-next-line @typescript-eslint/no-var-requires
const { downloadFile } = require('@shell/utils/download') as { downloadFile: jest.Mock };

enableAutoUnmount(afterEach);

const L10N = join(__dirname, '../../pkg/node-health/l10n');
const EN = load(readFileSync(join(L10N, 'en-us.yaml'), 'utf8'));
const LOCALES = {
  'en-us':   createTranslator(EN, 'en-us'),
  'zh-hans': createTranslator(load(readFileSync(join(L10N, 'zh-hans.yaml'), 'utf8')), 'zh-hans', EN),
};

type Locale = keyof typeof LOCALES;

/** The shell's `t` as its i18n plugin installs it on every component: escaped unless asked for raw. */
function shellT(this: { $store: any }, key: string, args?: Record<string, unknown>, raw?: boolean): string {
  return stringFor(this.$store, key, args, raw);
}

/** A store whose i18n getter is the shell's, over the locale's messages, answering requests with `answer`. */
function i18nStore(translate: Translate, answer: Answer = () => ({})) {
  const store = dialogStore(answer);

  store.getters['i18n/t'] = translate as any;

  return store;
}

const ENTITY = /&(#\d+|#x[0-9a-f]+|quot|amp|lt|gt|apos);/i;

/** Every text node and attribute value under the wrapper's element that holds an HTML entity. */
function entities(wrapper: VueWrapper<any>): string[] {
  const root = wrapper.element as Element;
  const found: string[] = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);

  for (let n: Node | null = root; n; n = walker.nextNode()) {
    if (n.nodeType === Node.TEXT_NODE) {
      if (ENTITY.test(n.textContent ?? '')) {
        found.push((n.textContent ?? '').trim());
      }
    } else {
      for (const a of Array.from((n as Element).attributes)) {
        if (ENTITY.test(a.value)) {
          found.push(`${ a.name }="${ a.value }"`);
        }
      }
    }
  }

  return found;
}

const REGISTRATION_TOKENS = {
  type: 'collection',
  data: [{
    type:                'clusterRegistrationToken',
    id:                  'c-m-test:default-token',
    name:                'default-token',
    clusterId:           'c-m-test',
    token:               'x7b9kq2m4n8p6r5t3v1w0y9z8a7b6c5d4e3f2g1h0j9k8l7m6n5p4q',
    nodeCommand:         'curl -fL https://rancher.example.com/system-agent-install.sh | sudo  sh -s - --server https://rancher.example.com --label \'cattle.io/os=linux\' --token x7b9kq2m4n8p6r5t3v1w0y9z8a7b6c5d4e3f2g1h0j9k8l7m6n5p4q',
    insecureNodeCommand: 'curl --insecure -fL https://rancher.example.com/system-agent-install.sh | sudo  sh -s - --server https://rancher.example.com --label \'cattle.io/os=linux\' --token x7b9kq2m4n8p6r5t3v1w0y9z8a7b6c5d4e3f2g1h0j9k8l7m6n5p4q',
  }],
};

function registration(locale: Locale, answer: Answer, access: RegistrationAccess = { allowed: true }) {
  const store = i18nStore(LOCALES[locale], answer);
  const request: RegistrationCommandRequest = {
    cluster: {
      mgmtId: 'c-m-test', name: 'prod', namespace: NS
    },
    record:  stuckRecord({ etcd: true }),
    context: { clusterId: 'c-m-test', user: 'jane' },
    access,
  };

  return mount(RegistrationCommandDialog, {
    props:  { resources: [request] },
    global: { mocks: { $store: store, t: shellT } },
  });
}

function finalizers(locale: Locale, answer: Answer, focus: RemoveFinalizersRequest['focus'] = 'finalizers') {
  const store = i18nStore(LOCALES[locale], answer);
  const request: RemoveFinalizersRequest = {
    record:  stuckRecord({ etcd: true }),
    context: {
      clusterId: 'c-m-test', user: 'jane', onDone: jest.fn(), now: () => NOW_MS
    },
    focus,
  };

  return mount(RemoveFinalizersDialog, {
    props:  { resources: [request] },
    global: { mocks: { $store: store, t: shellT } },
  });
}

describe.each(Object.keys(LOCALES) as Locale[])('no HTML entity on screen (%s)', (locale) => {
  const translate = LOCALES[locale];

  it('in the row detail of every record of every scenario', () => {
    for (const name of SCENARIO_NAMES) {
      const s = buildScenario(name);

      for (const record of diagnoseScenario(s).records) {
        const wrapper = mount(NodeDetail, {
          props:  { record },
          global: {
            provide: providedContext(Date.parse(s.now)), mocks: { $store: i18nStore(translate), t: shellT }, stubs: { 'router-link': RouterLinkStub }
          },
        });

        expect({
          scenario: name, record: record.key, entities: entities(wrapper)
        }).toEqual({
          scenario: name, record: record.key, entities: []
        });
        wrapper.unmount();
      }
    }
  });

  it('in the registration dialog: the steps, the fields, their help, the command and what is wrong with the input', async() => {
    const wrapper = registration(locale, () => REGISTRATION_TOKENS);

    await flushPromises();
    expect(wrapper.find('[data-testid="nh-command"]').exists()).toBe(true);
    // jsdom has no clipboard API: the dialog offers to select the command instead.
    expect(wrapper.find('[data-testid="nh-fallback"]').exists()).toBe(true);
    expect(entities(wrapper)).toEqual([]);
    // Input the dialog refuses, quotes included: each problem is said with the value it quotes.
    await wrapper.find('textarea[data-testid="nh-labels"]').setValue('team="a b"\nit\'s=x');
    await wrapper.find('input[data-testid="nh-no-proxy"]').setValue('a b');
    expect(wrapper.findAll('[data-testid="nh-problem"].error').length).toBeGreaterThan(0);
    expect(entities(wrapper)).toEqual([]);
  });

  it.each([
    ['refused', () => Promise.reject(httpError(403))],
    ['failed', () => Promise.reject(httpError(500))],
    ['none', () => ({ type: 'collection', data: [] })],
  ])('in the registration dialog when the token is %s', async(_state, answer) => {
    const wrapper = registration(locale, answer as Answer);

    await flushPromises();
    expect(wrapper.find('[data-testid="nh-command"]').exists()).toBe(false);
    expect(entities(wrapper)).toEqual([]);
  });

  it.each(['noPermission', 'notLoaded'] as const)('in the registration dialog for a user who may not have the token (%s)', async(reason) => {
    const wrapper = registration(locale, () => REGISTRATION_TOKENS, { allowed: false, reason });

    await flushPromises();
    expect(wrapper.find('[data-testid="nh-token-not-allowed"]').exists()).toBe(true);
    expect(entities(wrapper)).toEqual([]);
  });

  it.each(['finalizers', 'etcd'] as const)('in the finalizer dialog (%s): its review, checks and facts, and a refused write', async(focus) => {
    // Reads give the objects reviewed; the write is refused, as when someone else changed the Machine.
    const answer: Answer = ({ method, url }: any) => {
      if (method !== 'GET') {
        return Promise.reject(httpError(409, { message: 'the object has been modified; please apply your changes to the latest version' }));
      }

      return String(url).includes('rkebootstraps') ? steveBootstrap({ etcd: true }) : steveMachine({ etcd: true });
    };
    const wrapper = finalizers(locale, answer, focus);

    await flushPromises();
    const show = wrapper.find('[data-testid="nh-show-finalizers"]');

    if (show.exists()) {
      await show.trigger('click');
    }
    expect(entities(wrapper)).toEqual([]);
    const confirm = wrapper.find('[data-testid="nh-confirm-input"]');

    if (confirm.exists()) {
      await confirm.setValue('custom-2d74d4c9a104');
    }
    const button = wrapper.find(focus === 'finalizers' ? '[data-testid="nh-remove-async-button"]' : '[data-testid="nh-etcd-async-button"]');

    await button.trigger('click');
    await flushPromises();
    expect(entities(wrapper)).toEqual([]);
  });

  it.each([['force-delete', 'infra-delete-failed'], ['delete-machine', 'windows-node-ref'], ['resume-machine', 'node-signals']])('in the %s dialog, its checks and its refusal', async(action, scenario) => {
    const s = buildScenario(scenario);
    const record = diagnoseScenario(s, 'steve').records.find((r) => r.preflight?.some((p) => p.id === action)) as NodeRecord;
    const store = i18nStore(LOCALES[locale], () => ({}));
    const wrapper = mount(MachineActionDialog, {
      props:  {
        resources: [{
          action,
          record,
          context: {
            clusterId: 'c', user: 'jane', onDone: jest.fn(), now: () => Date.parse(s.now)
          }
        }]
      },
      global: { mocks: { $store: store, t: shellT } },
    });

    await flushPromises();
    expect(wrapper.text().length).toBeGreaterThan(100);
    expect(entities(wrapper)).toEqual([]);
  });

  it('in the export panel, with an input it could not read and a copy that failed', async() => {
    const s = buildScenario(SCENARIO_NAMES[0]);
    const input = tabInput(kubectlObjects(s), s.now);
    const report = diagnoseInput(input);
    const wrapper = mount(DiagnosticsExport, {
      props: {
        take: sessionExport(input, report, [{
          input: 'planSecrets', kind: 'forbidden', status: 403, message: 'secrets is forbidden: User "u-jane" cannot list resource "secrets"'
        }]),
        cluster: report.clusters[0],
      },
      global: { mocks: { $store: i18nStore(translate), t: shellT } },
    });

    await wrapper.find('[data-testid="nh-export-open"]').trigger('click');
    await flushPromises();
    await wrapper.find('[data-testid="nh-export-copy"]').trigger('click');
    await flushPromises();
    expect(wrapper.find('[data-testid="nh-export-outcome"]').exists()).toBe(true);
    expect(entities(wrapper)).toEqual([]);
  });

  it('in the Markdown report and the CSV the export panel makes', async() => {
    const s = buildScenario('every-failure');
    const input = tabInput(kubectlObjects(s), s.now);
    const report = diagnoseInput(input);
    const wrapper = mount(DiagnosticsExport, {
      props:  { take: sessionExport(input, report), cluster: report.clusters[0] },
      global: { mocks: { $store: i18nStore(translate), t: shellT } },
    });

    copyTextToClipboard.mockImplementationOnce(() => Promise.resolve());
    downloadFile.mockClear();
    await wrapper.find('[data-testid="nh-export-open"]').trigger('click');
    await flushPromises();
    await wrapper.find('[data-testid="nh-export-copy"]').trigger('click');
    await wrapper.find('[data-testid="nh-export-csv"]').trigger('click');
    await flushPromises();
    const markdown: string = copyTextToClipboard.mock.calls[copyTextToClipboard.mock.calls.length - 1][0];
    const csv: string = downloadFile.mock.calls[0][1];

    // The Markdown renderer writes < and > of quoted text as &lt; &gt; on purpose; quotes are left as they are.
    const escapedTwice = /&#\d+;|&quot;/;

    expect(markdown.length).toBeGreaterThan(1000);
    expect(markdown.split('\n').filter((line) => escapedTwice.test(line))).toEqual([]);
    expect(csv.split('\n').filter((line) => escapedTwice.test(line))).toEqual([]);
  });

  it('in the host reports panel, with a report it refused', async() => {
    const wrapper = mount(HostReports, {
      props:  { reports: [] },
      global: { mocks: { $store: i18nStore(translate), t: shellT } },
    });

    await wrapper.find('[data-testid="node-health-host-reports-input"]').setValue('{"kind": "not a host report"');
    await wrapper.find('[data-testid="node-health-host-reports-add"]').trigger('click');
    expect(entities(wrapper)).toEqual([]);
  });

  it.each(SCENARIO_NAMES.slice(0, 3))('on the tab of %s: its summary, banners and rows', async(name) => {
    const tab = mountTab(buildScenario(name), { i18n: translate, t: shellT });

    await tab.show();
    expect(tab.wrapper.findAll('tr.main-row').length).toBeGreaterThan(0);
    expect(entities(tab.wrapper)).toEqual([]);
  });
});
