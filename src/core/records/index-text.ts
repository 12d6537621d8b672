import { LINE_OPEN, LINK_CLOSE, topicTail } from "./index-line";
import { renderIndexOfJoined } from "./session-index";

/*
 * index.md read in place (issue 22): it has one line per session, and an operation needs a
 * handful of them (the first, the new line's neighbours, a topic's lines, the notes its scan read). Splitting it
 * into arrays cost more time and memory than everything else a start does with it, so the lines are found in
 * the text itself; only the lines asked for become strings. Used where index.md is trusted instead of every note
 * (operations/incremental-index.ts, the bounded list and the brief's topic history, the CLI's topic check).
 */

/** One line of index.md: the note it links to (its file name without ".md"), the line, where the line starts. */
export interface IndexEntry {
  readonly link: string;
  readonly line: string;
  readonly start: number;
}

/** Where a new line goes: its offset in the text, and the lines before and after it (null at either end). */
export interface IndexPlace {
  readonly at: number;
  readonly before: IndexEntry | null;
  readonly after: IndexEntry | null;
}

const HEAD = /^---\npalee_schema: 1\ntype: session_index\nupdated_at: "(\d{4}-\d{2}-\d{2})"\n---\n/;
const OPEN = LINE_OPEN;
const CLOSE = LINK_CLOSE;

/**
 * An index.md exactly as renderIndexOfLines writes it (any date), read line by line where it lies. Plain
 * functions over it rather than methods, so that main.js carries only those the plugin's operations use.
 */
export interface IndexText {
  readonly text: string;
  /** The number of lines (the total the text states, which readIndexText checked). */
  readonly count: number;
  /** Where the first line starts (text.length when there is none). */
  readonly body: number;
}

/**
 * The index when `text` is exactly what renderIndexOfLines writes (any date): its head, its total, and that many
 * lines, each a link first; null for anything else (missing, damaged, edited out of shape, a stray line). What
 * each line says about its session is not checked here (incremental-index.ts compares those it needs).
 */
export function readIndexText(text: string | null): IndexText | null {
  const index = text === null ? null : knownIndexText(text);
  return index !== null && linesCheck(index) ? index : null;
}

/**
 * The index from its head alone, for a text known to be one that readIndexText accepted (the device remembers
 * having checked it, DeviceMemory.indexListsExactly, or this process just wrote it); null if its head is not.
 */
export function knownIndexText(text: string): IndexText | null {
  const date = HEAD.exec(text)?.[1];
  if (date === undefined) return null;
  const head = renderIndexOfJoined("", 0, date).slice(0, -2); // without the total "0" and its line break
  const total = /^(0|[1-9]\d*)\n/.exec(text.slice(head.length, head.length + 12));
  if (!text.startsWith(head) || !total) return null;
  const count = Number(total[1]);
  const after = head.length + total[0].length;
  if (count === 0) return after === text.length ? { text, count, body: after } : null;
  if (text[after] !== "\n" || !text.endsWith("\n") || text.length === after + 1) return null;
  return { text, count, body: after + 1 };
}

/** Exactly `count` lines, each starting with a link that closes on its own line. No string is made. */
function linesCheck({ text, count, body }: IndexText): boolean {
  let lines = 0;
  for (let at = body; at < text.length; lines++) {
    const end = text.indexOf("\n", at); // the text ends with a line break (knownIndexText)
    const close = text.indexOf(CLOSE, at + OPEN.length);
    if (!text.startsWith(OPEN, at) || close < 0 || close > end) return false;
    at = end + 1;
  }
  return lines === count;
}

function entryAt(text: string, start: number): IndexEntry {
  const end = text.indexOf("\n", start);
  return { link: text.slice(start + OPEN.length, text.indexOf(CLOSE, start)), line: text.slice(start, end), start };
}

/** The lines, newest first. */
export function* indexEntries({ text, body }: IndexText): Generator<IndexEntry> {
  for (let at = body; at < text.length; at = text.indexOf("\n", at) + 1) yield entryAt(text, at);
}

/** The first line (the newest session), or null for an empty index. */
export function firstEntry(index: IndexText): IndexEntry | null {
  return index.count === 0 ? null : entryAt(index.text, index.body);
}

/**
 * The line linking to `link`, or null. A link never holds "]]", so `\n- [[<link>]]` starts only its line. `from`:
 * a line's start to search from first (the line before it in a trusted index); then from the top as well.
 */
export function findEntry({ text, count, body }: IndexText, link: string, from = body): IndexEntry | null {
  const needle = `\n${OPEN}${link}${CLOSE}`;
  let hit = count === 0 ? -1 : text.indexOf(needle, from - 1);
  if (hit < 0 && count > 0 && from > body) hit = text.indexOf(needle, body - 1);
  return hit < 0 ? null : entryAt(text, hit + 1);
}

/** The lines of one topic (`rendered` as renderTopic writes it), newest first: found by the text's own search. */
export function topicEntries({ text, body }: IndexText, rendered: string): IndexEntry[] {
  const tail = topicTail(rendered);
  const found: IndexEntry[] = [];
  for (let hit = text.indexOf(tail, body); hit >= 0; hit = text.indexOf(tail, hit + tail.length)) {
    const start = text.lastIndexOf("\n", hit) + 1;
    // Only where the tail follows the line's link (its first "]]"), not inside a topic's own words.
    if (text.indexOf(CLOSE, start) === hit) found.push(entryAt(text, start));
  }
  return found;
}

/**
 * Where a line linking to `link` goes in an index sorted newest name first: before the first line whose link
 * does not sort above it. Walks from the top, where a new session goes.
 */
export function placeOf(index: IndexText, link: string): IndexPlace {
  let before: IndexEntry | null = null;
  for (const entry of indexEntries(index)) {
    if (!(entry.link > link)) return { at: entry.start, before, after: entry };
    before = entry;
  }
  return { at: index.text.length, before, after: null };
}

/** The index's text with `line` inserted at `at` (a placeOf offset), or none, dated `today`. */
export function withLine({ text, count, body }: IndexText, line: string | null, at: number, today: string): string {
  const joined = count === 0 ? "" : text.slice(body, -1);
  if (line === null) return renderIndexOfJoined(joined, count, today);
  const offset = at - body;
  let next: string;
  if (count === 0) next = line;
  else if (offset >= joined.length) next = `${joined}\n${line}`;
  else next = `${joined.slice(0, offset)}${line}\n${joined.slice(offset)}`;
  return renderIndexOfJoined(next, count + 1, today);
}

/** index.md as read back: its lines (newest first) and the link each names (readIndexText, as arrays). */
export interface IndexLines {
  lines: string[];
  links: string[];
}

/** The lines and links of an index.md exactly as renderIndexOfLines writes it, or null (readIndexText). */
export function parseIndex(text: string | null): IndexLines | null {
  const index = readIndexText(text);
  if (index === null) return null;
  const lines: string[] = [];
  const links: string[] = [];
  for (const entry of indexEntries(index)) {
    lines.push(entry.line);
    links.push(entry.link);
  }
  return { lines, links };
}
