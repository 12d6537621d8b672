/**
 * The running totals behind stats (contract §4a): per day, per ISO week and per topic, with the flagged sessions.
 * `tallyAll` folds every session; `tallyAfter` takes the last tally forward by the sessions inserted into its list
 * (the plugin's history view after an end: the scan hands out the previous list with the new note inserted), so
 * a redraw costs what was added, not the whole history. It answers only when the result is the fold's own,
 * else null (the caller folds everything).
 */
import { mondayOf } from "../time";

export interface Totals {
  minutes: number;
  sessions: number;
}

export interface Bucket extends Totals {
  key: number;
}

/** A topic's running totals while counting: day numbers, and the newest start that set its topic note. */
export interface TopicBucket extends Totals {
  topicId: string;
  topicNote: string | null;
  firstDay: number;
  lastDay: number;
  lastMs: number;
  /** Whether another session started at `lastMs` too: the list order then decided the topic note. */
  topTied: boolean;
}

/** A session whose recorded values could not be counted as they are, and what was done about it. */
export interface FlaggedSession {
  sessionId: string;
  path: string;
  problem: string;
  /** Minutes counted for it; 0 when it was left out. */
  countedMinutes: number;
  counted: boolean;
}

/** What the tally needs of a session. */
export interface TallySession {
  sessionId: string;
  path: string;
  topicId: string;
  startedMs: number;
  topicNote: string | null;
}

/** A session's day and the minutes it counts for (stats.ts countedWith). */
export interface TallyCount {
  day: number;
  counted: { minutes: number; problem: string | null; counted: boolean };
}

export interface Tally {
  total: Totals;
  days: Map<number, Bucket>;
  weeks: Map<number, Bucket>;
  topics: Map<string, TopicBucket>;
  flagged: FlaggedSession[];
}

/** The last tally of a list, kept in the stats memo: valid from `now` until `countsFrom` (see tallyAll). */
export interface KeptTally<S extends TallySession = TallySession> {
  list: readonly S[];
  now: number;
  /** The earliest start of a session left out as in the future: from then on it counts, so fold again. */
  countsFrom: number;
  tally: Tally;
}

function add(map: Map<number, Bucket>, key: number, minutes: number): void {
  const bucket = map.get(key);
  if (bucket) {
    bucket.minutes += minutes;
    bucket.sessions += 1;
  } else map.set(key, { key, minutes, sessions: 1 });
}

export function addTopic(topics: Map<string, TopicBucket>, session: TallySession, day: number, minutes: number): void {
  const topic = topics.get(session.topicId);
  if (!topic) {
    topics.set(session.topicId, {
      topicId: session.topicId,
      minutes,
      sessions: 1,
      firstDay: day,
      lastDay: day,
      lastMs: session.startedMs,
      topicNote: session.topicNote,
      topTied: false,
    });
  } else {
    topic.minutes += minutes;
    topic.sessions += 1;
    topic.firstDay = Math.min(topic.firstDay, day);
    topic.lastDay = Math.max(topic.lastDay, day);
    if (session.startedMs >= topic.lastMs) {
      topic.topTied = session.startedMs === topic.lastMs;
      topic.lastMs = session.startedMs;
      topic.topicNote = session.topicNote ?? topic.topicNote;
    } else topic.topicNote ??= session.topicNote;
  }
}

/** Adds one counted session (its day in range) to the tally. */
function addSession(tally: Tally, session: TallySession, { day, counted }: TallyCount): void {
  const { minutes, problem } = counted;
  if (problem) {
    tally.flagged.push({
      sessionId: session.sessionId,
      path: session.path,
      problem,
      countedMinutes: minutes,
      counted: counted.counted,
    });
  }
  if (!counted.counted) return;
  tally.total.minutes += minutes;
  tally.total.sessions += 1;
  add(tally.days, day, minutes);
  add(tally.weeks, mondayOf(day), minutes);
  addTopic(tally.topics, session, day, minutes);
}

/** Every session folded, in list order; `inRange` says which days count at all. */
export function tallyAll<S extends TallySession>(
  sessions: readonly S[],
  now: number,
  count: (session: S) => TallyCount,
  inRange: (day: number) => boolean = () => true,
): KeptTally<S> {
  const tally: Tally = {
    total: { minutes: 0, sessions: 0 },
    days: new Map(),
    weeks: new Map(),
    topics: new Map(),
    flagged: [],
  };
  let countsFrom = Number.POSITIVE_INFINITY;
  for (const session of sessions) {
    const result = count(session);
    if (!inRange(result.day)) continue;
    if (!result.counted.counted && session.startedMs > now) countsFrom = Math.min(countsFrom, session.startedMs);
    addSession(tally, session, result);
  }
  return { list: sessions, now, countsFrom, tally };
}

const copied = <K, V extends object>(map: Map<K, V>): Map<K, V> => new Map([...map].map(([k, v]) => [k, { ...v }]));

/**
 * Whether adding `session` to `kept`'s topic gives what the fold gives. The fold takes the topic note of the
 * newest session, else the first one named in list order (ties at the top: the last of them), so an added
 * session may be the topic's newest (no tie at its old top), or an older one that names no note; a topic new in
 * this step takes every added session (they are folded in list order, as the whole list would), and so does a
 * topic whose sessions name no note.
 */
function addsInOrder(kept: Tally, session: TallySession, addedToTopic: number): boolean {
  const topic = kept.topics.get(session.topicId);
  // No note named on either side (a topic without a topic note): the order cannot matter.
  if (!topic || (topic.topicNote === null && session.topicNote === null)) return true;
  if (addedToTopic > 1) return false;
  if (session.startedMs > topic.lastMs) return !topic.topTied;
  return session.startedMs < topic.lastMs && session.topicNote === null;
}

/**
 * `kept` taken forward to `sessions` at `now`, when that gives what tallyAll gives: `sessions` is kept's list
 * with sessions inserted (`added`), none of them flagged or changing which topic note the list order picks,
 * and no session left out as in the future has started since. Else null.
 */
export function tallyAfter<S extends TallySession>(
  kept: KeptTally<S>,
  sessions: readonly S[],
  now: number,
  count: (session: S) => TallyCount,
  added: readonly S[] | null,
): KeptTally<S> | null {
  if (added === null || now < kept.now || now >= kept.countsFrom) return null;
  const counts = added.map(count);
  const perTopic = new Map<string, number>();
  for (const s of added) perTopic.set(s.topicId, (perTopic.get(s.topicId) ?? 0) + 1);
  const plain = counts.every(
    (c, i) =>
      c.counted.counted &&
      c.counted.problem === null &&
      addsInOrder(kept.tally, added[i], perTopic.get(added[i].topicId) ?? 0),
  );
  if (!plain) return null;
  const { tally } = kept;
  const next: Tally = {
    total: { ...tally.total },
    days: copied(tally.days),
    weeks: copied(tally.weeks),
    topics: copied(tally.topics),
    flagged: tally.flagged,
  };
  added.forEach((session, i) => addSession(next, session, counts[i]));
  return { list: sessions, now, countsFrom: kept.countsFrom, tally: next };
}
