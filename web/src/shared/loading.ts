import type { Ref } from 'vue';

/** Runs `work` with `flag` set (a table's v-loading, a button's spinner), cleared however it ends. */
export async function whileLoading<T>(flag: Ref<boolean>, work: () => Promise<T>): Promise<T> {
  flag.value = true;
  try {
    return await work();
  } finally {
    flag.value = false;
  }
}
