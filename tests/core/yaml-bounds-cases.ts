/** The cases both YAML codecs must pass (the CLI's js-yaml, the plugin's Obsidian parser): yaml-bounds.ts. */
import { MAX_FRONTMATTER_CHARS, MAX_YAML_NODES, YamlBoundsError } from "../../src/core/records/yaml-bounds";

export interface Codec {
  parseYamlBlock: (text: string) => unknown;
  stringifyYamlBlock: (fields: Record<string, unknown>) => string;
}

/** A billion laughs of `levels` levels of nine aliases each: 9^levels leaves once expanded. */
export function aliasBomb(levels: number): string {
  const names = "abcdefghijklmnop";
  const lines = ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"];
  for (let i = 1; i < levels; i++)
    lines.push(
      `${names[i]}: &${names[i]} [${Array(9)
        .fill(`*${names[i - 1]}`)
        .join(", ")}]`,
    );
  return `${lines.join("\n")}\n`;
}

/**
 * `parserLimits`: the parser refuses alias bombs itself (the plugin tests' `yaml`, whose maxAliasCount is
 * 100), so they throw its error rather than YamlBoundsError; either way the block is corrupt.
 */
export function yamlBoundsCases(codec: Codec, parserLimits = false): void {
  describe("what the YAML codec refuses (YamlBoundsError), quickly", () => {
    it.each([
      ["an alias bomb of 9 levels (9^9 leaves)", aliasBomb(9)],
      ["an alias bomb of 6 levels (531 441 leaves, just past the budget)", aliasBomb(6)],
      ["a long string repeated by aliases", `s: &s ${"x".repeat(60_000)}\nl: [${Array(20).fill("*s").join(", ")}]\n`],
      ["a block over the size limit", `k: ${"a".repeat(MAX_FRONTMATTER_CHARS)}\n`],
    ])("%s", (what, text) => {
      const started = Date.now();
      const bomb = what.startsWith("an alias bomb");
      expect(() => codec.parseYamlBlock(text)).toThrow(bomb && parserLimits ? Error : YamlBoundsError);
      expect(Date.now() - started).toBeLessThan(1000);
    });

    it("a structure too large or cyclic is never dumped (the writer is bounded too)", () => {
      const leaf = ["x", "x", "x", "x", "x", "x", "x", "x", "x"];
      let shared: unknown[] = leaf;
      for (let i = 0; i < 8; i++) shared = Array<unknown[]>(9).fill(shared);
      const cyclic: unknown[] = [];
      cyclic.push(cyclic);
      const started = Date.now();
      expect(() => codec.stringifyYamlBlock({ palee_schema: 1, shared })).toThrow(YamlBoundsError);
      expect(() => codec.stringifyYamlBlock({ palee_schema: 1, cyclic })).toThrow(YamlBoundsError);
      expect(Date.now() - started).toBeLessThan(1000);
    });
  });

  describe("what the YAML codec still reads", () => {
    it("a few aliases, as their values", () => {
      expect(codec.parseYamlBlock("a: &x [1, 2]\nb: *x\n")).toEqual({ a: [1, 2], b: [1, 2] });
    });

    it("an alias-free block just within the size limit, whatever its shape", () => {
      const flow = `k: [${Array(Math.floor((MAX_FRONTMATTER_CHARS - 10) / 2))
        .fill("a")
        .join(",")}]\n`;
      expect(flow.length).toBeLessThanOrEqual(MAX_FRONTMATTER_CHARS);
      expect((codec.parseYamlBlock(flow) as { k: unknown[] }).k).toHaveLength(
        Math.floor((MAX_FRONTMATTER_CHARS - 10) / 2),
      );
      const text = `k: ${"a".repeat(MAX_FRONTMATTER_CHARS - 5)}\n`;
      expect(codec.parseYamlBlock(text)).toEqual({ k: "a".repeat(MAX_FRONTMATTER_CHARS - 5) });
      expect(MAX_YAML_NODES).toBeGreaterThan(MAX_FRONTMATTER_CHARS); // no alias-free block reaches the budget
    });
  });
}
