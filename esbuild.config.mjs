// Builds the two artifacts of the project:
//   - the plugin: src/main.ts -> main.js (loaded by the app, CommonJS)
//   - the CLI:    src/cli/bin.ts -> dist/cli.js (Node, the `palee` bin), which loads
//                 src/cli/main.ts -> dist/palee.js once it has begun listing the session folder, through V8's
//                 code cache (src/cli/code-cache.ts: it reads the file beside itself, no require to resolve)
//
// `node esbuild.config.mjs production` builds both once (minified plugin).
// `node esbuild.config.mjs` builds both and keeps rebuilding on change.
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import builtinModules from "builtin-modules";
import esbuild from "esbuild";

const production = process.argv[2] === "production";

const PLUGIN_ENTRY = "src/main.ts";
const PLUGIN_OUT = "main.js";
const CLI_ENTRY = "src/cli/bin.ts";
const CLI_OUT = "dist/cli.js";
// The CLI itself, loaded by the bin after it has begun listing the session folder (src/cli/early-listing.ts).
const MAIN_ENTRY = "src/cli/main.ts";
const MAIN_OUT = "dist/palee.js";
/** CommonJS's module wrapper (require("node:module").wrapper), the two ends of dist/palee.js. */
const MODULE_WRAPPER = ["(function (exports, require, module, __filename, __dirname) { ", "\n});"];
// `palee mcp` (src/cli/mcp/) with the MCP SDK and zod: its own file beside the CLI, loaded only by `palee mcp`,
// so the other actions do not parse a megabyte they never run.
const MCP_ENTRY = "src/cli/mcp/command.ts";
const MCP_OUT = "dist/mcp.js";
const SHEBANG = "#!/usr/bin/env node";
/** `palee --version` prints it (src/cli/version.ts). */
const VERSION = JSON.parse(readFileSync("package.json", "utf8")).version;

// Every Node built-in, both bare ("fs") and prefixed ("node:fs"). The plugin
// must not use them (it also runs on mobile), but if one slips in it must stay
// an external require instead of esbuild failing to resolve it.
const nodeBuiltins = [
  ...new Set(builtinModules.flatMap((name) => (name.startsWith("node:") ? [name] : [name, `node:${name}`]))),
];

/**
 * In main.js the core's YAML codec (src/core/records/yaml.ts, js-yaml) is replaced by
 * src/plugin/adapters/obsidian-yaml.ts, which uses the YAML parser Obsidian already
 * ships: js-yaml alone is 40 KB minified, half of the plugin's size budget.
 * The plugin tests map the module the same way (jest.config.cjs). See
 * docs/adr/0003-plugin-yaml.md.
 * @type {import("esbuild").Plugin}
 */
const obsidianYaml = {
  name: "obsidian-yaml",
  setup(build) {
    build.onResolve({ filter: /^\.\/yaml$/ }, (args) =>
      args.importer.endsWith(path.join("src", "core", "records", "frontmatter.ts"))
        ? { path: path.resolve("src/plugin/adapters/obsidian-yaml.ts") }
        : undefined,
    );
  },
};

/** @type {import("esbuild").BuildOptions} */
const pluginOptions = {
  entryPoints: [PLUGIN_ENTRY],
  outfile: PLUGIN_OUT,
  bundle: true,
  format: "cjs",
  platform: "browser",
  target: "es2018",
  // Provided by the app at runtime.
  external: ["obsidian", "electron", "@codemirror/*", "@lezer/*", ...nodeBuiltins],
  minify: production,
  sourcemap: production ? false : "inline",
  treeShaking: true,
  // Class fields with assign semantics (plain `this.x = ...` in the
  // constructor) instead of esbuild's __publicField helper calls, as in
  // Obsidian's sample plugin: smaller main.js. tsconfig.json sets the same
  // flag so the tests (ts-jest) run with the semantics that ships.
  tsconfigRaw: { compilerOptions: { useDefineForClassFields: false } },
  // Keep non-ASCII characters of UI strings (…, ·, –, ≥, →) as is, not as \uXXXX.
  charset: "utf8",
  logLevel: "info",
  plugins: [obsidianYaml],
};

/**
 * The CLI gets its shebang from the banner below; a second one coming from the
 * entry file would make dist/cli.js a syntax error. After each successful
 * build the output is made executable so `palee` can be run directly.
 * @type {import("esbuild").Plugin}
 */
const cliExecutable = {
  name: "cli-executable",
  setup(build) {
    build.onStart(() => {
      if (readFileSync(CLI_ENTRY, "utf8").startsWith("#!")) {
        return {
          errors: [
            {
              text: `${CLI_ENTRY} starts with a shebang; remove it, the build adds "${SHEBANG}" itself`,
            },
          ],
        };
      }
      return undefined;
    });
    build.onEnd((result) => {
      if (result.errors.length === 0) {
        chmodSync(CLI_OUT, 0o755);
      }
    });
  },
};

/**
 * dist/palee.js in ASCII only: each call reads it as UTF-8, which Node 20 decodes several times faster when every
 * byte is ASCII (src/cli/code-cache.ts). esbuild's default charset escapes the code, but keeps the comments it
 * keeps (JSDoc before a class member) as written; their other characters are escaped here, inert in a comment.
 * @type {import("esbuild").Plugin}
 */
