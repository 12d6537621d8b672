// @ts-check
import builtinModules from "builtin-modules";
import obsidianmd from "eslint-plugin-obsidianmd";
import { defineConfig, globalIgnores } from "eslint/config";
import tseslint from "typescript-eslint";

const TS_FILES = ["**/*.{ts,cts,mts,tsx}"];
const JS_FILES = ["**/*.{js,cjs,mjs,jsx}"];

// Code that runs inside the app. The core is bundled into main.js too, and
// the plugin is not desktop-only, so none of it may import Node built-ins.
const PLUGIN_UI_FILES = ["src/main.ts", "src/plugin/**/*.ts"];
const PLUGIN_BUNDLE_FILES = [...PLUGIN_UI_FILES, "src/core/**/*.ts"];

// Every Node built-in, bare ("fs") and prefixed ("node:fs").
const nodeBuiltins = [
  ...new Set(builtinModules.flatMap((name) => (name.startsWith("node:") ? [name] : [name, `node:${name}`]))),
];

// Globals that Node provides beyond what the browser globals set by
// obsidianmd's config already covers (timers, URL, TextEncoder, ...).
const nodeGlobals = {
  Buffer: "readonly",
  NodeJS: "readonly", // type namespace from @types/node
  __dirname: "readonly",
  __filename: "readonly",
  clearImmediate: "readonly",
  exports: "writable",
  global: "readonly",
  module: "readonly",
  process: "readonly",
  require: "readonly",
  setImmediate: "readonly",
};

// Ambient in test files through the "jest" entry of tsconfig's "types".
const jestGlobals = Object.fromEntries(
  [
    "afterAll",
    "afterEach",
    "beforeAll",
    "beforeEach",
    "describe",
    "expect",
    "fit",
    "it",
    "jest",
    "test",
    "xdescribe",
    "xit",
    "xtest",
  ].map((name) => [name, "readonly"]),
);

// obsidianmd bans (in package.json) dependencies that have a lighter or
// native replacement. Reuse its exact setting and only add exceptions below.
const obsidianBanDependencies = obsidianmd.configs.recommended
  .map((config) => config.rules?.["depend/ban-dependencies"])
  .find((setting) => setting !== undefined);
if (!Array.isArray(obsidianBanDependencies)) {
  throw new Error(
    "eslint-plugin-obsidianmd no longer configures depend/ban-dependencies; revisit the js-yaml exception in eslint.config.mjs",
  );
}
const [banSeverity, banOptions = {}] = obsidianBanDependencies;

// obsidianmd reports console.log through its rule-custom-message wrapper
// (plugins should not log to the developer console). Same setting, minus the
// console part, for programs whose console *is* their user interface.
const obsidianCustomMessages = obsidianmd.configs.recommended
  .map((config) => config.rules?.["obsidianmd/rule-custom-message"])
  .find((setting) => setting !== undefined);
if (!Array.isArray(obsidianCustomMessages)) {
  throw new Error(
    "eslint-plugin-obsidianmd no longer configures obsidianmd/rule-custom-message; revisit the console exception in eslint.config.mjs",
  );
}
const [customMessageSeverity, { "no-console": _console, ...customMessagesWithoutConsole }] = obsidianCustomMessages;

