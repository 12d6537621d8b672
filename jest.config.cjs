// Settings every project shares: TypeScript through ts-jest, tests under tests/.
const shared = {
  preset: "ts-jest",
  roots: ["<rootDir>/tests"],
};

const PLUGIN_TESTS = "<rootDir>/tests/plugin/";
const BROWSER_TESTS = "<rootDir>/tests/browser/";

// The plugin against an in-memory Obsidian: `obsidian` (types only on npm)
// resolves to obsidian-test-mocks, whose setup file adds the DOM helpers
// Obsidian puts on prototypes and globals (createDiv, ...); those need a DOM,
// hence jsdom.
const inMemoryApp = {
  ...shared,
  testEnvironment: "jsdom",
  moduleNameMapper: {
    "^obsidian$": "obsidian-test-mocks/obsidian",
    // As in main.js (esbuild.config.mjs): the core's YAML codec is
    // Obsidian's own parser in the plugin, not js-yaml.
    "^\\./yaml$": "<rootDir>/src/plugin/adapters/obsidian-yaml.ts",
  },
  setupFiles: ["obsidian-test-mocks/jest-setup"],
};

/** @type {import("jest").Config} */
module.exports = {
  // Three projects, run together by a plain `jest` (and so by `npm test`):
  projects: [
    // The core, the Node store and the CLI, on Node (unchanged behaviour).
    {
      ...shared,
      displayName: "node",
      testEnvironment: "node",
      testMatch: ["**/*.test.ts"],
      testPathIgnorePatterns: ["/node_modules/", PLUGIN_TESTS, BROWSER_TESTS],
    },
    { ...inMemoryApp, displayName: "plugin", testMatch: [`${PLUGIN_TESTS}**/*.test.ts`] },
    // The built plugin's DOM in a real headless browser (Debian's chromium
    // through playwright-core, in a child process); skipped with a message
    // where no chromium is installed.
    { ...inMemoryApp, displayName: "browser", testMatch: [`${BROWSER_TESTS}**/*.test.ts`] },
  ],
  // Global options (Jest reads these from the top level, not per project).
  // Sets TZ=UTC before the test workers start, for both projects (see the
  // file for why this is a globalSetup and not a setupFiles entry).
  globalSetup: "<rootDir>/tests/setup-env.cjs",
  testTimeout: 30000,
};
