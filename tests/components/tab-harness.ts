/**
 * Mounts the Node Health tab the way the dashboard does: on a provisioning cluster, with a real vuex
 * store (the shell's SortableTable needs one) whose `management/request` is answered by the Steve
 * stand-in, the clock at the scenario's time, and visibility under the test's control.
 */
import { flushPromises, mount, RouterLinkStub, VueWrapper } from '@vue/test-utils';
import type { Component } from 'vue';
import { createStore, Store } from 'vuex';
import Select from '@shell/components/form/Select';
import NodeHealthTab from '@pkg/node-health/tabs/NodeHealthTab.vue';
import { STEVE_TYPES } from '@pkg/node-health/engine';
import { steveType, toSteve } from '../../scenarios/steve';
import type { Scenario } from '../../scenarios/types';
import { clusterResource, fakeSteve, mgmtClustersById } from './tab-steve';
import type { FakeSteve, FakeSteveOptions } from './tab-steve';
import type { Translate } from '@pkg/node-health/report/translate';

/** The shell's `t` on every component: `t(key, args, raw)`. */
export type ComponentT = (key: string, args?: Record<string, unknown>, raw?: boolean) => string;

/** Per Steve type, the complete lists the dashboard store holds (the cluster page's own findAll). */
export type StoreHolds = Record<string, unknown[]>;

/** Per Steve type, objects the store holds by id (the dashboard loads every management cluster at login). */
export type StoreById = Record<string, Record<string, unknown>>;

export function testStore(
  steve: Pick<FakeSteve, 'dispatch' | 'options'>, holds: StoreHolds = {}, byId: StoreById = {}, i18n: Translate = (key) => `%${ key }%`
): Store<any> {
  return createStore({
    state:   { holds, byId },
    getters: {
      'prefs/get':                                 () => () => undefined,
      'resource-fetch/isTooManyItemsToAutoUpdate': () => false,
      'resource-fetch/manualRefreshIsLoading':     () => false,
      activeNamespaceCache:                        () => ({}),
      'i18n/t':                                    () => i18n,
      'i18n/exists':                               () => () => true,
      'auth/principalId':                          () => 'local://u-test',
      'auth/v3User':                               () => ({ username: 'admin' }),
      'management/byId':                           (state) => (type: string, id: string) => state.byId[type]?.[id] ??
        (state.holds[type] ?? []).find((o: any) => o?.id === id),
      'rancher/byId':                              () => () => undefined,
      'features/get':                              () => (name: string) => name === 'ui-sql-cache' && !!steve.options.sqlCache,
      'management/all':                            (state) => (type: string) => state.holds[type] ?? [],
      'management/haveAll':                        (state) => (type: string) => type in state.holds,
    },
    actions: {
      'management/request':     (_ctx, payload) => steve.dispatch('management/request', payload),
      'management/promptModal': (_ctx, payload) => steve.dispatch('management/promptModal', payload),
    },
  });
}

type Observer = { callback: IntersectionObserverCallback; disconnected: boolean };

export interface MountedTab {
  wrapper: VueWrapper<any>;
  store: Store<any>;
  steve: FakeSteve;
  /** make the tab visible (as the shell's Tabbed does when the tab is selected) and let the first load finish */
  show(): Promise<void>;
  hide(): void;
  settle(): Promise<void>;
}

const observers: Observer[] = [];

/** IntersectionObserver that reports what the test says. */
class TestIntersectionObserver {
  private readonly entry: Observer;

  constructor(callback: IntersectionObserverCallback) {
    this.entry = { callback, disconnected: false };
    observers.push(this.entry);
  }

  observe(): void {
    // the test says when the tab is visible (notify)
  }

  unobserve(): void {
    // nothing observed per element
  }

  disconnect(): void {
    this.entry.disconnected = true;
  }
}

function notify(visible: boolean): void {
  for (const o of observers) {
    if (!o.disconnected) {
      o.callback([{ isIntersecting: visible } as IntersectionObserverEntry], {} as IntersectionObserver);
    }
  }
}

export async function settle(): Promise<void> {
  // The first load starts once the page has painted (an animation frame); the poller starts a load on a zero
  // timeout; the fake Steve answers on microtasks; the table draws a new page's rows over a few frames.
  // Enough rounds for a page of 50 new rows, drawn a few a frame (../../pkg/node-health/data/row-drip.ts).
  for (let i = 0; i < 8; i++) {
    await new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)));
    await new Promise((resolve) => setTimeout(resolve, 0));
    await flushPromises();
  }
}

