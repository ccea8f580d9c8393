import { onBeforeUnmount, onMounted, ref, type Ref } from 'vue';

/** Where the pages switch to their phone layout (the menu becomes a drawer, dialogs full screen). */
const NARROW = '(max-width: 768px)';

/** Whether the screen is phone-narrow now, following rotations and resizes while the component lives. */
export function useNarrowScreen(): Ref<boolean> {
  const media = window.matchMedia(NARROW);
  const narrow = ref(media.matches);
  const follow = (e: MediaQueryListEvent) => (narrow.value = e.matches);
  onMounted(() => media.addEventListener('change', follow));
  onBeforeUnmount(() => media.removeEventListener('change', follow));
  return narrow;
}
