/**
 * What the page shows lives in its address, so that every state can be shared and the browser's
 * back button works: the question (`q`), the region (`region`: id, code or name, as a district's
 * website may link it) and the permits of a notice (`notice`: ids).
 */
export interface PageState {
  q: string;
  region: string;
  notice: string[];
}

const REGION_KEY = 'lawrisk.search.region';
const ID = /^[1-9]\d{0,9}$/;

export function readState(search = window.location.search): PageState {
  const params = new URLSearchParams(search);
  return {
    q: (params.get('q') ?? '').trim(),
    region: (params.get('region') ?? '').trim(),
    notice: [...new Set((params.get('notice') ?? '').split(',').filter((id) => ID.test(id)))],
  };
}

export function stateUrl(state: PageState): string {
  const params = new URLSearchParams();
  if (state.q) params.set('q', state.q);
  if (state.region) params.set('region', state.region);
  if (state.notice.length > 0) params.set('notice', state.notice.join(','));
  const query = params.toString();
  return `${window.location.pathname}${query ? `?${query}` : ''}`;
}

/** Records a new state in the history (push) or corrects the current entry (replace). */
export function writeState(state: PageState, push: boolean): void {
  const url = stateUrl(state);
  if (url === `${window.location.pathname}${window.location.search}`) return;
  if (push) window.history.pushState(null, '', url);
  else window.history.replaceState(null, '', url);
}

/** The region chosen last time in this browser (storage may be unavailable: private modes, policies). */
export function rememberedRegion(): string {
  try {
    return window.localStorage.getItem(REGION_KEY) ?? '';
  } catch {
    return '';
  }
}

export function rememberRegion(token: string): void {
  try {
    if (token) window.localStorage.setItem(REGION_KEY, token);
    else window.localStorage.removeItem(REGION_KEY);
  } catch {
    // Not remembered: the page still works, and the address still carries the region.
  }
}
