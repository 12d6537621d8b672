/**
 * Reading the sessions folder: the Scan it yields (scan.ts), the file-name kinds (names.ts), the metadata-cache
 * fast path (cached.ts), reading and interpreting notes (read.ts), the confirmed list (assemble.ts), the full
 * scan with its cache between scans (full-scan.ts, scan-cache.ts), the bounded one (recent-scan.ts) and the one
 * that keeps a key per note (key-scan.ts).
 */
export type { Scan } from "./scan";
export type { NameKind } from "./names";
export { kindOf } from "./names";
export type { ScanMemo } from "./cached";
export { readConfirmed, withBody } from "./cached";
export { ScanCache } from "./scan-cache";
export { scanSessions } from "./full-scan";
export { scanRecentSessions } from "./recent-scan";
export type { NoteKey } from "./key-scan";
export { scanKeys } from "./key-scan";
