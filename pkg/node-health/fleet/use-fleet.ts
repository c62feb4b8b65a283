/**
 * The fleet's state for a component: the store's one fleet source, its state as a shallow ref that follows every
 * refresh, and the component counted as on screen from mount to unmount (polling runs while any is).
 */
import { onBeforeUnmount, onMounted, shallowRef, toRaw } from 'vue';
import type { ShallowRef } from 'vue';
import { useStore } from 'vuex';
import { STEVE_TYPES } from '../engine';
import { clusterTarget } from '../data/target';
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
  const unsubscribe = source.subscribe(() => {
    state.value = source.state;
  });

  onMounted(() => source.setOnScreen(view, true));
  onBeforeUnmount(() => {
    unsubscribe();
    source.setOnScreen(view, false);
  });

  return { source, state };
}
