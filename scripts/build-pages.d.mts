/** What scripts/build-pages.mjs exports to the tests. */
export interface PageSize {
  page: string;
  raw: number;
  gzip: number;
  /** The most gzip bytes the page may load, when it has a budget. */
  budget: number | null;
}
export declare const GZIP_BUDGET: Record<string, number>;
export declare function pageSizes(dist?: string): PageSize[];
export declare function pagesAreStale(): boolean;
