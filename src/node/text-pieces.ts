import { writeSync } from "node:fs";

/** How many code units a piece of a long text has at most when it is converted to bytes. */
export const PIECE_LENGTH = 64 * 1024;

/**
 * `text` in pieces of at most `length` (≥ 2) code units that never cut a surrogate pair, so that converted one by
 * one to UTF-8 they give exactly the bytes of the whole. A long text converted at once (index.md at 30 000
 * sessions: 2.3 MB, hashed twice and written once by an end) is a transient buffer of its size, which the
 * allocator then keeps from the system: a call's peak memory (docs/performance.md "The listing begun early").
 */
export function* pieces(text: string, length = PIECE_LENGTH): Generator<string> {
  for (let at = 0; at < text.length;) {
    let end = Math.min(at + length, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1; // a high surrogate: keep its pair whole
    yield text.slice(at, end);
    at = end;
  }
}

/** Writes `text` as UTF-8 to the open descriptor `fd` at its position, piece by piece (all of every piece). */
export function writeTextSync(fd: number, text: string): void {
  for (const piece of pieces(text)) {
    const bytes = Buffer.from(piece, "utf8");
    for (let written = 0; written < bytes.length;) written += writeSync(fd, bytes, written);
  }
}
