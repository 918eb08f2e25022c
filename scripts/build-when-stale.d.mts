// Types of build-when-stale.mjs for the TypeScript tests and benches that import it.
export declare const BUILD_OUTPUTS: readonly string[]
export declare function buildIsStale(root?: string): boolean
export declare function buildWhenStale(options?: { root?: string; quiet?: boolean; timeoutMs?: number }): Promise<boolean>
