/**
 * The fleet's state for a component: the store's one fleet source, its state as a shallow ref that follows every
 * refresh, and the component counted as on screen while the browser shows it (polling runs while any is).
 */
import {
  getCurrentInstance, onBeforeUnmount, onMounted, shallowRef, toRaw
} from 'vue';
import type { ShallowRef } from 'vue';
import { useStore } from 'vuex';
import { STEVE_TYPES } from '../engine';
import { clusterTarget } from '../data/target';
import { watchVisibility } from '../data/visibility';
import { fleetSourceFor } from './source';
import type { FleetSource, FleetState } from './source';

/** The provisioning cluster whose page a route shows, if it does: `<namespace>/<name>`. */
export function clusterPageOf(route: { params?: Record<string, unknown> } | undefined | null): string | null {
  const p = route?.params ?? {};

  return p.resource === STEVE_TYPES.cluster && typeof p.namespace === 'string' && typeof p.id === 'string' ? `${ p.namespace }/${ p.id }` : null;
}

/**
 * `clusterPage` (`<namespace>/<name>`): only that cluster, as its tab loads it, for a view on the cluster's own page.
 */
export function useFleet(clusterPage: string | null = null): { source: FleetSource; state: ShallowRef<FleetState> } {
  const store = useStore() as any;
  const cluster = clusterPage ? {
    key:    clusterPage,
    target: () => clusterTarget(store.getters['management/byId'](STEVE_TYPES.cluster, clusterPage)),
  } : undefined;
  const source = fleetSourceFor(store, toRaw, cluster);
  const state = shallowRef(source.state);
  const view = {};
  const instance = getCurrentInstance();
  const unsubscribe = source.subscribe(() => {
    state.value = source.state;
  });
  let stopWatching: (() => void) | null = null;

  // On screen while the browser shows it: Rancher keeps a page's hidden tabs mounted (a cluster page's Machines
  // tab under its Node Health tab), and their cells must not start a load.
  onMounted(() => {
    const el = instance?.proxy?.$el;

    stopWatching = watchVisibility(el, (visible) => source.setOnScreen(view, visible));
  });
  onBeforeUnmount(() => {
    stopWatching?.();
    unsubscribe();
    source.setOnScreen(view, false);
  });

  return { source, state };
}
