// `npm run bench` runs the plugin benchmark (tests/bench/*.bench.ts) with the plugin test setup: the same
// in-memory Obsidian and module mapping as the plugin tests (jest.config.cjs), but never as part of `npm test`.
const base = require("./jest.config.cjs");
const plugin = base.projects.find((p) => p.displayName === "plugin");

/** @type {import("jest").Config} */
module.exports = {
  ...plugin,
  displayName: "bench",
  testMatch: ["<rootDir>/tests/bench/**/*.bench.ts"],
  globalSetup: base.globalSetup,
  testTimeout: 600000,
};
