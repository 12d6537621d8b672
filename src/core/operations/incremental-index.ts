import { sessionPath } from "../layout";
import type { ConfirmedSession } from "../records";
import { compareNewestFirst } from "../records";
import { partitionPoint } from "../sorted";
import { ConflictError } from "../errors";
import type { Scan } from "../scan";
import { kindOf, readConfirmed, withBody } from "../scan";
import type { IndexState } from "../session-index";
import { linkOf, parseIndex, renderIndexLine, renderIndexOfLines } from "../session-index";
import type { SessionContext, ViewsAfter } from "./context";
import type { TopicMemory } from "../hot-memory";
import { renderTopic } from "../ids";
import { everyNote, today } from "./reading";
import type { SessionLoad } from "./topic-memory";
import { memoryCache, memoryFrom, memoryOfList } from "./topic-memory";
import { newestWithBody, withSession, writeHotView } from "./views";

/*
 * index.md as the derived state of the history (docs/architecture.md, "Cost that does not grow with history").
 * An operation that adds one session inserts its line into the existing index instead of re-reading every
 * note, once a cheap check shows the index is what a rebuild would write: its exact shape, one line per
 * confirmed note in the folder in file-name order, and the notes the operation read agreeing with their lines.
 * Otherwise (a note synced, deleted, renamed or unusable, the index damaged or edited) the caller rebuilds
 * from every note. Passed in by the CLI (SessionsOptions.viewsAfter).
 */

/**
 * The views after `added` was written, from a trusted index.md (indexWith) and the operation's bounded scan;
 * null when the index cannot be trusted or changed meanwhile: the caller then derives them from every note.
 */
export const insertIntoViews: ViewsAfter = async (ctx, added, pointer, scan) => {
  const index = await indexWith(ctx, added, scan);
  if (index === null) return null;
  const next = renderIndexOfLines(index.lines, today(ctx));
  try {
    if (next !== index.text) await ctx.ports.store.replace(ctx.layout.index, index.text, next);
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
    return null; // another writer (a sync, another device): derive both views from the notes as they are
  }
  let newest = index.newest;
  // The topic's memory from the index's lines of that topic; from every note once the index proves untrustworthy.
  let every: readonly ConfirmedSession[] | null = null;
  const everyNote = async (): Promise<readonly ConfirmedSession[]> => {
    const others = (await ctx.scan()).confirmed.filter((s) => s.path !== added?.path);
    return added ? withSession(others, added) : others;
  };
  const memories = memoryCache(async (topicId) => {
    const fromIndex = every ? null : await memoryFrom(topicId, indexLoads(ctx, index, topicId, added));
    return fromIndex ?? memoryOfList(ctx, topicId, (every ??= await everyNote()));
  });
  const refresh = async (): Promise<void> => {
    every = await everyNote();
    newest = await newestWithBody(ctx, every);
    memories.clear();
  };
  return writeHotView(ctx, () => newest, memories, pointer, {}, refresh);
};

/**
 * The loads of `topicId`'s sessions from a trusted index's lines (newest first): only lines naming the topic,
 * each note read when needed; a note that does not read as its line says makes the index untrustworthy (null).
 */
function indexLoads(
  ctx: SessionContext,
  index: { lines: readonly string[]; links: readonly string[] },
  topicId: string,
  added: ConfirmedSession | null,
): SessionLoad[] {
  // Each line is `- [[<link>]] - Topic: <topic> (`…: its topic is checked in place (no string made per line).
  const tail = `]] - Topic: ${renderTopic(topicId)} (`;
  const addedLink = added && linkOf(added.path);
  return index.links.flatMap((link, i) => {
    const line = index.lines[i];
    if (!line.startsWith(tail, link.length + 4) || !line.startsWith("- [[") || !line.startsWith(link, 4)) return [];
    return [
      async () => {
        if (added && link === addedLink) return added;
        const session = await sessionOfLine(ctx, link, line);
        return session && withBody(ctx.ports.store, session, ctx.offsetAt);
      },
    ];
  });
}

/**
 * `topicId`'s memory for an operation that writes no session (start): from the index's lines of the topic
 * after a bounded scan when the index can be trusted, else from every note.
 */
