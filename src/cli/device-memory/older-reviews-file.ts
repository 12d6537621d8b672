/**
 * The older notes' review fold (core/device-memory/older-reviews.ts) in the envelope of envelope.ts: per topic its
 * review days and ratings, the marks that settle its next action and its recalls, so that next and context read
 * no record of an older note. Trusted for a day from when the notes it folds were read, as the older notes' records
 * are (older-file.ts): a note rewritten in place is seen within it. Read only by next (and context), when asked.
 */
import type { Mark, OlderReviews, OlderTopic } from "../../core/device-memory/older-reviews";
import type { Rating } from "../../core/review/rating";
import type { ReviewDay } from "../../core/review/schedule";
import type { MemoryOwner } from "./envelope";
import { jsonOrNull, seal, unseal } from "./envelope";
import { OLDER_MAX_AGE_MS } from "./older-file";

/**
 * One topic as written: its review days as one text, marks and recalls as tuples. Thousands of days in a long
 * history, of which next asks only the last: the text is checked by one pattern, and parsed only when read.
 */
interface TopicBody {
  first: number;
  /** Each day's number and rating (0: none) as "day:rating", comma-separated, oldest first. */
  days: string;
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
      days: t.days.map((d) => `${d.day}:${d.rating ?? 0}`).join(","),
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

/** A topic as written, or null when any of it is of another shape. */
function topicOf(v: unknown): OlderTopic | null {
  if (typeof v !== "object" || v === null) return null;
  const t = v as Partial<TopicBody>;
  const { first, count, minutes, complete, warnings, topicNote, newest, days } = t;
  if (!isDay(first) || !isCount(count) || !isCount(minutes) || typeof complete !== "boolean") return null;
  if (!isTexts(warnings) || !(topicNote === null || isText(topicNote)) || !isTexts(newest)) return null;
  const before = beforeOf(t.before);
  const dates = t.dates;
  if (before === null || !Array.isArray(dates) || dates.length !== 2 || !isTexts(dates)) return null;
  const marks = marksOf(t.marks);
  const recalls = recallsOf(t.recalls);
  if (!isDays(days) || marks === null || recalls === null) return null;
  const [firstDate, lastDate] = dates;
  let made: ReviewDay[] | undefined;
  return {
    first,
    // Made when first read (next asks only the last: continuedSchedule); the pattern let only such entries through.
    get days() {
      return (made ??= days === "" ? [] : days.split(",").map(dayOf));
    },
    last: days === "" ? null : dayOf(days.slice(days.lastIndexOf(",") + 1)),
    before,
    marks,
    complete,
    recalls,
    count,
    minutes,
    firstDate,
    lastDate,
    newest,
    topicNote,
    warnings,
  };
}

/** A "day:rating" entry as a review day (rating 0: none). */
const dayOf = (entry: string): ReviewDay => {
  const rating = entry.charCodeAt(entry.length - 1) - 48;
  return { day: Number(entry.slice(0, -2)), rating: rating === 0 ? null : (rating as Rating) };
};

/** "day:rating" entries: day numbers as JSON writes integers, ratings 0 to 4; or none. */
const DAYS_TEXT = /^(?:-?(?:0|[1-9]\d{0,8}):[0-4](?:,-?(?:0|[1-9]\d{0,8}):[0-4])*)?$/;

const isDays = (v: unknown): v is string => typeof v === "string" && DAYS_TEXT.test(v);

function beforeOf(before: unknown): OlderTopic["before"] | null {
  if (!Array.isArray(before) || before.length !== 2) return null;
  const [step, due] = before as unknown[];
  if (!isDay(step) || step < -1 || step > 6 || !(due === null || isDay(due))) return null;
  return { step, due };
}

function marksOf(marks: unknown): Mark[] | null {
  if (!Array.isArray(marks)) return null;
  const out: Mark[] = [];
  for (const m of marks as unknown[]) {
    if (!Array.isArray(m) || m.length !== 3 || !isText(m[0]) || !isDay(m[1]) || !isCount(m[2])) return null;
    out.push({ name: m[0], day: m[1], bits: m[2] });
  }
  return out;
}

function recallsOf(recalls: unknown): OlderTopic["recalls"] | null {
  if (!Array.isArray(recalls)) return null;
  const out: OlderTopic["recalls"] = [];
  for (const r of recalls as unknown[]) {
    if (!Array.isArray(r) || !isCount(r[0]) || !isText(r[1])) return null;
    out.push({ rank: r[0], name: r[1] });
  }
  return out;
}

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
