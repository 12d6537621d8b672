/**
 * The four parts of the CLI's device memory, each one file (file-names.ts) in the vault's state folder beside the
 * vault lock, never in the vault, each in the one envelope of envelope.ts: the notes' times
 * (core/device-memory/remembering-store.ts), the index checks (checked-indexes.ts), the folder summary
 * (folder-summary.ts) and the recent notes' fields kept by identity (kept-fields.ts). Separate files, so that a
 * call that changes one small part does not rewrite the times of every note.
 */
import type { IndexCheck } from "../../core/device-memory/checked-indexes";
import type { FolderSummary } from "../../core/device-memory/folder-summary";
import type { KeptNote } from "../../core/device-memory/kept-fields";
import type { OlderNote } from "../../core/device-memory/older-fields";
import { keptOf } from "../../core/device-memory/older-fields";
import { olderBody, recordsOfBody } from "./older-file";
import type { MemoryOwner } from "./envelope";
import { jsonOrNull, savedAtOf, seal, unseal, writeMemoryFile } from "./envelope";

/** The remembered times and when they were saved. */
export interface Remembered {
  times: Map<string, number>;
  savedAt: number;
}

/**
 * The note times' text for `times`, saved at `now`: its body is one JSON line of the names and one of their
 * times, in the same order (JSON.parse reads 30 000 of each in a few milliseconds).
 */
export function renderNoteTimes(owner: MemoryOwner, times: ReadonlyMap<string, number>, now: number): string {
  const body = `${JSON.stringify([...times.keys()])}\n${JSON.stringify([...times.values()])}\n`;
  return seal("times", owner, body, now);
}

/**
 * A note times' text saved again at `now` with the same times (its body as it is), when it was saved `after` ms
 * ago or more; null when it was saved since, or is not to be trusted. What keeps times that were not needed
 * within their day.
 */
export function refreshedNoteTimes(text: string, owner: MemoryOwner, now: number, after: number): string | null {
  const savedAt = savedAtOf(text, "times", owner, now);
  if (savedAt === null || now - savedAt < after) return null;
  const read = unseal(text, "times", owner, now);
  return read === null ? null : seal("times", owner, read.body, now);
}

/** The times a note times' text holds, or null when it is not to be trusted (envelope.ts). */
export function parseNoteTimes(text: string, owner: MemoryOwner, now: number): Remembered | null {
  const read = unseal(text, "times", owner, now);
  if (read === null) return null;
  const { body } = read;
  const third = body.indexOf("\n");
  const names = jsonOrNull(body.slice(0, third));
  const ats = jsonOrNull(body.slice(third + 1));
  if (!Array.isArray(names) || !Array.isArray(ats) || names.length !== ats.length) return null;
  const times = new Map<string, number>();
  for (let i = 0; i < names.length; i++) {
    const name: unknown = names[i];
    const at: unknown = ats[i];
    if (typeof name !== "string" || typeof at !== "number" || !Number.isFinite(at)) return null;
    times.set(name, at);
  }
  return { times, savedAt: read.savedAt };
}

/**
 * The index checks' text (core/device-memory/checked-indexes.ts), saved at `now`: one JSON line of [text digest, names
 * digest, count, split] rows, newest first. A separate small file, so that an end, which changes it, does not
 * rewrite the 30 000 note times times.
 */
export function renderIndexChecks(owner: MemoryOwner, checks: readonly IndexCheck[], now: number): string {
  return seal("checks", owner, `${JSON.stringify(checks.map((c) => [c.text, c.names, c.count, c.split]))}\n`, now);
}

/** The checks an index checks' text holds, or null when it is not to be trusted. */
export function parseIndexChecks(text: string, owner: MemoryOwner, now: number): IndexCheck[] | null {
  const read = unseal(text, "checks", owner, now);
  const rows = read && jsonOrNull(read.body);
  if (!Array.isArray(rows)) return null;
  const checks: IndexCheck[] = [];
  for (const row of rows as unknown[]) {
    if (!Array.isArray(row) || row.length !== 4) return null;
    const [digest, names, count, split] = row as unknown[];
    if (typeof digest !== "string" || typeof names !== "string" || !Number.isInteger(count)) return null;
    if (typeof split !== "string") return null;
    checks.push({ text: digest, names, count: count as number, split });
  }
  return checks;
}

/**
 * The folder summary's text (folder-summary.ts), saved at `now`: one JSON line of its split, the older
 * notes' digest and count, its `since`, and its late and recent notes as [name, time] pairs. A separate small
 * file, so that a call the summary answers reads and writes a few hundred names, not the 30 000 note times.
 */
export function renderFolderSummary(owner: MemoryOwner, summary: FolderSummary, now: number): string {
  const body = {
    split: summary.split,
    old: [summary.old.digest, summary.old.count],
    since: summary.since,
    late: [...summary.late],
    recent: [...summary.recent],
  };
  return seal("summary", owner, `${JSON.stringify(body)}\n`, now);
}

