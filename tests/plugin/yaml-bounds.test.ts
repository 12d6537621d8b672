/**
 * The plugin's YAML codec (src/plugin/adapters/obsidian-yaml.ts, Obsidian's parser) under the bounds of contract
 * §3: the same cases as the CLI's (tests/core/yaml-bounds-cases.ts). In this project `./yaml` maps to that codec.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { classifyRecord } from "../../src/core/records/frontmatter";
import { parseYamlBlock, stringifyYamlBlock } from "../../src/plugin/adapters/obsidian-yaml";
import { yamlBoundsCases } from "../core/yaml-bounds-cases";

yamlBoundsCases({ parseYamlBlock, stringifyYamlBlock }, true);

it.each(fs.readdirSync(path.join(__dirname, "../fixtures/hostile/yaml-bomb")))(
  "the bomb fixture %s reads as corrupt in the plugin at once",
  (name) => {
    const text = fs.readFileSync(path.join(__dirname, "../fixtures/hostile/yaml-bomb", name), "utf8");
    const started = Date.now();
    expect(classifyRecord(text).state).toBe("corrupt");
    expect(Date.now() - started).toBeLessThan(1000);
  },
);
