/**
 * Times in the dashboard follow the user's date and time format preferences (the shell's dateTimeFormat), in the
 * messages' time arguments and where a component says a time; without a store of preferences they are said as
 * the reports say them, in UTC.
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import { load } from 'js-yaml';
import day from 'dayjs';
import { defineComponent } from 'vue';
import { mount } from '@vue/test-utils';
import { useTranslator } from '@pkg/node-health/composables/use-translator';
import { createTranslator } from '@pkg/node-health/report/translate';

const en = createTranslator(load(readFileSync(join(__dirname, '../../pkg/node-health/l10n/en-us.yaml'), 'utf8')), 'en-us');
const AT = '2026-01-15T08:04:03Z';

const Probe = defineComponent({
  setup() {
    return useTranslator();
  },
  template: `<div><span class="at">{{ sayAt('${ AT }') }}</span><span class="since">{{ tr('nodeHealth.tab.blocking.since', { duration: 7200000, time: '${ AT }' }) }}</span><span class="odd">{{ sayAt('not a time') }}</span></div>`,
});

function mountProbe(prefs?: Record<string, string>) {
  return mount(Probe, {
    global: {
      mocks: {
        t: (key: string, args?: Record<string, any>) => en(key, args),
        ...(prefs ? { $store: { getters: { 'prefs/get': (key: string) => prefs[key] } } } : {}),
      },
    },
  });
}

describe('times in the dashboard', () => {
  it('follow the user\'s date and time formats, in a component and in a message\'s time', () => {
    const wrapper = mountProbe({ 'date-format': 'YYYY-MM-DD', 'time-format': 'HH:mm:ss' });
    const expected = day(AT).format('YYYY-MM-DD HH:mm:ss');

    expect(wrapper.find('.at').text()).toBe(expected);
    expect(wrapper.find('.since').text()).toBe(`Waiting for 2h (since ${ expected }).`);
    // What is not a time is shown as it is.
    expect(wrapper.find('.odd').text()).toBe('not a time');
  });

  it('are said in UTC, as the reports say them, where no preferences can be read', () => {
    const wrapper = mountProbe();

    expect(wrapper.find('.at').text()).toBe('2026-01-15 08:04:03 UTC');
    expect(wrapper.find('.since').text()).toBe('Waiting for 2h (since 2026-01-15 08:04:03 UTC).');
  });
});
