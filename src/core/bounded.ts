import { insertIntoViews } from "./operations/incremental-index";
import { recentList } from "./operations/list-recent";

/**
 * What a face without a metadata cache (the CLI) passes to PaleeSessions, so that list and the views after a
 * new session cost what changed, not the history (docs/architecture.md, "Cost that does not grow with
 * history"): list and the views from a trusted index.md. main.js does not carry them: the plugin's scan cache
 * already costs only what changed.
 */
export const BOUNDED_VIEWS = { recentList, viewsAfter: insertIntoViews };