/**
 * Mounts the tab on a scenario's cluster, with the clock at the scenario's time; `route` is the page's route
 * (its hash names the tab the page was opened on); `storeHolds` what the dashboard store already holds;
 * `i18n` the store's translations and `t` the components' (by default both say `%key%`).
 */
export function mountTab(
  scenario: Scenario,
  options: FakeSteveOptions & {
    storeHolds?: StoreHolds; storeHasMgmtClusters?: boolean; steve?: FakeSteve; i18n?: Translate; t?: ComponentT;
    /** the tab to mount: the cluster's (default) or a Machine's or Node's own (RecordHealthTab) */
    component?: Component;
  } = {},
  resource = clusterResource(scenario), route?: { hash: string }
): MountedTab {
  const {
    storeHolds, storeHasMgmtClusters = true, steve: given, i18n, t, component = NodeHealthTab, ...steveOptions
  } = options;
  const steve = given ?? fakeSteve(scenario, steveOptions);
  const store = testStore(steve, storeHolds, storeHasMgmtClusters ? mgmtClustersById(scenario) : {}, i18n);

  jest.spyOn(Date, 'now').mockReturnValue(Date.parse(scenario.now));
  observers.length = 0;
  // jest.setup.ts defines it writable but not configurable
  (window as any).IntersectionObserver = TestIntersectionObserver;

  const wrapper = mount(component as typeof NodeHealthTab, {
    props:    { resource },
    attachTo: document.body,
    global:   {
      plugins:    [store],
      mocks:      {
        $store: store, ...(route ? { $route: route } : {}), ...(t ? { t } : {})
      },
      stubs:      { 'router-link': RouterLinkStub },
      // Registered globally by the dashboard; SortableTable uses them.
      directives: {
        'ui-context': {}, 'trim-whitespace': {}, shortkey: {}
      },
    },
  });

  return {
    wrapper,
    store,
    steve,
    async show() {
      notify(true);
      await settle();
    },
    hide() {
      notify(false);
    },
    settle,
  };
}

type FilterName = 'status' | 'role';

function filterSelect(wrapper: VueWrapper<any>, name: FilterName): VueWrapper<any> {
  const select = wrapper.findAllComponents(Select).find((c) => c.vm.$attrs['data-testid'] === `node-health-filter-${ name }`);

  if (!select) {
    throw new Error(`no ${ name } filter`);
  }

  return select as VueWrapper<any>;
}

/** Picks an option of one of the table's filters (the shell's Select), as choosing it in the list does. */
export async function chooseFilter(wrapper: VueWrapper<any>, name: FilterName, value: string): Promise<void> {
  const select = filterSelect(wrapper, name);

  expect(select.props('options').map((o: { value: string }) => o.value)).toContain(value);
  select.vm.$emit('update:value', value);
  await settle();
}

/** Clicks a column's header (by its label's key) and lets the session's page come. */
export async function sortByHeader(t: MountedTab, labelKey: string): Promise<void> {
  const th = t.wrapper.findAll('th').find((h) => h.text().includes(`%${ labelKey }%`));

  await th!.find('.table-header-container, div').trigger('click');
  await t.settle();
}

/** The option a filter shows as chosen. */
export function filterValue(wrapper: VueWrapper<any>, name: FilterName): string {
  return filterSelect(wrapper, name).props('value');
}

/** What the cluster page has loaded into the store before it draws its tabs: every Machine and management Node. */
export function pageStore(s: Scenario): StoreHolds {
  const holds: StoreHolds = {};

  for (const obj of s.objects) {
    const type = steveType(obj);

    if (type === STEVE_TYPES.machine || type === STEVE_TYPES.mgmtNode) {
      (holds[type] ||= []).push(toSteve(obj));
    }
  }

  return holds;
}

/** Holds every answer of Steve until the returned function is called: the tab's load is on its way meanwhile. */
export function holdAnswers(t: Pick<MountedTab, 'steve'>): () => void {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const answer = t.steve.dispatch;

  t.steve.dispatch = async(type, payload) => {
    await gate;

    return answer(type, payload);
  };

  return release;
}
