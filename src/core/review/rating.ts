/**
 * The recall rating (contract §2 `recall_rating`, §4c recall step): the learner's own 1–4 judgement of what they
 * recalled at the end of a session. Read leniently from notes (a hand edit in Obsidian's properties), refused
 * strictly as new input.
 */
import { UsageError } from "../errors";

export type Rating = 1 | 2 | 3 | 4;

/** The words of the four ratings, in order: again is 1, easy is 4. */
export const RATING_WORDS = ["again", "hard", "good", "easy"] as const;

/** Each rating's one-line meaning, as the end dialog and the help show it. */
export const RATING_MEANINGS: Readonly<Record<Rating, string>> = {
  1: "could not recall it",
  2: "recalled with gaps",
  3: "recalled the main points",
  4: "recalled it all, without effort",
};

/** What the refusal lists: every value a rating may take. */
export const RATING_VALUES_TEXT = "1-4 or again, hard, good, easy";

/** A rating from a value as a note or an option may hold it, or null when it is none of the accepted forms. */
export function ratingOf(value: unknown): Rating | null {
  if (typeof value === "number") return Number.isInteger(value) && value >= 1 && value <= 4 ? (value as Rating) : null;
  if (typeof value !== "string") return null;
  const text = value.trim().toLowerCase();
  if (/^[1-4]$/.test(text)) return Number(text) as Rating;
  const index = (RATING_WORDS as readonly string[]).indexOf(text);
  return index === -1 ? null : ((index + 1) as Rating);
}

/** The word of a rating ("good" for 3). */
export function ratingWord(rating: Rating): string {
  return RATING_WORDS[rating - 1];
}

/**
 * recall_rating as a confirmed note records it: absent is unrated, silently; anything but the accepted forms
 * is unrated too, with a warning naming the file (the session still counts everywhere; the note is never
 * rewritten).
 */
export function readRecallRating(value: unknown, path: string): { rating: Rating | null; warning: string | null } {
  if (value === undefined || value === null) return { rating: null, warning: null };
  const rating = ratingOf(value);
  if (rating !== null) return { rating, warning: null };
  const shown = (JSON.stringify(value) as string | undefined)?.slice(0, 40) ?? typeof value;
  return { rating: null, warning: `${path}: recall_rating ${shown} is not ${RATING_VALUES_TEXT}; read as unrated` };
}

/** A rating given as input (--rating, a tool argument): refused invalid_rating (exit 2) unless accepted. */
export function parseRating(value: string | number): Rating {
  const rating = ratingOf(value);
  if (rating !== null) return rating;
  const raw = String(value);
  const shown = JSON.stringify(raw.length > 40 ? `${raw.slice(0, 40)}…` : raw);
  throw new UsageError(`a rating is ${RATING_VALUES_TEXT} (got ${shown})`, "invalid_rating");
}