const asciiOnly = {
  name: "ascii-only",
  setup(build) {
    build.onEnd((result) => {
      if (result.errors.length > 0) return;
      const text = readFileSync(MAIN_OUT, "utf8");
      const escape = (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
      if (/[\u0080-\uffff]/.test(text)) writeFileSync(MAIN_OUT, text.replace(/[\u0080-\uffff]/g, escape));
    });
  },
};

/**
 * In dist/cli.js the import of the MCP command becomes a plain `require("./mcp.js")` of dist/mcp.js, built on
 * its own below (a require: Node's import() of a CommonJS file lexes all of it first, hundreds of ms here).
 * @type {import("esbuild").Plugin}
 */
const mcpApart = {
  name: "mcp-apart",
  setup(build) {
    build.onResolve({ filter: /^\.\/mcp\/command$/ }, (args) =>
      args.importer.endsWith(path.join("src", "cli", "main.ts")) ? { path: "mcp", namespace: "mcp-apart" } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "mcp-apart" }, () => ({
      contents: 'module.exports = require("./mcp.js");',
      loader: "js",
    }));
    build.onResolve({ filter: /^\.\/mcp\.js$/, namespace: "mcp-apart" }, () => ({ path: "./mcp.js", external: true }));
  },
};

/**
 * node:path in the CLI's bundles as a module of named bindings, taken from it once: `import * as path` of Node's
 * own module would be a copy of all its properties (esbuild's __toESM), made as the bundle loads, at each of the
 * files that import it; of an ES module, `path.join` compiles to a plain reference. Its names are those of the
 * node:path that builds (a name another Node lacks is undefined there, as `path.name` would be).
 * @type {import("esbuild").Plugin}
 */
const namedPath = {
  name: "named-path",
  setup(build) {
    build.onResolve({ filter: /^node:path$/ }, (args) =>
      args.namespace === "named-path"
        ? { path: "node:path", external: true }
        : { path: "path", namespace: "named-path" },
    );
    build.onLoad({ filter: /.*/, namespace: "named-path" }, () => ({
      contents: `const p = require("node:path");\nexport const { ${Object.keys(path).join(", ")} } = p;\n`,
      loader: "js",
    }));
  },
};

/** @type {import("esbuild").BuildOptions} */
const cliOptions = {
  entryPoints: [CLI_ENTRY],
  outfile: CLI_OUT,
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  banner: { js: SHEBANG },
  // The code cache's key holds the version (src/cli/code-cache.ts).
  define: { PALEE_VERSION: JSON.stringify(VERSION) },
  sourcemap: production ? false : "inline",
  logLevel: "info",
  plugins: [cliExecutable, namedPath],
};

/** @type {import("esbuild").BuildOptions} */
const mainOptions = {
  entryPoints: [MAIN_ENTRY],
  outfile: MAIN_OUT,
  bundle: true, // js-yaml is bundled; Node built-ins stay external (platform node)
  format: "cjs",
  platform: "node",
  target: "node20",
  define: { PALEE_VERSION: JSON.stringify(VERSION) },
  // Written as the function CommonJS wraps a module in, so that the bin compiles the file's text as it is
  // (src/cli/code-cache.ts): wrapping it there joined the 605 KB text into a new string on every call.
  // Loaded only by the bin; `node dist/palee.js` evaluates the function and runs nothing.
  banner: { js: MODULE_WRAPPER[0] },
  footer: { js: MODULE_WRAPPER[1] },
  sourcemap: production ? false : "inline",
  logLevel: "info",
  plugins: [mcpApart, asciiOnly, namedPath],
};

/** @type {import("esbuild").BuildOptions} */
const mcpOptions = {
  entryPoints: [MCP_ENTRY],
  outfile: MCP_OUT,
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  // Minified: start-up is what an assistant waits for, and parsing is most of it (scripts/bench-mcp.mjs).
  minify: production,
  define: { PALEE_VERSION: JSON.stringify(VERSION) },
  sourcemap: production ? false : "inline",
  logLevel: "info",
};

const targets = [
  { name: "plugin", entry: PLUGIN_ENTRY, out: PLUGIN_OUT, options: pluginOptions },
  { name: "CLI", entry: CLI_ENTRY, out: CLI_OUT, options: cliOptions },
  { name: "CLI itself", entry: MAIN_ENTRY, out: MAIN_OUT, options: mainOptions },
  { name: "MCP server", entry: MCP_ENTRY, out: MCP_OUT, options: mcpOptions },
];

const missing = targets.filter((t) => !existsSync(t.entry));
for (const t of missing) {
  console.error(`error: cannot build the ${t.name}: entry file ${t.entry} does not exist`);
}

if (production) {
  // Build whatever can be built, then fail if an entry was missing.
  let failed = missing.length > 0;
  for (const t of targets) {
    if (missing.includes(t)) continue;
    try {
      await esbuild.build(t.options);
      const kib = (statSync(t.out).size / 1024).toFixed(1);
      console.log(`${t.name}: ${t.out} ${kib} KiB`);
    } catch {
      // esbuild has already printed the errors (logLevel "info").
      failed = true;
    }
  }
  if (failed) {
    process.exitCode = 1;
  }
} else {
  // A watcher does not notice an entry file created later, so refuse to
  // start with one missing rather than silently watching half the project.
  if (missing.length > 0) {
    process.exit(1);
  }
  for (const t of targets) {
    const ctx = await esbuild.context(t.options);
    await ctx.watch();
  }
}
