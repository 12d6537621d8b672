/**
 * The device-local scan cache (issue 22): the modification times of the session folder's confirmed notes as
 * this device last saw them, kept beside the vault lock in the vault's state folder (state-dir.ts), never in the
 * vault. With it a bounded scan lists the folder and asks the file system only about names it has not seen
 * (device-memory/remembering-store.ts; the soundness argument is in docs/performance.md). Beside it, two small files
 * under the same rules: the index checks this device remembers (core/device-memory/checked-indexes.ts) and the session
 * folder in brief (core/device-memory/folder-brief.ts).
 *
 * Plain and derived, safe to delete. A file that is missing, damaged (its checksum, its shape), of another
 * format or tool version, of another vault path or session folder, saved more than a day ago or in the future
 * is not trusted: the call learns every time afresh, as without a cache. Written atomically (temp file and
 * rename), and only by a writing action, under the vault lock; `rebuild` ignores it and writes it anew.
 */
import { createHash, randomBytes } from "node:crypto";
import { pieces } from "../../node/text-pieces";
import { promises as fs, readFileSync } from "node:fs";
import * as path from "node:path";
import type { IndexCheck } from "../../core/device-memory/checked-indexes";
import type { FolderBrief } from "../../core/device-memory/folder-brief";
import type { KeptNote } from "../../core/device-memory/kept-fields";

export { BRIEF_NAME, CACHE_NAME, CHECKS_NAME, FIELDS_NAME } from "../state-dir";
/** The first line: this format and its version. */
const MAGIC = "palee scan cache 2";
const CHECKS_MAGIC = "palee index checks 2";
const BRIEF_MAGIC = "palee folder brief 1";
const FIELDS_MAGIC = "palee note fields 1";
/** A cache older than this is rebuilt: what a same-name rewrite could hide is seen within a day. */
export const CACHE_MAX_AGE_MS = 24 * 3600 * 1000;

/** What a cache must say about itself to be used: whose it is. */
export interface CacheOwner {
  /** The tool's version (version.ts): a cache of another version is rebuilt. */
  tool: string;
  /** The vault's real path, and the session folder inside it. */
  vault: string;
  folder: string;
}

interface Header extends CacheOwner {
  saved_at: number;
  sha256: string;
}

/** The remembered times and when they were saved. */
export interface Remembered {
  times: Map<string, number>;
  savedAt: number;
}

/** The SHA-256 of `text`'s UTF-8 bytes, in hex; a long text hashed piece by piece (text-pieces.ts). */
export function sha256(text: string): string {
  const hash = createHash("sha256");
  for (const piece of pieces(text)) hash.update(piece, "utf8");
  return hash.digest("hex");
}

/**
 * A cache file's text: the magic line of its kind, a JSON header (whose cache it is, when, the SHA-256 of the
 * body), and the body.
 */
function renderCacheText(magic: string, owner: CacheOwner, body: string, now: number): string {
  const header: Header = { ...owner, saved_at: now, sha256: sha256(body) };
  return `${magic}\n${JSON.stringify(header)}\n${body}`;
}

/** A cache file's body and when it was saved, or null when it is not to be trusted (see the file's comment). */
function parseCacheText(text: string, magic: string, owner: CacheOwner, now: number): CacheBody | null {
  const head = headOf(text, magic, owner, now);
  if (head === null) return null;
  const body = text.slice(head.bodyAt);
  return sha256(body) === head.header.sha256 ? { body, savedAt: head.header.saved_at } : null;
}

/** A cache file's header and where its body begins, when the header is to be trusted (its body is not checked). */
function headOf(
  text: string,
  magic: string,
  owner: CacheOwner,
  now: number,
): { header: Header; bodyAt: number } | null {
  const first = text.indexOf("\n");
  const second = first < 0 ? -1 : text.indexOf("\n", first + 1);
  if (second < 0 || text.slice(0, first) !== magic) return null;
  const header = headerOf(text.slice(first + 1, second));
  if (header === null || header.tool !== owner.tool || header.vault !== owner.vault) return null;
  if (header.folder !== owner.folder || !(header.saved_at <= now && now - header.saved_at <= CACHE_MAX_AGE_MS)) {
    return null;
  }
  return { header, bodyAt: second + 1 };
}

