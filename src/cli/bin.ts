/**
 * The `palee` binary (dist/cli.js): begins listing the session folder (early-listing.ts), then loads the CLI
 * itself (dist/palee.js, src/cli/main.ts), whose compiling and loading the listing then overlaps. Kept small:
 * everything it imports is compiled before the listing can begin.
 */
import { beginEarlyListing } from "./device-memory/early-listing";

const early = beginEarlyListing(process.argv.slice(2), process.env, process.cwd());
// Loaded only now, by the build's "cli-apart" (esbuild.config.mjs): a static import would load it first.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a require where it stands, not hoisted
const cli = require("./main") as typeof import("./main");
cli.runProcess(early);
