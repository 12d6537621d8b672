import type { HotState } from "../hot-memory";
import { isOpen } from "../hot-memory";
import { sessionPath } from "../layout";
import type { ConfirmedSession } from "../records";
import { compareNewestFirst } from "../records";
import type { Scan } from "../scan";
import { kindOf, readConfirmed, scanRecentSessions, withBody } from "../scan";
import { linkOf, parseIndex, renderIndexLine } from "../session-index";
import { parseTimestamp } from "../time";
import type { SessionContext } from "./context";

/**
 * index.md as the derived state of the history (docs/architecture.md, "Views that do not grow with history").
 * An operation that adds one session inserts its line into the existing index instead of re-reading every
 * note, once a cheap check shows the index is what a rebuild would write: its exact shape, and one line per
 * confirmed note in the folder, in file-name order. Otherwise (a note synced, deleted, renamed or unusable, the
 * index damaged or edited) the caller rebuilds from every note.
 */
export interface IndexState {
  /** index.md as read (the expected text of the optimistic write). */
  text: string;
  /** The lines after the change, newest first. */
  lines: string[];
  /** The links of `lines`, in the same order. */
  links: string[];
  /** The newest session, with its body (hot.md's body). */
  newest: ConfirmedSession | null;
}

/**
 * The confirmed notes' file names without ".md", newest name first; from `listed` (the folder's confirmed file
 * names, as the operation's scan listed them) or a fresh listing.
 */
export async function confirmedLinks(ctx: SessionContext, listed?: readonly string[]): Promise<string[]> {
  const names = listed ?? (await ctx.ports.store.list(ctx.layout.sessions));
  return names
    .filter((n) => kindOf(n) === "confirmed")
    .map((n) => n.slice(0, -3))
    .sort()
    .reverse();
}

/** The session a line links to, if it reads as a usable note whose line is exactly this one. */
async function sessionOfLine(ctx: SessionContext, link: string, line: string): Promise<ConfirmedSession | null> {
  const result = await readConfirmed(ctx.ports.store, sessionPath(ctx.layout, `${link}.md`), ctx.offsetAt);
  if (!("record" in result) || renderIndexLine(result.record) !== line) return null;
  return result.record;
}

/**
 * index.md with `added` (already written, or null) inserted, or null when the index cannot be trusted. The
 * index must list exactly the other confirmed notes, newest file name first; the new line goes where its name
 * sorts, and its two neighbours are read to confirm that this is also its place by recorded start.
 */
export async function indexWith(
  ctx: SessionContext,
  added: ConfirmedSession | null,
  scan?: Scan,
): Promise<IndexState | null> {
  const listed = scan?.partial?.names;
  const text = await ctx.ports.store.read(ctx.layout.index);
  const parsed = parseIndex(text);
  if (text === null || parsed === null) return null;
  const addedLink = added ? linkOf(added.path) : null;
  const names = (await confirmedLinks(ctx, listed)).filter((n) => n !== addedLink);
  const { lines, links } = parsed;
  if (names.length !== links.length || names.some((n, i) => links[i] !== n)) return null;
  if (scan && !agreesWithScan(parsed, scan, ctx.indexLine)) return null;
  let at = 0;
  if (added && addedLink !== null) {
    while (at < links.length && links[at] > addedLink) at++;
    for (const i of [at - 1, at].filter((k) => k >= 0 && k < links.length)) {
      const neighbour = await sessionOfLine(ctx, links[i], lines[i]);
      if (!neighbour) return null;
      const order = i < at ? compareNewestFirst(neighbour, added) : compareNewestFirst(added, neighbour);
      if (order >= 0) return null;
    }
    lines.splice(at, 0, renderIndexLine(added));
    links.splice(at, 0, addedLink);
  }
  const newest = await newestOf(ctx, added && at === 0 ? added : null, links.slice(0, 1), lines);
  return newest === undefined ? null : { text, lines, links, newest };
}

/** The newest session with its body: `added` when it is first, else the first line's note (undefined: unusable). */
async function newestOf(
  ctx: SessionContext,
  added: ConfirmedSession | null,
  links: readonly string[],
  lines: readonly string[],
): Promise<ConfirmedSession | null | undefined> {
  if (added) return added;
  if (links.length === 0) return null;
  const first = await sessionOfLine(ctx, links[0], lines[0]);
  return first ? withBody(ctx.ports.store, first, ctx.offsetAt) : undefined;
}

/**
 * The newest confirmed session (with its body) of a scan: from the scan when it read every note, else from a
 * trusted index.md, else from a full scan.
 */
export async function newestSession(ctx: SessionContext, scan: Scan): Promise<ConfirmedSession | null> {
  if (scan.partial) {
    const index = await indexWith(ctx, null);
    if (index) return index.newest;
    scan = await ctx.scan();
  }
  return scan.confirmed[0] ? withBody(ctx.ports.store, scan.confirmed[0], ctx.offsetAt) : null;
}

/**
 * The scan an operation reconciles with: the drafts and only the notes that may have absorbed one of them or
 * hot.md's open session (scan.ts scanRecentSessions), when the store can tell which notes changed; else, or
 * when that cannot be bounded, every note. `required`: draft IDs the operation must find among the drafts.
 */
export async function scanForReconcile(
  ctx: SessionContext,
  hot: HotState,
  required: readonly string[] = [],
): Promise<Scan> {
  const starts = isOpen(hot) ? [parseTimestamp(hot.startedAt, ctx.offsetAt)] : [];
  const now = ctx.ports.clock.now();
  const recent = await scanRecentSessions(ctx.ports.store, ctx.layout, ctx.offsetAt, { now, starts, required });
  return recent ?? ctx.scan();
}

/** The sessions of an index's first `count` lines, or null if one of them no longer reads as its line says. */
export async function sessionsOfIndex(
  ctx: SessionContext,
  index: IndexState,
  count: number,
): Promise<ConfirmedSession[] | null> {
  const sessions: ConfirmedSession[] = [];
  for (let i = 0; i < Math.min(count, index.links.length); i++) {
    const session = await sessionOfLine(ctx, index.links[i], index.lines[i]);
    if (!session) return null;
    sessions.push(session);
  }
  return sessions;
}

/** The notes the operation's scan read agree with their lines, and none of them was unusable. */
function agreesWithScan(
  index: { lines: readonly string[]; links: readonly string[] },
  scan: Scan,
  lineOf: (session: ConfirmedSession) => string,
): boolean {
  if (scan.skipped.some((s) => kindOf(linkOf(s.path) + ".md") === "confirmed")) return false;
  const at = new Map(index.links.map((link, i) => [link, i]));
  return scan.confirmed.every((s) => index.lines[at.get(linkOf(s.path)) ?? -1] === lineOf(s));
}
