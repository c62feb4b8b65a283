// Globals that Rancher's shell components assume an app has installed (the dashboard's jest.setup.js
// and kubewarden-ui's set-up do the same): the FloatingVue tooltips plugin, the v-select component,
// the clean-html / clean-tooltip / stripped-aria-label directives, `t` / `$store` and the fetch mixin on every component.
import { TextDecoder, TextEncoder } from 'util';
import { config } from '@vue/test-utils';
import FloatingVue from 'floating-vue';
import vSelect from 'vue-select';
import cleanHtmlDirective from '@shell/directives/clean-html';
import cleanTooltipDirective from '@shell/directives/clean-tooltip';
import strippedAriaLabelDirective from '@shell/directives/strip-html-aria-label';
import fetchMixin from '@shell/mixins/fetch.client.js';
import '@shell/plugins/replaceall';

Object.assign(global, { TextEncoder, TextDecoder });

// A component test mounts the shell's table and loads a cluster in jsdom: a second or two, several on a busy
// 2-core machine. The limit is there to stop a test that hangs, not to time one.
jest.setTimeout(20000);

// Translations render as %key% so that a test can see which key a component asked for.
const translate = (key: string) => `%${ key }%`;

config.global.plugins = [...config.global.plugins, FloatingVue];
// The dashboard mixes its fetch state into every component (shell initialize/entry.js): a component's own `state`
// would be shadowed by it there, and is here too.
config.global.mixins = [...(config.global.mixins ?? []), fetchMixin];
config.global.components = { ...config.global.components, 'v-select': vSelect };
config.global.mocks = {
  ...config.global.mocks,
  t:      translate,
  $store: {
    getters:  {},
    dispatch: jest.fn(),
    commit:   jest.fn(),
  },
};
config.global.directives = {
  ...config.global.directives,
  t: {
    mounted(el: HTMLElement, binding: { value: string }) {
      el.textContent = translate(binding.value);
    },
    updated(el: HTMLElement, binding: { value: string }) {
      el.textContent = translate(binding.value);
    },
  },
  'clean-html':          cleanHtmlDirective,
  'clean-tooltip':       cleanTooltipDirective,
  'stripped-aria-label': strippedAriaLabelDirective,
};
// Shell's <t k="..."/> component needs the i18n store; the stub keeps the slot content instead.
config.global.stubs = { ...config.global.stubs, t: { template: '<span><slot /></span>' } };

jest.mock('@shell/composables/useI18n', () => ({
  useI18n() {
    return { t: (key: string, args?: Record<string, unknown>) => `${ key }${ args ? `-${ JSON.stringify(args) }` : '' }` };
  },
}));

beforeAll(() => {
  // Not implemented by jsdom; shell components call them while mounting.
  Object.defineProperty(window, 'matchMedia', { value: jest.fn().mockImplementation(() => ({ addListener: jest.fn(), removeListener: jest.fn() })) });
  Object.defineProperty(HTMLCanvasElement.prototype, 'getContext', {
    value: jest.fn().mockImplementation(() => ({
      createLinearGradient: jest.fn(),
      fillRect:             jest.fn(),
      getImageData:         jest.fn(() => ({ data: [] })),
    })),
  });
  Object.defineProperty(window, 'IntersectionObserver', {
    writable: true,
    value:    jest.fn().mockImplementation(() => ({
      observe:    jest.fn(),
      unobserve:  jest.fn(),
      disconnect: jest.fn(),
    })),
  });
});

beforeEach(() => {
  jest.restoreAllMocks();
  // A fresh store per test, so that one test's stubbed getters or dispatches never leak into the next.
  config.global.mocks = {
    ...config.global.mocks,
    $store: {
      getters:  { 'i18n/t': jest.fn() },
      dispatch: jest.fn(),
      commit:   jest.fn(),
    },
  };
});
