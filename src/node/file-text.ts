import { isAscii, isUtf8 } from "node:buffer";
import { readFileSync } from "node:fs";
import { keepRead } from "./text-digests";

/**
 * A file's text. UTF-8 as readFileSync(file, "utf8") reads it, decoded as Latin-1 when every byte is ASCII: the
 * same text, because ASCII's bytes mean the same in both, and much cheaper, as Node 20 decodes UTF-8 in
 * script-visible steps (index.md is the largest text a call reads; the figures are in docs/performance-log.md).
 * A file that is not valid UTF-8 (a draft or hot.md saved by an editor in Latin-1)
 * keeps its characters (issue 35 §4): each byte that is not part of a UTF-8 sequence is read as the Latin-1
 * character it stands for, never as U+FFFD, so a rewrite keeps "café" (then written in UTF-8).
 */
export function decodeText(bytes: Buffer): string {
  if (isAscii(bytes)) return bytes.toString("latin1");
  return isUtf8(bytes) ? bytes.toString("utf8") : decodeMixed(bytes);
}

/** The length of the UTF-8 sequence at `i` (1 to 4), or 0 when the byte there does not begin a valid one. */
function sequenceAt(bytes: Buffer, i: number): number {
  const b0 = bytes[i];
  const cont = (k: number, low = 0x80, high = 0xbf): boolean =>
    i + k < bytes.length && bytes[i + k] >= low && bytes[i + k] <= high;
  if (b0 < 0x80) return 1;
  if (b0 >= 0xc2 && b0 <= 0xdf) return cont(1) ? 2 : 0;
  if (b0 >= 0xe0 && b0 <= 0xef) {
    const second = b0 === 0xe0 ? cont(1, 0xa0) : b0 === 0xed ? cont(1, 0x80, 0x9f) : cont(1);
    return second && cont(2) ? 3 : 0;
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    const second = b0 === 0xf0 ? cont(1, 0x90) : b0 === 0xf4 ? cont(1, 0x80, 0x8f) : cont(1);
    return second && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

/** UTF-8 where the bytes are UTF-8, each other byte as its Latin-1 character. */
function decodeMixed(bytes: Buffer): string {
  let out = "";
  let start = 0;
  for (let i = 0; i < bytes.length;) {
    const n = sequenceAt(bytes, i);
    if (n > 0) {
      i += n;
      continue;
    }
    out += bytes.toString("utf8", start, i) + String.fromCharCode(bytes[i]);
    i += 1;
    start = i;
  }
  return out + bytes.toString("utf8", start);
}

/** The text of `file` (a path or an open descriptor), decoded as decodeText does. */
export function readFileText(file: string | number): string {
  const bytes = readFileSync(file);
  const text = isAscii(bytes) ? bytes.toString("latin1") : isUtf8(bytes) ? bytes.toString("utf8") : null;
  if (text === null) return decodeMixed(bytes);
  keepRead(text, bytes); // its exact UTF-8: hashed as read (text-digests.ts)
  return text;
}