/** The summary a folder summary's text holds and when it was saved, or null when it is not to be trusted. */
export function parseFolderSummary(
  text: string,
  owner: MemoryOwner,
  now: number,
): { summary: FolderSummary; savedAt: number } | null {
  const read = unseal(text, "summary", owner, now);
  const body = read && jsonOrNull(read.body);
  if (typeof body !== "object" || body === null || read === null) return null;
  const { split, old, since, late, recent } = body as Record<string, unknown>;
  if (typeof split !== "string" || typeof since !== "number" || !Number.isFinite(since)) return null;
  if (!Array.isArray(old) || old.length !== 2 || typeof old[0] !== "string" || !Number.isInteger(old[1])) return null;
  const lateTimes = timesOf(late);
  const recentTimes = timesOf(recent);
  if (lateTimes === null || recentTimes === null) return null;
  const summary = {
    split,
    old: { digest: old[0], count: old[1] as number },
    since,
    late: lateTimes,
    recent: recentTimes,
  };
  return { summary, savedAt: read.savedAt };
}

/**
 * The kept notes' text (core/device-memory/kept-fields.ts), saved at `now`: one JSON line of the notes of the last
 * KEPT_SPAN_MS (a few hundred at most in a dense history): those kept as sessions by the older notes' columns
 * (older-file.ts olderBody) with their files' identities (`keys`, in the same order), the others as [name, file
 * identity, frontmatter] rows (`fields`).
 */
export function renderKeptFields(owner: MemoryOwner, notes: ReadonlyMap<string, KeptNote>, now: number): string {
  const fields: Array<[string, string, unknown]> = [];
  const keys: string[] = [];
  const records = new Map<string, OlderNote>();
  for (const [name, note] of notes) {
    if (note.record === undefined) {
      fields.push([name, note.key, note.fields]);
      continue;
    }
    keys.push(note.key);
    records.set(name, { record: note.record, sections: 0 });
  }
  const body = { fields, keys, records: olderBody(keptOf("", records)) };
  return seal("fields", owner, `${JSON.stringify(body)}\n`, now);
}

/** The notes a kept notes' text holds and when it was saved, or null when it is not to be trusted. */
export function parseKeptFields(
  text: string,
  owner: MemoryOwner,
  now: number,
): { notes: Map<string, KeptNote>; savedAt: number } | null {
  const read = unseal(text, "fields", owner, now);
  const body = read && (jsonOrNull(read.body) as { fields?: unknown; keys?: unknown; records?: unknown } | null);
  if (typeof body !== "object" || body === null || read === null || !Array.isArray(body.fields)) return null;
  const notes = new Map<string, KeptNote>();
  for (const row of body.fields as unknown[]) {
    if (!Array.isArray(row) || row.length !== 3) return null;
    const [name, key, fields] = row as unknown[];
    if (typeof name !== "string" || typeof key !== "string") return null;
    // Only plain JSON is kept (isPlainJson), and the checksum vouches for the file; a value forged into it is judged
    // as any frontmatter's is (records.ts), only it may be answered while the note's identity holds.
    if (typeof fields !== "object" || fields === null || Array.isArray(fields)) return null;
    notes.set(name, { key, fields: fields as Record<string, unknown> });
  }
  // The sessions' columns are judged as the older notes' are (older-file.ts): nothing forged is used.
  const records = recordsOfBody(body.records);
  const { keys } = body;
  if (records === null || !Array.isArray(keys) || keys.length !== records.names.length) return null;
  for (let i = 0; i < keys.length; i++) {
    const key: unknown = keys[i];
    const name = records.names[i];
    if (typeof key !== "string" || notes.has(name)) return null;
    notes.set(name, { key, record: records.record(i) });
  }
  return { notes, savedAt: read.savedAt };
}

/** [name, time] pairs as a map, or null when they are not. */
function timesOf(pairs: unknown): Map<string, number> | null {
  if (!Array.isArray(pairs)) return null;
  const times = new Map<string, number>();
  for (const pair of pairs as unknown[]) {
    if (!Array.isArray(pair) || pair.length !== 2) return null;
    const name: unknown = pair[0]; // not destructured: run once, interpreted, where that costs most
    const at: unknown = pair[1];
    if (typeof name !== "string" || typeof at !== "number" || !Number.isFinite(at)) return null;
    times.set(name, at);
  }
  return times;
}

/** Writes the times' file (writeMemoryFile). Never throws. */
export function saveNoteTimes(
  file: string,
  owner: MemoryOwner,
  times: ReadonlyMap<string, number>,
  now: number,
): Promise<void> {
  return writeMemoryFile(file, renderNoteTimes(owner, times, now));
}
