import { insertIntoViews } from "./incremental-index";
import { recentList } from "./list-recent";
import { indexedHistory } from "./topic-history";
import { OLDER_REVIEWS } from "./recent-reviews";
import { OLDER_TOTALS } from "../insight/with-older";

/**
 * What a face without a metadata cache (the CLI) passes to PaleeSessions, so that list, the views after a new
 * session, the brief and latest cost what changed or what they show, not the history (docs/architecture.md,
 * "Cost that does not grow with history"): they work from a trusted index.md; stats, goal and year from the older
 * notes' totals the device memory keeps. main.js does not carry them: the plugin's scan cache already costs only
 * what changed.
 */
export const BOUNDED_VIEWS = {
  ...{ recentList, viewsAfter: insertIntoViews, topicHistory: indexedHistory },
  olderReviews: OLDER_REVIEWS,
  olderTotals: OLDER_TOTALS,
};