interface CacheBody {
  body: string;
  savedAt: number;
}

/**
 * The scan cache's text for `times`, saved at `now`: its body is one JSON line of the names and one of their
 * times, in the same order (JSON.parse reads 30 000 of each in a few milliseconds).
 */
export function renderScanCache(owner: CacheOwner, times: ReadonlyMap<string, number>, now: number): string {
  const body = `${JSON.stringify([...times.keys()])}\n${JSON.stringify([...times.values()])}\n`;
  return renderCacheText(MAGIC, owner, body, now);
}

/**
 * A scan cache's text saved again at `now` with the same times (its body as it is), when it was saved `after` ms
 * ago or more; null when it was saved since, or is not to be trusted. What keeps times that were not needed
 * within their day.
 */
export function refreshedScanCache(text: string, owner: CacheOwner, now: number, after: number): string | null {
  const head = headOf(text, MAGIC, owner, now);
  if (head === null || now - head.header.saved_at < after) return null;
  const read = parseCacheText(text, MAGIC, owner, now);
  return read === null ? null : renderCacheText(MAGIC, owner, read.body, now);
}

/** The times a scan cache's text holds, or null when it is not to be trusted (see the file's comment). */
export function parseScanCache(text: string, owner: CacheOwner, now: number): Remembered | null {
  const read = parseCacheText(text, MAGIC, owner, now);
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
 * rewrite the scan cache's 30 000 times.
 */
export function renderIndexChecks(owner: CacheOwner, checks: readonly IndexCheck[], now: number): string {
  return renderCacheText(
    CHECKS_MAGIC,
    owner,
    `${JSON.stringify(checks.map((c) => [c.text, c.names, c.count, c.split]))}\n`,
    now,
  );
}

/** The checks an index checks' text holds, or null when it is not to be trusted. */
export function parseIndexChecks(text: string, owner: CacheOwner, now: number): IndexCheck[] | null {
  const read = parseCacheText(text, CHECKS_MAGIC, owner, now);
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
 * The folder brief's text (core/device-memory/folder-brief.ts), saved at `now`: one JSON line of its split, the older
 * notes' digest and count, its `since`, and its late and recent notes as [name, time] pairs. A separate small
 * file, so that a call the brief answers reads and writes a few hundred names, not the scan cache's 30 000.
 */
export function renderFolderBrief(owner: CacheOwner, brief: FolderBrief, now: number): string {
  const body = {
    split: brief.split,
    old: [brief.old.digest, brief.old.count],
    since: brief.since,
    late: [...brief.late],
    recent: [...brief.recent],
  };
  return renderCacheText(BRIEF_MAGIC, owner, `${JSON.stringify(body)}\n`, now);
}

/** The brief a folder brief's text holds and when it was saved, or null when it is not to be trusted. */
export function parseFolderBrief(
  text: string,
  owner: CacheOwner,
  now: number,
): { brief: FolderBrief; savedAt: number } | null {
  const read = parseCacheText(text, BRIEF_MAGIC, owner, now);
  const body = read && jsonOrNull(read.body);
  if (typeof body !== "object" || body === null || read === null) return null;
  const { split, old, since, late, recent } = body as Record<string, unknown>;
  if (typeof split !== "string" || typeof since !== "number" || !Number.isFinite(since)) return null;
  if (!Array.isArray(old) || old.length !== 2 || typeof old[0] !== "string" || !Number.isInteger(old[1])) return null;
  const lateTimes = timesOf(late);
  const recentTimes = timesOf(recent);
  if (lateTimes === null || recentTimes === null) return null;
  const brief = {
    split,
    old: { digest: old[0], count: old[1] as number },
    since,
    late: lateTimes,
    recent: recentTimes,
  };
  return { brief, savedAt: read.savedAt };
}

/**
 * The kept notes' text (core/device-memory/kept-fields.ts), saved at `now`: one JSON line of [name, file identity,
 * frontmatter] rows. A few hundred notes, the last KEPT_SPAN_MS's: about 120 KB at 30 000 sessions.
 */
export function renderKeptFields(owner: CacheOwner, notes: ReadonlyMap<string, KeptNote>, now: number): string {
  const rows = [...notes].map(([name, note]) => [name, note.key, note.fields]);
  return renderCacheText(FIELDS_MAGIC, owner, `${JSON.stringify(rows)}\n`, now);
}

/** The notes a kept notes' text holds and when it was saved, or null when it is not to be trusted. */
export function parseKeptFields(
  text: string,
  owner: CacheOwner,
  now: number,
): { notes: Map<string, KeptNote>; savedAt: number } | null {
  const read = parseCacheText(text, FIELDS_MAGIC, owner, now);
  const rows = read && jsonOrNull(read.body);
  if (!Array.isArray(rows) || read === null) return null;
  const notes = new Map<string, KeptNote>();
  for (const row of rows as unknown[]) {
    if (!Array.isArray(row) || row.length !== 3) return null;
    const [name, key, fields] = row as unknown[];
    if (typeof name !== "string" || typeof key !== "string") return null;
    // Only plain JSON is kept (isPlainJson), and the checksum vouches for the file; a value forged into it is judged
    // as any frontmatter's is (records.ts), only it may be answered while the note's identity holds.
    if (typeof fields !== "object" || fields === null || Array.isArray(fields)) return null;
    notes.set(name, { key, fields: fields as Record<string, unknown> });
  }
  return { notes, savedAt: read.savedAt };
}

/** [name, time] pairs as a map, or null when they are not. */
function timesOf(pairs: unknown): Map<string, number> | null {
  if (!Array.isArray(pairs)) return null;
  const times = new Map<string, number>();
  for (const pair of pairs as unknown[]) {
    if (!Array.isArray(pair) || pair.length !== 2) return null;
    const [name, at] = pair as unknown[];
    if (typeof name !== "string" || typeof at !== "number" || !Number.isFinite(at)) return null;
    times.set(name, at);
  }
  return times;
}

function jsonOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function headerOf(line: string): Header | null {
  const parsed = jsonOrNull(line);
  if (typeof parsed !== "object" || parsed === null) return null;
  const h = parsed as Record<string, unknown>;
  const strings = ["tool", "vault", "folder", "sha256"].every((key) => typeof h[key] === "string");
  return strings && typeof h.saved_at === "number" ? (parsed as Header) : null;
}

/** The text of the cache file at `file`, or null (missing, unreadable). Never throws. */
export async function readCacheFile(file: string): Promise<string | null> {
  try {
    return await fs.readFile(file, "utf8");
  } catch {
    return null;
  }
}

/** readCacheFile, synchronously: for a file read only once a call finds that it needs it. */
export function readCacheFileNow(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

/**
 * Writes a cache file atomically: a temp file beside it, renamed over it, so a reader sees the old cache or the
 * new one, never a part. Unflushed on purpose: a cache cut by a power loss fails its checksum and is rebuilt. A
 * cache that cannot be written is left out quietly (the next call learns afresh); never throws.
 */
export async function writeCacheFile(file: string, text: string): Promise<void> {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(4).toString("hex")}.tmp`);
  try {
    await fs.writeFile(temp, text, { encoding: "utf8", mode: 0o600, flag: "wx" });
    await fs.rename(temp, file);
  } catch {
    await fs.rm(temp, { force: true }).catch(() => undefined);
  }
}

/** Writes the scan cache (writeCacheFile). Never throws. */
export function saveScanCache(
  file: string,
  owner: CacheOwner,
  times: ReadonlyMap<string, number>,
  now: number,
): Promise<void> {
  return writeCacheFile(file, renderScanCache(owner, times, now));
}
