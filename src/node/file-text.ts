import { isAscii } from "node:buffer";
import { readFileSync } from "node:fs";

/**
 * A file's text as `readFileSync(file, "utf8")` gives it (a byte that is not UTF-8 becomes U+FFFD), decoded as
 * Latin-1 when every byte is ASCII: the same text, because ASCII's bytes mean the same in both, and much cheaper,
 * as Node 20 decodes UTF-8 in script-visible steps (index.md is the largest text a call reads; the figures are in
 * docs/performance-log.md).
 */
export function decodeText(bytes: Buffer): string {
  return isAscii(bytes) ? bytes.toString("latin1") : bytes.toString("utf8");
}

/** The text of `file` (a path or an open descriptor), as readFileSync(file, "utf8") reads it. */
export function readFileText(file: string | number): string {
  return decodeText(readFileSync(file));
}
