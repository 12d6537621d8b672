/**
 * The device memory's files in the vault's state folder (state-dir.ts), one per part
 * (memory-files.ts). A module of its own, so that the binary's early listing (early-listing.ts) loads no more.
 */
export const MEMORY_FILES = {
  times: "note-times.txt",
  checks: "index-checks.txt",
  summary: "folder-summary.txt",
  fields: "note-fields.txt",
  older: "older-fields.txt",
  reviews: "older-reviews.txt",
  totals: "older-totals.txt",
} as const;
