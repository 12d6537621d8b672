/**
 * The older notes' review fold (core/device-memory/older-reviews.ts) in the envelope of envelope.ts: per topic its
 * review days and ratings, the marks that settle its next action and its recalls, so that next and context read
 * no record of an older note. Trusted for a day from when the notes it folds were read, as the older notes' records
 * are (older-file.ts): a note rewritten in place is seen within it. Read only by next (and context), when asked.
 */
import type { Mark, OlderReviews, OlderTopic } from "../../core/device-memory/older-reviews";
import type { Rating } from "../../core/review/rating";
import type { MemoryOwner } from "./envelope";
import { jsonOrNull, seal, unseal } from "./envelope";
import { OLDER_MAX_AGE_MS } from "./older-file";

/** One topic as written: its days and ratings as two columns (0: unrated), marks and recalls as tuples. */
interface TopicBody {
  first: number;
  days: number[];
  ratings: number[];
  before: [number, number | null];
  marks: Array<[string, number, number]>;
  complete: boolean;
  recalls: Array<[number, string]>;
  count: number;
  minutes: number;
  dates: [string, string];
  newest: string[];
  topicNote: string | null;
  warnings: string[];
}

interface Body {
  split: string;
  keySplit: string;
  digest: string;
  count: number;
  last: [number, string] | null;
  ids: readonly string[];
  warnings: readonly string[];
  topics: Array<[string, TopicBody]>;
}

/** The fold's text, dated `at` (when the notes it folds were read). */
export function renderOlderReviews(owner: MemoryOwner, reviews: OlderReviews, at: number): string {
  const topics = [...reviews.topics].map(([id, t]): [string, TopicBody] => [
    id,
    {
      first: t.first,
      days: t.days.map((d) => d.day),
      ratings: t.days.map((d) => d.rating ?? 0),
      before: [t.before.step, t.before.due],
      marks: t.marks.map((m) => [m.name, m.day, m.bits]),
      complete: t.complete,
      recalls: t.recalls.map((r) => [r.rank, r.name]),
      count: t.count,
      minutes: t.minutes,
      dates: [t.firstDate, t.lastDate],
      newest: t.newest,
      topicNote: t.topicNote,
      warnings: t.warnings,
    },
  ]);
  const last = reviews.last && ([reviews.last.ms, reviews.last.id] as [number, string]);
  const { split, ids, warnings } = reviews;
  const { digest, count } = reviews.names;
  const body: Body = { split, keySplit: reviews.keySplit, digest, count, last, ids, warnings, topics };
  return seal("reviews", owner, `${JSON.stringify(body)}\n`, at);
}

const isText = (v: unknown): v is string => typeof v === "string";
const isTexts = (v: unknown): v is string[] => Array.isArray(v) && v.every(isText);
const isDay = (v: unknown): v is number => Number.isInteger(v);
const isCount = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;

function topicOf(v: unknown): OlderTopic | null {
  if (typeof v !== "object" || v === null) return null;
  const t = v as Partial<TopicBody>;
  const { days, ratings, marks, recalls } = t;
  if (!isDay(t.first) || !isCount(t.count) || typeof t.complete !== "boolean" || !isTexts(t.warnings)) return null;
  if (!Array.isArray(days) || !Array.isArray(ratings) || days.length !== ratings.length) return null;
  if (!days.every(isDay) || !ratings.every((r) => isCount(r) && r <= 4)) return null;
  if (!Array.isArray(marks) || !marks.every((m) => isMark(m))) return null;
  if (!Array.isArray(recalls) || !recalls.every((r) => Array.isArray(r) && isCount(r[0]) && isText(r[1]))) return null;
  const { dates, newest, topicNote, before } = t;
  if (!Array.isArray(before) || before.length !== 2 || !isDay(before[0]) || before[0] < -1 || before[0] > 6)
    return null;
  if (!(before[1] === null || isDay(before[1]))) return null;
  if (!isCount(t.minutes) || !Array.isArray(dates) || dates.length !== 2 || !isTexts(dates)) return null;
  if (!isTexts(newest) || !(topicNote === null || isText(topicNote))) return null;
  return {
    first: t.first,
    days: days.map((day, i) => ({ day, rating: ratings[i] === 0 ? null : (ratings[i] as Rating) })),
    before: { step: before[0], due: before[1] },
    marks: marks.map(([name, day, bits]): Mark => ({ name, day, bits })),
    complete: t.complete,
    recalls: recalls.map(([rank, name]) => ({ rank, name })),
    count: t.count,
    minutes: t.minutes,
    firstDate: dates[0],
    lastDate: dates[1],
    newest,
    topicNote,
    warnings: t.warnings,
  };
}

const isMark = (m: unknown): m is [string, number, number] =>
  Array.isArray(m) && m.length === 3 && isText(m[0]) && isDay(m[1]) && isCount(m[2]);

/** The fold a text holds, or null when it is not to be trusted (the envelope's rule, and a day at most). */
export function parseOlderReviews(text: string, owner: MemoryOwner, now: number): OlderReviews | null {
  const read = unseal(text, "reviews", owner, now);
  if (read === null || !(now - read.savedAt <= OLDER_MAX_AGE_MS)) return null;
  const body = jsonOrNull(read.body) as Partial<Body> | null;
  if (typeof body !== "object" || body === null) return null;
  const { split, keySplit, digest, count, last, ids, warnings, topics } = body;
  if (!isText(split) || !isText(keySplit) || !isText(digest) || !isCount(count) || !isTexts(ids) || !isTexts(warnings))
    return null;
  if (last !== null && !(Array.isArray(last) && Number.isFinite(last[0]) && isText(last[1]))) return null;
  if (!Array.isArray(topics)) return null;
  const byId = new Map<string, OlderTopic>();
  for (const entry of topics) {
    const topic = Array.isArray(entry) && isText(entry[0]) ? topicOf(entry[1]) : null;
    if (topic === null) return null;
    byId.set(entry[0], topic);
  }
  const lastSession = last === null ? null : { ms: last[0], id: last[1] };
  return { split, keySplit, names: { digest, count }, last: lastSession, ids, warnings, topics: byId };
}
