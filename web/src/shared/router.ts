import { reactive } from 'vue';

export interface HashRoute {
  path: string;
  query: Record<string, string>;
}

/**
 * A page's views live behind the URL hash (`#/permits?region=1`), so every view can be bookmarked
 * and reloaded while the server serves one HTML file per page.
 */
export function createHashRouter(defaultPath: string) {
  const route = reactive<HashRoute>({ path: defaultPath, query: {} });
  const read = () => {
    const raw = window.location.hash.replace(/^#/, '');
    const [path, qs = ''] = raw.split('?');
    route.path = path || defaultPath;
    route.query = Object.fromEntries(new URLSearchParams(qs));
  };
  read();
  window.addEventListener('hashchange', read);

  function navigate(path: string, query: Record<string, string | number | null | undefined> = {}): void {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== null && v !== undefined && v !== '') params.set(k, String(v));
    const qs = params.toString();
    window.location.hash = `${path}${qs ? `?${qs}` : ''}`;
  }
  return { route, navigate };
}

export type HashRouter = ReturnType<typeof createHashRouter>;
