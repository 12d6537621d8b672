/**
 * The bounded YAML codec (contract §3, version 3): a hostile frontmatter is `corrupt`, never a hang or a crash.
 * Before the bounds, the 371-byte hot.md of tests/fixtures/hostile/yaml-bomb made `start` spend 25 s and 1.6 GB
 * before failing ("Invalid string length"; with a larger heap, a V8 out-of-memory abort, exit 134): js-yaml
 * parses the aliases as shared values in microseconds, and the dump with noRefs then writes out 9^9 leaves.
 * tests/plugin/yaml-bounds.test.ts runs the same cases against the plugin's codec (Obsidian's parser).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { classifyRecord, updateFrontmatterFields } from "../../src/core/records/frontmatter";
import { parseYamlBlock, stringifyYamlBlock } from "../../src/core/records/yaml";
import { MAX_FRONTMATTER_CHARS, MAX_YAML_NODES, YamlBoundsError } from "../../src/core/records/yaml-bounds";
import { yamlBoundsCases } from "./yaml-bounds-cases";

yamlBoundsCases({ parseYamlBlock, stringifyYamlBlock });

describe("the CLI codec (js-yaml) on the bomb fixtures", () => {
  const bombs = path.join(__dirname, "../fixtures/hostile/yaml-bomb");
  it.each(fs.readdirSync(bombs))("%s reads as corrupt at once, naming the aliases", (name) => {
    const text = fs.readFileSync(path.join(bombs, name), "utf8");
    const started = Date.now();
    const read = classifyRecord(text);
    expect(read).toEqual({ state: "corrupt", reason: expect.stringMatching(/aliases repeat values/) as unknown });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("a fast-path block is still bounded by size", () => {
    const text = `---\npalee_schema: 1\nsummary: ${"a".repeat(MAX_FRONTMATTER_CHARS)}\n---\n`;
    expect(classifyRecord(text)).toEqual({ state: "corrupt", reason: expect.stringMatching(/too large/) as unknown });
  });

  it("the writer refuses more values than the budget even when none is shared, and writes the rest", () => {
    expect(() => stringifyYamlBlock({ a: new Array<string>(MAX_YAML_NODES).fill("x") })).toThrow(YamlBoundsError);
    // A key spanning several lines makes updateFrontmatterFields re-render the block through the bounded dump.
    expect(updateFrontmatterFields("---\npalee_schema: 1\nk:\n  v\n---\nb\n", { k: "w" })).toBe(
      "---\npalee_schema: 1\nk: w\n---\nb\n",
    );
  });
});
