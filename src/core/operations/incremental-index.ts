import { sessionPath } from "../records/layout";
import type { ConfirmedSession } from "../records/records";
import { compareNewestFirst } from "../records/records";
import { ConflictError } from "../errors";
import type { Scan } from "../scan";
import { kindOf, readConfirmed, withBody } from "../scan";
import type { IndexText } from "../records/index-text";
import {
  findEntry,
  firstEntry,
  indexEntries,
  knownIndexText,
  placeOf,
  readIndexText,
  topicEntries,
  withLine,
} from "../records/index-text";
import { linkOf, renderIndexLine } from "../records/index-line";
import type { SessionContext, ViewsAfter } from "./context";
import type { TopicMemory } from "../records/hot-memory";
import { renderTopic } from "../topics/display";
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
  const found = await indexWith(ctx, added, scan);
  if (found === null) return null;
  const { index, place, names, addedName } = found;
  const next = withLine(index, added && renderIndexLine(added), place, today(ctx));
  try {
    if (next !== index.text) await ctx.ports.store.replace(ctx.layout.index, index.text, next);
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
    return null; // another writer (a sync, another device): derive both views from the notes as they are
  }
  ctx.ports.memory?.indexChecked(next, names, null, addedName);
  const written = knownIndexText(next);
  let newest = found.newest;
  // The topic's memory from the index's lines of that topic; from every note once the index proves untrustworthy.
  let every: readonly ConfirmedSession[] | null = null;
  const everyNote = async (): Promise<readonly ConfirmedSession[]> => {
    const others = (await ctx.scan()).confirmed.filter((s) => s.path !== added?.path);
    return added ? withSession(others, added) : others;
  };
  const memories = memoryCache(async (topicId) => {
    const fromIndex = every || !written ? null : await memoryFrom(topicId, indexLoads(ctx, written, topicId, added));
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
  index: IndexText,
  topicId: string,
  added: ConfirmedSession | null,
): SessionLoad[] {
  const addedLink = added && linkOf(added.path);
  return topicEntries(index, renderTopic(topicId)).map(({ link, line }) => async () => {
    if (added && link === addedLink) return added;
    const session = await sessionOfLine(ctx, link, line);
    return session && withBody(ctx.ports.store, session, ctx.offsetAt);
  });
}

/**
 * `topicId`'s memory for an operation that writes no session (start): from the index's lines of the topic
 * after a bounded scan when the index can be trusted, else from every note.
 */
export async function memoryForScan(ctx: SessionContext, topicId: string, scan: Scan): Promise<TopicMemory> {
  const index = await trustedIndex(ctx, scan, null);
  const memory = index && (await memoryFrom(topicId, indexLoads(ctx, index, topicId, null)));
  return memory ?? memoryOfList(ctx, topicId, await everyNote(ctx, scan));
}

/** The session a line links to, if it reads as a usable note whose line is exactly this one. */
export async function sessionOfLine(ctx: SessionContext, link: string, line: string): Promise<ConfirmedSession | null> {
  // Not from the older notes kept (DeviceMemory.cachedSession): a call that reads a few notes by their index lines
  // (list, context, an end's neighbours) reads them sooner than it would load the whole history's records.
  const result = await readConfirmed(ctx.ports.store, sessionPath(ctx.layout, `${link}.md`), ctx.offsetAt);
  return "record" in result && renderIndexLine(result.record) === line ? result.record : null;
}

/**
 * index.md as read when it can be trusted, else null: it must list exactly the confirmed notes of the folder as
 * `scan` (a bounded scan) listed them (`except`, a note written since, left out), newest file name first —
 * checked line by line, or known from this device's memory of having checked this very text beside these very
 * names (DeviceMemory.indexListsExactly) — and every note the scan read must agree with its line.
 */
export async function trustedIndex(ctx: SessionContext, scan: Scan, except: string | null): Promise<IndexText | null> {
  const store = ctx.ports.store;
  const text = scan.partial ? await store.read(ctx.layout.index) : null;
  if (text === null || !scan.partial) return null;
  const names = scan.partial.names;
  const memory = ctx.ports.memory;
  const known = memory?.indexListsExactly(text, names, except) === true;
  const index = known ? knownIndexText(text) : readIndexText(text);
  if (index === null || (!known && !listsExactly(index, names, except))) return null;
  if (!known) memory?.indexChecked(text, names, except, null);
  return agreesWithScan(index, scan, ctx.indexLine, ctx.layout.sessions) ? index : null;
}

/** A trusted index.md, where `added` goes in it, and the newest session with its body (hot.md's body). */
interface PlacedIndex {
  /** index.md as read (without `added`: its text is the expected text of the optimistic write). */
  index: IndexText;
  /** Where `added`'s line goes (the text's end when there is none). */
  place: number;
  newest: ConfirmedSession | null;
  /** The folder's confirmed names as the scan listed them, and `added`'s file name: what the new text lists. */
  names: readonly string[];
  addedName: string | null;
}

/**
 * The trusted index.md (trustedIndex, `added` already written, or null, left out) and where `added` goes in it:
 * where its name sorts, its neighbours read to confirm that this is also its place by recorded start.
 */
async function indexWith(ctx: SessionContext, added: ConfirmedSession | null, scan: Scan): Promise<PlacedIndex | null> {
  const addedLink = added && linkOf(added.path);
  const addedName = addedLink && `${addedLink}.md`;
  const index = await trustedIndex(ctx, scan, addedName);
  if (index === null || !scan.partial) return null;
  let place = index.text.length;
  let newest: ConfirmedSession | null = null;
  if (added && addedLink !== null) {
    const where = placeOf(index, addedLink);
    for (const [neighbour, above] of [
      [where.before, true],
      [where.after, false],
    ] as const) {
      if (neighbour === null) continue;
      const session = await sessionOfLine(ctx, neighbour.link, neighbour.line);
      if (!session) return null;
      const order = above ? compareNewestFirst(session, added) : compareNewestFirst(added, session);
      if (order >= 0) return null;
    }
    place = where.at;
    if (where.before === null) newest = added;
  }
  const first = firstEntry(index);
  if (newest === null && first !== null) {
    const session = await sessionOfLine(ctx, first.link, first.line);
    if (!session) return null;
    newest = await withBody(ctx.ports.store, session, ctx.offsetAt);
  }
  return { index, place, newest, names: scan.partial.names, addedName };
}

/**
 * The lines link to exactly the folder's confirmed file names (without ".md"; `except` left out), each
 * once, newest name first: as many as there are names, every one a name, in strictly descending order. No sort.
 */
function listsExactly(index: IndexText, names: readonly string[], except: string | null): boolean {
  const folder = new Set(names);
  if (except !== null) folder.delete(except);
  if (folder.size !== index.count) return false;
  let previous: string | null = null;
  for (const { link } of indexEntries(index)) {
    if (!folder.has(`${link}.md`) || (previous !== null && !(previous > link))) return false;
    previous = link;
  }
  return true;
}

/** The notes the operation's scan read agree with their lines, and none of the folder's notes was unusable. */
function agreesWithScan(
  index: IndexText,
  scan: Scan,
  lineOf: (session: ConfirmedSession) => string,
  sessions: string,
): boolean {
  // Only the folder's own notes count here: one moved into a subfolder is named by the scan, never indexed.
  const own = (path: string): boolean => path.slice(0, path.lastIndexOf("/")) === sessions;
  if (scan.skipped.some((s) => own(s.path) && kindOf(`${linkOf(s.path)}.md`) === "confirmed")) return false;
  // Newest name first, as a trusted index's lines are (each link on one line): each searched from the line before it.
  const links = scan.confirmed.map((s) => ({ s, link: linkOf(s.path) })).sort((x, y) => (x.link < y.link ? 1 : -1));
  // In name order by recorded start too: a rebuild writes by start, so notes whose names and starts disagree (a
  // hand-edited start) and sort otherwise leave an index in name order only after a hand edit of its lines.
  let from = index.body;
  return links.every(({ s, link }, i) => {
    if (i > 0 && compareNewestFirst(links[i - 1].s, s) > 0) return false;
    const entry = findEntry(index, link, from);
    if (entry !== null) from = entry.start;
    return entry?.line === lineOf(s);
  });
}
