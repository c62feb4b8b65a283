/**
 * Mounts the fleet's views (the cluster list's and Machines list's cells, the fleet page) the way the dashboard
 * does: with a real vuex store whose `management/request` is the Steve stand-in, the clock at the scenario's time.
 */
import { mount, RouterLinkStub, VueWrapper } from '@vue/test-utils';
import type { Component } from 'vue';
import type { Store } from 'vuex';
import type { Scenario } from '../../scenarios/types';
import { fakeSteve } from './tab-steve';
import type { FakeSteve, FakeSteveOptions } from './tab-steve';
import { settle, testStore } from './tab-harness';
import type { StoreHolds } from './tab-harness';

/** Translations with their arguments, so a test can see counts and names. */
export const tWithArgs = (key: string, args?: Record<string, unknown>) => `%${ key }%${ args && Object.keys(args).length ? JSON.stringify(args) : '' }`;

export interface FleetMount {
  wrapper: VueWrapper<any>;
  store: Store<any>;
  steve: FakeSteve;
  router: { push: jest.Mock };
}

export function fleetContext(scenario: Scenario, options: FakeSteveOptions & { storeHolds?: StoreHolds } = {}): { store: Store<any>; steve: FakeSteve } {
  const { storeHolds, ...steveOptions } = options;
  const steve = fakeSteve(scenario, steveOptions);

  jest.spyOn(Date, 'now').mockReturnValue(Date.parse(scenario.now));

  return { steve, store: testStore(steve, storeHolds) };
}

/** What the browser reports of every view as soon as it is observed: on screen, unless the test hides the page's views. */
let viewsShown = true;

class OnScreen {
  private readonly callback: IntersectionObserverCallback;

  constructor(callback: IntersectionObserverCallback) {
    this.callback = callback;
  }

  observe(target: Element): void {
    this.callback([{ isIntersecting: viewsShown, target } as unknown as IntersectionObserverEntry], this as unknown as IntersectionObserver);
  }

  unobserve(): void {
    // nothing kept per element
  }

  disconnect(): void {
    // nothing to release
  }
}

/**
 * `route`: the page's; `shown: false` mounts the view in a part of the page that is not displayed (a hidden tab);
 * `t`: the components' translator (the shell's own, to see real text).
 */
export async function mountFleetView(
  component: Component, context: { store: Store<any>; steve: FakeSteve }, props: Record<string, unknown> = {}, route?: Record<string, unknown>, shown = true,
  t: (key: string, args?: Record<string, unknown>) => string = tWithArgs
): Promise<FleetMount> {
  const router = { push: jest.fn() };

  viewsShown = shown;

  // jest.setup.ts defines it writable but not configurable
  (window as any).IntersectionObserver = OnScreen;
  const wrapper = mount(component, {
    props,
    attachTo: document.body,
    global:   {
      plugins:    [context.store],
      mocks:      {
        $store: context.store, t, $router: router, ...(route ? { $route: route } : {})
      },
      stubs:      { 'router-link': RouterLinkStub },
      // Where vue-router puts the current route for every component of the app.
      config:     { globalProperties: (route ? { $route: route } : {}) as any },
      directives: {
        'ui-context': {}, 'trim-whitespace': {}, shortkey: {}
      },
    },
  });

  await settle();

  return {
    ...context, wrapper, router
  };
}

export { settle };
