// Run by `npm version` (see the "version" script in package.json): copies the
// new package version into manifest.json and records which minimum app
// version that release needs in versions.json.
import { readFileSync, writeFileSync } from "node:fs";
import process from "node:process";

const targetVersion = process.env.npm_package_version;
if (!targetVersion) {
  console.error("version-bump.mjs: npm_package_version is not set; run it through `npm version`.");
  process.exit(1);
}

const readJson = (file) => JSON.parse(readFileSync(file, "utf8"));
const writeJson = (file, value) => writeFileSync(file, `${JSON.stringify(value, null, "\t")}\n`);

const manifest = readJson("manifest.json");
manifest.version = targetVersion;
writeJson("manifest.json", manifest);

const versions = readJson("versions.json");
versions[targetVersion] = manifest.minAppVersion;
writeJson("versions.json", versions);
