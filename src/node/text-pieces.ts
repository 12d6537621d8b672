import type { Hash } from "node:crypto";
import { closeSync, constants as fsConstants, openSync, readSync, writeSync } from "node:fs";

/** How many code units a piece of a long text has at most when it is converted to bytes. */
export const PIECE_LENGTH = 64 * 1024;
/** The pieces a long text is written in (NodeStore, writeText). */
export const WRITE_PIECE_LENGTH = 256 * 1024;

/**
 * `text` in pieces of at most `length` (≥ 2) code units that never cut a surrogate pair, so that converted one by
 * one to UTF-8 they give exactly the bytes of the whole. A long text converted at once (index.md, written and hashed
 * by an end, text-digests.ts) is a transient buffer of its size, which the allocator then keeps from the system: a
 * call's peak memory (docs/performance-log.md, "The listing begun early").
 */
export function* pieces(text: string, length = PIECE_LENGTH): Generator<string> {
  let at = 0;
  do {
    let end = Math.min(at + length, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1; // a high surrogate: keep its pair whole
    yield text.slice(at, end); // an empty text is one empty piece
    at = end;
  } while (at < text.length);
}

/**
 * Whether the plain file at `absolute` holds exactly the UTF-8 bytes of `text`, read and compared a piece at a
 * time: no buffer or string of the file's size. False when it does not, or cannot be told (a link, an error):
 * the caller then reads the file as text. Equal bytes mean the text a read gives is `text`, when `text` is itself
 * a read's (no lone surrogate).
 */
export function holdsExactly(absolute: string, text: string): boolean {
  const noFollow = fsConstants.O_NOFOLLOW;
  if (noFollow === undefined) return false;
  let fd: number;
  try {
    fd = openSync(absolute, fsConstants.O_RDONLY | noFollow);
  } catch {
    return false;
  }
  try {
    const want = Buffer.allocUnsafe(3 * PIECE_LENGTH);
    const got = Buffer.allocUnsafe(3 * PIECE_LENGTH);
    for (const piece of pieces(text)) {
      const length = want.write(piece, 0, "utf8");
      if (readUpTo(fd, got, length) !== length || !got.subarray(0, length).equals(want.subarray(0, length))) {
        return false;
      }
    }
    return readUpTo(fd, got, 1) === 0; // and nothing after
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes `text` as UTF-8 to the open file `fd`, a piece at a time through one buffer (and into `hash`, if any): no
 * buffer of the text's size, and no thread-pool round trip per piece. Synchronous, as NodeStore's reads are (the
 * CLI has nothing else to do meanwhile): a long index.md took many awaited round trips otherwise (the traced
 * figures: docs/performance-log.md, "Fewer copies and round trips").
 */
export function writeText(fd: number, text: string, hash: Hash | null = null): void {
  const buffer = Buffer.allocUnsafe(3 * Math.min(text.length, WRITE_PIECE_LENGTH)); // UTF-8: 3 bytes a unit at most
  for (const piece of pieces(text, WRITE_PIECE_LENGTH)) {
    const length = buffer.write(piece, 0, "utf8");
    hash?.update(buffer.subarray(0, length)); // `text`'s digest from the bytes written (text-digests.ts)
    for (let written = 0; written < length;) written += writeSync(fd, buffer, written, length - written);
  }
}

/** Reads up to `length` bytes from `fd` into `buffer`, short only at the end of the file. */
function readUpTo(fd: number, buffer: Buffer, length: number): number {
  let filled = 0;
  while (filled < length) {
    const read = readSync(fd, buffer, filled, length - filled, null);
    if (read === 0) break;
    filled += read;
  }
  return filled;
}
