import { createHash, type Hash } from "node:crypto";
import { pieces } from "./text-pieces";

/**
 * The SHA-256 of a long text (the device memory's digest: the index check of index.md, docs/performance.md "The
 * index checks"), hashed from the bytes that already passed when this process read or wrote it, instead of
 * converting the text back to UTF-8. Keeps the last long text read with its bytes, and the last long view written
 * with its digest, each dropped once used. Sound: the bytes kept are exactly the text's UTF-8 (a read decoded as
 * ASCII or valid UTF-8, never one whose stray bytes were read as Latin-1; a write's own conversion), and a text is
 * compared whole with the one kept before they are used.
 */

/** How long a text must be (in bytes, or code units when written) to be kept: index.md, not a note. */
const LONG = 256 * 1024;

let lastRead: { text: string; bytes: Buffer } | null = null;
let lastWritten: { text: string; digest: string } | null = null;

/** `text` was read as `bytes`, its exact UTF-8. */
export function keepRead(text: string, bytes: Buffer): void {
  if (bytes.length >= LONG) lastRead = { text, bytes };
}

/** A hash to feed with the UTF-8 of `text` as it is written, when its digest is to be kept (writtenWith). */
export function hashForWrite(text: string): Hash | null {
  return text.length >= LONG ? createHash("sha256") : null;
}

/** `hash` was fed with exactly the UTF-8 of `text`. */
export function writtenWith(text: string, hash: Hash): void {
  lastWritten = { text, digest: hash.digest("hex") };
}

/** The SHA-256 of `text`'s UTF-8 bytes, in hex; a long text hashed piece by piece (text-pieces.ts). */
export function sha256(text: string): string {
  if (lastWritten !== null && lastWritten.text === text) {
    const { digest } = lastWritten;
    lastWritten = null;
    return digest;
  }
  const hash = createHash("sha256");
  if (lastRead !== null && lastRead.text === text) {
    hash.update(lastRead.bytes);
    lastRead = null;
  } else {
    for (const piece of pieces(text)) hash.update(piece, "utf8");
  }
  return hash.digest("hex");
}
