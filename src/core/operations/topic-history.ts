/**
 * One topic's confirmed sessions, newest first, as the brief and latest read them (contract §4b): from a full
 * scan, or, for the CLI (which has no metadata cache), from a trusted index.md without reading every note
 * (incremental-index.ts: the same trust check as the bounded list). From the index, the totals come from the
 * topic's lines and only the notes asked for are read, each checked against its line.
 */
import { briefTotals } from "../records/brief";
import { renderTopic } from "../topics/display";
import { parseIndexLine } from "../records/index-line";
import type { IndexEntry } from "../records/index-text";
import { indexEntries } from "../records/index-text";
import type { ConfirmedSession } from "../records/records";
import type { TopicHistory, TopicHistorySource } from "./context";
import { sessionOfLine, trustedIndex } from "./incremental-index";
import { scanRecent } from "./reading";

// Defined beside SessionContext (context.ts), which holds a source, so the two files do not import each other.
export type { TopicHistory, TopicHistorySource } from "./context";

/** A note the index named no longer agrees with its line: the caller starts again from every note. */
export class IndexDisagrees extends Error {}

export function historyOf(sessions: readonly ConfirmedSession[]): TopicHistory {
  return {
    totals: briefTotals(sessions),
    at: (i) => Promise.resolve(sessions[i] ?? null),
    topicNote: () => sessions.find((s) => s.topicNote !== null)?.topicNote ?? null,
  };
}

/** From a trusted index.md (its lines read by parseIndexLine), or null when it cannot be trusted. */
export const indexedHistory: TopicHistorySource = async (ctx, topicId) => {
  const now = ctx.ports.clock.now();
  const scan = await scanRecent(ctx, { now, starts: [], required: [] });
  const index = scan && (await trustedIndex(ctx, scan, null));
  if (!index) return null;
  const topic = topicId === null ? null : renderTopic(topicId);
  const mine: IndexEntry[] = [];
  const days: string[] = [];
  let minutes = 0;
  for (const entry of indexEntries(index)) {
    const line = parseIndexLine(entry.line);
    if (line === null) return null;
    if (topic !== null && line.topic !== topic) continue;
    mine.push(entry);
    days.push(line.date);
    minutes += line.minutes;
  }
  const read: ConfirmedSession[] = [];
  return {
    totals: { sessions: mine.length, minutes, first: days.sort()[0] ?? null, last: days[days.length - 1] ?? null },
    at: async (i) => {
      if (i >= mine.length) return null;
      const session = await sessionOfLine(ctx, mine[i].link, mine[i].line);
      if (!session || (topicId !== null && session.topicId !== topicId)) throw new IndexDisagrees();
      read[i] = session;
      return session;
    },
    topicNote: () => read.find((s) => s !== undefined && s.topicNote !== null)?.topicNote ?? null,
    nameAt: (i) => (i < mine.length ? `${mine[i].link}.md` : null),
    count: mine.length,
  };
};
