/** The version of palee, from package.json: esbuild writes it in at build time (esbuild.config.mjs, define). */
declare const PALEE_VERSION: string | undefined;

export const VERSION: string = typeof PALEE_VERSION === "string" ? PALEE_VERSION : "unknown (not built)";
