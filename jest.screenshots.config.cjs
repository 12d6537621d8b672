// `npm run screenshots`: the browser project of jest.config.cjs, running only the picture taker
// (tests/browser/screenshots.shoot.ts), which writes docs/images/*.png.
const base = require("./jest.config.cjs");

const browser = base.projects.find((p) => p.displayName === "browser");

/** @type {import("jest").Config} */
module.exports = {
  ...browser,
  displayName: "screenshots",
  testMatch: ["<rootDir>/tests/browser/screenshots.shoot.ts"],
  globalSetup: base.globalSetup,
  testTimeout: 120000,
};
