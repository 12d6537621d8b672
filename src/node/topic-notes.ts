/**
 * The vault's topic notes for the CLI (contract §4 "finding a topic by name"): every Markdown file of the vault
 * is listed, and only its frontmatter block is read — the first bytes up to the closing fence, bounded — never
 * the whole note. Skipped: dot-folders (.obsidian, .trash, …), the session folder, folders reached through a
 * symbolic link, and files that are links leading out of the vault. Synchronous on purpose, like NodeStore.read:
 * the CLI has nothing else to do meanwhile, and a thread-pool round trip per file would cost more than the read.
 */
import { closeSync, constants as fsConstants, openSync, readSync, readdirSync, realpathSync, statSync } from "node:fs";
import * as path from "node:path";
import type { TopicNoteRead, TopicNotes } from "../core/topics";
import { collectTopicNotes, readTopicNoteHead } from "../core/topics";
import { MAX_FRONTMATTER_CHARS } from "../core/records/yaml-bounds";

const FIRST_READ = 4096;
/** The most read of one file: the bounded frontmatter, its fences and a byte-order mark. */
const MAX_HEAD_BYTES = MAX_FRONTMATTER_CHARS * 4 + 16;
const NO_FOLLOW: number = fsConstants.O_NOFOLLOW ?? 0;
const PALEE_ID = Buffer.from("palee_id");
/** Non-blocking, so that a named pipe swapped in for a note cannot hold the command (a regular file ignores it). */
const READ_FLAGS = fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0);

/** Where the closing fence line ("---" or "...") ends in `head`, or -1 when it is not there yet. */
function closingFenceEnd(head: Buffer, length: number): number {
  const text = head.toString("latin1", 0, length); // fences are ASCII; byte offsets stay offsets
  const fence = /\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/g;
  fence.lastIndex = text.indexOf("\n");
  const found = fence.exec(text);
  if (!found) return -1;
  // A fence at the very end of what was read may only be the start of a longer line: read on unless at EOF.
  return found.index + found[0].length;
}

/** The frontmatter block of an open file (from the first line to the closing fence), or null. */
function readHead(fd: number): string | null {
  let buffer = Buffer.alloc(FIRST_READ);
  let length = readSync(fd, buffer, 0, FIRST_READ, 0);
  const start = buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf ? 3 : 0;
  if (buffer.toString("latin1", start, start + 3) !== "---") return null;
  for (;;) {
    const end = closingFenceEnd(buffer, length);
    const atEof = length < buffer.length;
    if (end !== -1 && (end < length || atEof)) {
      const head = buffer.subarray(0, end);
      return head.includes(PALEE_ID) ? head.toString("utf8") : null;
    }
    if (atEof || buffer.length >= MAX_HEAD_BYTES) return null; // unclosed, or beyond the YAML bound
    const bigger = Buffer.alloc(Math.min(buffer.length * 4, MAX_HEAD_BYTES));
    buffer.copy(bigger, 0, 0, length);
    buffer = bigger;
    length += readSync(fd, buffer, length, buffer.length - length, length);
  }
}

/** Opens a Markdown file for reading, never through a link leading out of the vault (then null). */
function openInside(absolute: string, realRoot: string): number | null {
  try {
    return openSync(absolute, READ_FLAGS | NO_FOLLOW);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code !== "ELOOP" && code !== "EMLINK") return null;
  }
  try {
    const real = realpathSync(absolute);
    if (real !== realRoot && !real.startsWith(realRoot + path.sep)) return null;
    if (!statSync(real).isFile()) return null; // a link to a pipe or a device would block or never end
    return openSync(real, READ_FLAGS);
  } catch {
    return null; // dangling, or unreadable: not a topic note here
  }
}

function headOf(absolute: string, realRoot: string): string | null {
  const fd = openInside(absolute, realRoot);
  if (fd === null) return null;
  try {
    return readHead(fd);
  } catch {
    return null; // e.g. a folder named "x.md" (EISDIR), or a file that vanished: not a topic note
  } finally {
    closeSync(fd);
  }
}

/**
 * The topic notes of the vault at `root` (and those whose palee_id is no topic ID), in no particular order.
 * `skip`: vault-relative folders not looked into (the session folder). A folder or file that cannot be read is
 * left out: topic lookup never fails a command because of an unrelated note.
 */
export function readTopicNotes(root: string, skip: readonly string[]): TopicNotes {
  const realRoot = realpathSync(root);
  const skipped = new Set(skip.map((s) => s.replace(/\/+$/, "")));
  const reads: TopicNoteRead[] = [];
  const folders = [""];
  while (folders.length > 0) {
    const relative = folders.pop() as string;
    let entries;
    try {
      entries = readdirSync(relative === "" ? root : path.join(root, ...relative.split("/")), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (entry.name.startsWith(".")) continue;
      const child = relative === "" ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!skipped.has(child)) folders.push(child);
        continue;
      }
      if (!(entry.isFile() || entry.isSymbolicLink()) || !/\.md$/i.test(entry.name)) continue;
      const head = headOf(path.join(root, ...child.split("/")), realRoot);
      const read = head === null ? null : readTopicNoteHead(child, head);
      if (read !== null) reads.push(read);
    }
  }
  return collectTopicNotes(reads);
}
