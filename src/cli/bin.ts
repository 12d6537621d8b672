/**
 * The `palee` binary (dist/cli.js): begins listing the session folder (early-listing.ts), then loads the CLI
 * itself (dist/palee.js, src/cli/main.ts), whose compiling and loading the listing then overlaps. Kept small:
 * everything it imports is compiled before the listing can begin. The CLI is compiled with V8's code cache
 * (code-cache.ts), which takes most of the compiling off every call but the first.
 */
import * as path from "node:path";
import { actionOf, requireWithCodeCache } from "./code-cache";
import { beginEarlyListing } from "./device-memory/early-listing";
import { keepYoungGenerationSmall } from "./young-generation";

const args = process.argv.slice(2);
const early = beginEarlyListing(args, process.env, process.cwd());
// A call that scans every note keeps V8's young generation small from the start (young-generation.ts); stats
// does so only when it has no older notes' totals (commands/stats.ts), which are cheaper with its default size.
if (args[0] === "session" && args[1] === "export") keepYoungGenerationSmall();
// dist/palee.js is built on its own (esbuild.config.mjs), beside this file, compiled with the action's code cache.
// `palee mcp` writes no cache, and reads a start's.
const file = path.join(__dirname, "palee.js");
const mcp = args[0] === "mcp";
const action = mcp ? actionOf(["session", "start"]) : actionOf(args);
const cli = requireWithCodeCache(file, process.env, action, !mcp) as typeof import("./main");
cli.runProcess(early);