export async function memoryForScan(ctx: SessionContext, topicId: string, scan: Scan): Promise<TopicMemory> {
  if (scan.partial) {
    const index = await indexWith(ctx, null, scan);
    const memory = index && (await memoryFrom(topicId, indexLoads(ctx, index, topicId, null)));
    if (memory) return memory;
  }
  return memoryOfList(ctx, topicId, await everyNote(ctx, scan));
}

/** The session a line links to, if it reads as a usable note whose line is exactly this one. */
export async function sessionOfLine(ctx: SessionContext, link: string, line: string): Promise<ConfirmedSession | null> {
  const result = await readConfirmed(ctx.ports.store, sessionPath(ctx.layout, `${link}.md`), ctx.offsetAt);
  return "record" in result && renderIndexLine(result.record) === line ? result.record : null;
}

/**
 * index.md with `added` (already written, or null) inserted, or null when the index cannot be trusted. The
 * index must list exactly the other confirmed notes of the folder as `scan` (a bounded scan, from before
 * `added`) listed them, newest file name first; the new line goes where its name sorts, and its neighbours
 * are read to confirm that this is also its place by recorded start.
 */
export async function indexWith(
  ctx: SessionContext,
  added: ConfirmedSession | null,
  scan: Scan,
): Promise<IndexState | null> {
  const text = await ctx.ports.store.read(ctx.layout.index);
  const parsed = parseIndex(text);
  if (text === null || parsed === null || !scan.partial) return null;
  const { lines, links } = parsed;
  const addedLink = added && linkOf(added.path);
  if (
    !listsExactly(links, scan.partial.names, addedLink) ||
    !agreesWithScan(parsed, scan, ctx.indexLine, ctx.layout.sessions)
  )
    return null;
  let at = 0;
  if (added && addedLink !== null) {
    at = positionOf(links, addedLink);
    for (const i of [at - 1, at]) {
      if (i < 0 || i >= links.length) continue;
      const neighbour = await sessionOfLine(ctx, links[i], lines[i]);
      if (!neighbour) return null;
      const order = i < at ? compareNewestFirst(neighbour, added) : compareNewestFirst(added, neighbour);
      if (order >= 0) return null;
    }
    lines.splice(at, 0, renderIndexLine(added));
    links.splice(at, 0, addedLink);
  }
  let newest = added && at === 0 ? added : null;
  if (newest === null && links.length > 0) {
    const first = await sessionOfLine(ctx, links[0], lines[0]);
    if (!first) return null;
    newest = await withBody(ctx.ports.store, first, ctx.offsetAt);
  }
  return { text, lines, links, newest };
}

/**
 * The links are the folder's confirmed file names (without ".md"; `addedLink` left out), each once, newest name
 * first: as many as there are names, every one a name, in strictly descending order. No sort: O(n).
 */
function listsExactly(links: readonly string[], names: readonly string[], addedLink: string | null): boolean {
  const folder = new Set(names);
  if (addedLink !== null) folder.delete(`${addedLink}.md`);
  if (folder.size !== links.length) return false;
  return links.every((link, i) => folder.has(`${link}.md`) && (i === 0 || links[i - 1] > link));
}

/** Where `link` goes in links sorted newest name first (descending): the first position whose link sorts below. */
function positionOf(links: readonly string[], link: string): number {
  return partitionPoint(links.length, (i) => links[i] > link);
}

/** The notes the operation's scan read agree with their lines, and none of the folder's notes was unusable. */
function agreesWithScan(
  index: { lines: readonly string[]; links: readonly string[] },
  scan: Scan,
  lineOf: (session: ConfirmedSession) => string,
  sessions: string,
): boolean {
  // Only the folder's own notes count here: one moved into a subfolder is named by the scan, never indexed.
  const own = (path: string): boolean => path.slice(0, path.lastIndexOf("/")) === sessions;
  if (scan.skipped.some((s) => own(s.path) && kindOf(`${linkOf(s.path)}.md`) === "confirmed")) return false;
  return scan.confirmed.every((s) => {
    const link = linkOf(s.path);
    const at = positionOf(index.links, link);
    return index.links[at] === link && index.lines[at] === lineOf(s);
  });
}
