/** @type {import("jest").Config} */
module.exports = {
	preset: "ts-jest",
	testEnvironment: "node",
	roots: ["<rootDir>/tests"],
	testMatch: ["**/*.test.ts"],
	// Sets TZ=UTC before the test workers start (see the file for why this is
	// a globalSetup and not a setupFiles entry).
	globalSetup: "<rootDir>/tests/setup-env.cjs",
	testTimeout: 30000,
};
