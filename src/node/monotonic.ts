/**
 * A monotonic clock in milliseconds, as performance.now() but from process.hrtime: loading node:perf_hooks cost
 * every CLI call ~1.2 ms (issue 36, the fixed cost of a process). Its origin is arbitrary: only differences of
 * its own readings mean anything (the early listing's age, the identities asked ahead).
 */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
