/** What scripts/build-server.mjs exports to the tests. */
export declare const DIST: string;
/** Every file under src/ that the service runs or reads, absolute paths. */
export declare function shippedSources(): string[];
/** Where a source file lands in dist/. */
export declare function distPathOf(source: string, dist?: string): string;
export declare function serverIsStale(): boolean;
/** Builds dist/ when it is stale; fails when it cannot be built and there is none to run. */
export declare function ensureServerBuilt(): Promise<void>;
