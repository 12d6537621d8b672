/**
 * The one envelope of every device-memory file (docs/core.md "Device memory"): a format line, a JSON header
 * (which part of the memory, the tool's version, the vault's real path and session folder, when it was saved, the
 * SHA-256 of the body) and the body. One trust rule for all of them: a file that is missing, damaged (its
 * checksum, its shape), of another format, part or tool version, of another vault or session folder, saved more
 * than 30 days ago or in the future is not trusted, and the call learns afresh as without it. Written atomically
 * (temp file and rename), only by a writing action under the vault lock. Plain and derived, safe to delete.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import * as fs from "../../node/async-fs";
import * as path from "node:path";
import { sha256 } from "../../node/text-digests";

/** The first line of every device-memory file: this envelope and its version. */
export const FORMAT = "palee device memory 1";

/**
 * A file older than this is not trusted: what a same-name rewrite could hide is seen within a month. Every other
 * fact the memory keeps is checked against the listing or the file on each call, so age alone cannot make it wrong;
 * a month lets a learner who studies once a day or once a week start warm (docs/decisions.md "Device memory").
 */
export const CACHE_MAX_AGE_MS = 30 * 24 * 3600 * 1000;

/** The parts of the device memory, one file each (memory-files.ts). */
export type Part = "times" | "checks" | "summary" | "fields" | "older" | "reviews" | "totals";

/** What a file must say about itself to be used: whose it is. */
export interface MemoryOwner {
  /** The tool's version (version.ts): a file of another version is not trusted. */
  tool: string;
  /** The vault's real path, and the session folder inside it. */
  vault: string;
  folder: string;
}

interface Header extends MemoryOwner {
  part: Part;
  saved_at: number;
  sha256: string;
}

/** The SHA-256 of a text's UTF-8 bytes, in hex: from its bytes when this process read or wrote it long. */
export { sha256 };

/** `body` in its envelope, as `part` of `owner`'s memory saved at `now`. */
export function seal(part: Part, owner: MemoryOwner, body: string, now: number): string {
  const header: Header = { part, ...owner, saved_at: now, sha256: sha256(body) };
  return `${FORMAT}\n${JSON.stringify(header)}\n${body}`;
}

/** The body of `part` and when it was saved, or null when the file is not to be trusted (see above). */
export function unseal(
  text: string,
  part: Part,
  owner: MemoryOwner,
  now: number,
): { body: string; savedAt: number } | null {
  const head = headOf(text, part, owner, now);
  if (head === null) return null;
  const body = text.slice(head.bodyAt);
  return sha256(body) === head.header.sha256 ? { body, savedAt: head.header.saved_at } : null;
}

/** When `text` was saved, when its envelope is to be trusted (its body is not checked); else null. */
export function savedAtOf(text: string, part: Part, owner: MemoryOwner, now: number): number | null {
  return headOf(text, part, owner, now)?.header.saved_at ?? null;
}

function headOf(text: string, part: Part, owner: MemoryOwner, now: number): { header: Header; bodyAt: number } | null {
  const first = text.indexOf("\n");
  const second = first < 0 ? -1 : text.indexOf("\n", first + 1);
  if (second < 0 || text.slice(0, first) !== FORMAT) return null;
  const header = headerOf(text.slice(first + 1, second));
  if (header === null || header.part !== part || header.tool !== owner.tool || header.vault !== owner.vault) {
    return null;
  }
  if (header.folder !== owner.folder || !(header.saved_at <= now && now - header.saved_at <= CACHE_MAX_AGE_MS)) {
    return null;
  }
  return { header, bodyAt: second + 1 };
}

function headerOf(line: string): Header | null {
  const parsed = jsonOrNull(line);
  if (typeof parsed !== "object" || parsed === null) return null;
  const h = parsed as Record<string, unknown>;
  const strings = ["part", "tool", "vault", "folder", "sha256"].every((key) => typeof h[key] === "string");
  return strings && typeof h.saved_at === "number" ? (parsed as Header) : null;
}

/** JSON.parse, or null for a text that is not JSON. */
export function jsonOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** The text of the file at `file`, or null (missing, unreadable). Never throws. */
export async function readMemoryFile(file: string): Promise<string | null> {
  try {
    return await fs.readFile(file, "utf8");
  } catch {
    return null;
  }
}

/** readMemoryFile, synchronously: for a file read only once a call finds that it needs it. */
export function readMemoryFileNow(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

/**
 * Writes a file atomically: a temp file beside it, renamed over it, so a reader sees the old file or the new one,
 * never a part. Unflushed on purpose: a file cut by a power loss fails its checksum and is learned afresh. A file
 * that cannot be written is left out quietly (the next call learns afresh); never throws.
 */
export async function writeMemoryFile(file: string, text: string): Promise<void> {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(4).toString("hex")}.tmp`);
  try {
    await fs.writeFile(temp, text, { encoding: "utf8", mode: 0o600, flag: "wx" });
    await fs.rename(temp, file);
  } catch {
    await fs.rm(temp, { force: true }).catch(() => undefined);
  }
}
