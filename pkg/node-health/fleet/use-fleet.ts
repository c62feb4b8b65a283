/**
 * The fleet's state for a component: the store's one fleet source, its state as a shallow ref that follows every
 * refresh, and the component counted as on screen from mount to unmount (polling runs while any is).
 */
import { onBeforeUnmount, onMounted, shallowRef, toRaw } from 'vue';
import type { ShallowRef } from 'vue';
import { useStore } from 'vuex';
import { fleetSourceFor } from './source';
import type { FleetSource, FleetState } from './source';

export function useFleet(): { source: FleetSource; state: ShallowRef<FleetState> } {
  const store = useStore();
  const source = fleetSourceFor(store as any, toRaw);
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
