import { ref, shallowRef, watch } from 'vue';

export interface PageRequest {
  limit: number;
  offset: number;
}

export interface PageResult<T> {
  rows: T[];
  total: number;
}

/**
 * One list with server-side paging: page and size drive `limit`/`offset`; changing the size or
 * calling `search()` goes back to the first page. Failures are shown by the API client.
 */
export function usePagedList<T>(fetchPage: (req: PageRequest) => Promise<PageResult<T>>, pageSize = 20) {
  const rows = shallowRef<T[]>([]);
  const total = ref(0);
  const page = ref(1);
  const size = ref(pageSize);
  const loading = ref(false);
  let ticket = 0;

  async function load(): Promise<void> {
    const mine = ++ticket;
    loading.value = true;
    try {
      const result = await fetchPage({ limit: size.value, offset: (page.value - 1) * size.value });
      if (mine !== ticket) return;
      rows.value = result.rows;
      total.value = result.total;
    } catch {
      if (mine === ticket) rows.value = [];
    } finally {
      if (mine === ticket) loading.value = false;
    }
  }

  function search(): Promise<void> {
    if (page.value !== 1) {
      page.value = 1; // the watcher loads
      return Promise.resolve();
    }
    return load();
  }

  watch(page, () => void load());
  watch(size, () => void search());

  return { rows, total, page, size, loading, load, search };
}

/** What `usePagedList` gives: the rows, the paging state and the loaders. */
export type PagedList<T> = ReturnType<typeof usePagedList<T>>;
