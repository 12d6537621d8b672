/**
 * The recall step of end and log (contract §4c): what the learner remembers and their 1–4 rating, both
 * optional. Checked before anything is written, so a bad rating leaves the open session open.
 */
import type { Rating } from "./rating";
import { parseRating } from "./rating";

export interface RecallOptions {
  /** Free text: "what do you remember, without looking?" (the `## Recall` section). */
  recall?: string | null;
  /** 1–4 or again|hard|good|easy, as typed; anything else is refused invalid_rating. */
  rating?: string | number | null;
}

export interface RecallFields {
  recall: string | null;
  recallRating: Rating | null;
}

/** The note's recall fields; throws invalid_rating (exit 2) for a rating that is none of the accepted values. */
export function recallFields(options: RecallOptions): RecallFields {
  const given = options.rating;
  const blank = given === undefined || given === null || (typeof given === "string" && given.trim() === "");
  const recall = options.recall?.trim() ? options.recall : null;
  return { recall, recallRating: blank ? null : parseRating(given) };
}