export default defineConfig([
  globalIgnores(["node_modules/", "main.js", "dist/", "coverage/", "examples/"]),

  // typescript-eslint's type-checked rules for all TypeScript. obsidianmd's
  // recommended config (next) extends the same set and then adjusts a few
  // levels to match the community plugin review; it comes second so those
  // adjustments win.
  {
    files: TS_FILES,
    extends: [tseslint.configs.recommendedTypeChecked],
  },
  obsidianmd.configs.recommended,
  {
    files: TS_FILES,
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
  },

  // Run obsidianmd's manifest validation on manifest.json (the recommended
  // config defines the rule but only turns it on for JS/TS files, which it
  // never matches). The TypeScript parser reads a .json file as a single
  // object expression, which is what the rule expects.
  {
    files: ["manifest.json"],
    languageOptions: { parser: tseslint.parser },
    rules: { "obsidianmd/validate-manifest": "error" },
  },

  {
    files: ["package.json"],
    rules: {
      "depend/ban-dependencies": [
        banSeverity,
        {
          ...banOptions,
          allowed: [
            ...(banOptions.allowed ?? []),
            // js-yaml is the project's chosen YAML parser: it gives a
            // smaller bundle, and its CORE_SCHEMA keeps timestamps as
            // strings instead of turning them into Date objects.
            "js-yaml",
            // Suggested replacement: node:module's builtinModules. On
            // Node 20 that list lacks the prefix-only modules
            // (node:test, node:sqlite, node:sea, ...), which the core
            // import ban and the plugin externals must include.
            "builtin-modules",
          ],
        },
      ],
    },
  },

  // The layers (docs/architecture.md). obsidianmd restricts imports through
  // the typescript-eslint variant of this rule; these lists do not overlap
  // with its list, so nothing is reported twice.
  // The core is shared by the plugin and the CLI: it imports neither them
  // nor Obsidian, Node or the Node adapters.
  {
    files: ["src/core/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: ["obsidian", ...nodeBuiltins].map((name) => ({
            name,
            message: "the core must stay free of Obsidian and Node (see docs/architecture.md)",
          })),
          patterns: [
            {
              regex: "^(\\.\\.?/)+(plugin|node|cli)(/|$)",
              message: "the core must not import a face or an adapter (see docs/architecture.md)",
            },
          ],
        },
      ],
    },
  },
  // The plugin runs on mobile too: never the Node adapters.
  {
    files: PLUGIN_UI_FILES,
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(\\.\\.?/)+node(/|$)",
              message: "the plugin must not import the Node adapters (see docs/architecture.md)",
            },
            {
              // The device memory is the CLI's (docs/core.md "Device memory"): the app's metadata cache is the
              // plugin's, and main.js carries none of the wing.
              regex: "(^|/)device-memory(/|$)",
              message: "the plugin must not import the device-memory wing (see docs/core.md)",
            },
          ],
        },
      ],
    },
  },

  // The shape (issue 10's targets, docs/architecture.md): every line of a
  // file counts, comments included, so a file cannot hide behind prose.
  {
    files: ["src/**/*.ts"],
    rules: {
      "max-lines": ["error", { max: 400, skipBlankLines: false, skipComments: false }],
    },
  },
  // 120 columns everywhere we write code. Prettier wraps code at the same
  // width; this catches the comments and strings it leaves alone. The
  // hostile corpus under tests/fixtures is data, not code.
  {
    files: ["src/**/*.ts", "tests/**/*.ts", "scripts/**/*.{ts,mjs}"],
    ignores: ["tests/fixtures/**"],
    rules: {
      // Deprecated in ESLint 9 in favour of @stylistic, but still shipped
      // and enough for one number; no extra dependency for it.
      "max-len": ["error", { code: 120, tabWidth: 4, ignoreUrls: true }],
    },
  },
  {
    files: ["src/core/**/*.ts"],
    rules: {
      "max-lines-per-function": ["error", { max: 60, skipBlankLines: false, skipComments: false, IIFEs: true }],
    },
  },
  // Everything outside the plugin bundle (CLI, Node adapters, tests,
  // scripts, config files) runs on Node, where built-ins are expected.
  {
    files: [...TS_FILES, ...JS_FILES],
    ignores: PLUGIN_BUNDLE_FILES,
    rules: { "obsidianmd/no-nodejs-modules": "off" },
  },
  // These two rules tell you to use `window` for popout windows. In code
  // that can run on Node (the core included) `window` does not exist, and
  // their autofix would break it.
  {
    files: [...TS_FILES, ...JS_FILES],
    ignores: PLUGIN_UI_FILES,
    rules: {
      "obsidianmd/no-global-this": "off",
      "obsidianmd/prefer-window-timers": "off",
    },
  },
  {
    files: ["src/cli/**/*.ts", "src/node/**/*.ts", "tests/**", "scripts/**", ...JS_FILES],
    languageOptions: { globals: nodeGlobals },
  },
  // The CLI's bundles load every module on every call: `import * as fs from "node:fs"` (or os) becomes a copy
  // of each of its properties as it loads (esbuild's __toESM); a named import costs nothing.
  {
    files: ["src/cli/**/*.ts", "src/node/**/*.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "ImportDeclaration[source.value=/^node:(fs|os)$/] > ImportNamespaceSpecifier",
          message: "Import node:fs and node:os by name: a namespace is a copy of the module made on every call.",
        },
      ],
    },
  },
  // The CLI prints its results, and the build/demo/bench scripts print
  // progress, with console.log. Tests keep the rule.
  {
    files: ["src/cli/**/*.ts", "scripts/**", "*.{js,cjs,mjs}"],
    rules: {
      "obsidianmd/rule-custom-message": [customMessageSeverity, customMessagesWithoutConsole],
    },
  },
  // The CLI runs outside the app, where there is no app.vault.configDir to
  // ask: it reads the plugin's saved settings from the default ".obsidian".
  // Its end-to-end tests write that file into temporary vaults.
  {
    files: ["src/cli/**/*.ts", "tests/cli/**/*.ts"],
    rules: { "obsidianmd/hardcoded-config-path": "off" },
  },
  {
    files: ["**/*.cjs"],
    languageOptions: { sourceType: "commonjs" },
    // CommonJS config files (jest) load each other with require().
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },

  {
    files: ["tests/**/*.ts"],
    languageOptions: { globals: jestGlobals },
    rules: {
      // `expect(fake.method).toHaveBeenCalled()` passes a method
      // unbound on purpose; eslint-plugin-jest's type-aware
      // replacement for this rule is not a dependency.
      "@typescript-eslint/unbound-method": "off",
    },
  },
]);
