/**
 * The README says what the code does (issue 35 §4 "Docs"): its usage line lists every CLI action (`hook`
 * included), its command table every plugin command, a count of commands is the real one, the history view's
 * Pause and Continue are described as there, and hot.md as the active topic's memory.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { COMMANDS } from "../../src/cli/commands/index";

const ROOT = path.resolve(__dirname, "../..");
const README = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");

/** Every command id the plugin registers (`id: "…"` in src/plugin), read from its source. */
function pluginCommandIds(): string[] {
  const ids = new Set<string>();
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (file.endsWith(".ts")) {
        for (const m of fs.readFileSync(file, "utf8").matchAll(/\badd\(\{ id: "([a-z-]+)"/g)) ids.add(m[1]);
        for (const m of fs.readFileSync(file, "utf8").matchAll(/addCommand\(\{\s*id: "([a-z-]+)"/g)) ids.add(m[1]);
      }
    }
  };
  walk(path.join(ROOT, "src", "plugin"));
  return [...ids].sort();
}

const NUMBER_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
  .concat(["eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"])
  .concat(["twenty", "twenty-one", "twenty-two"]);

describe("README", () => {
  it("the usage line lists exactly the CLI's actions, hook included", () => {
    const usage = /^palee session <([a-z|]+)> \[options\]$/m.exec(README);
    expect(usage).not.toBeNull();
    const listed = (usage?.[1] ?? "").split("|").sort();
    expect(listed).toEqual(COMMANDS.map((c) => c.name).sort());
    expect(listed).toContain("hook");
  });

  it("the command table lists exactly the plugin's command ids", () => {
    const ids = pluginCommandIds();
    expect(ids.length).toBeGreaterThanOrEqual(20);
    const from = README.indexOf("### Commands");
    const section = README.slice(from, README.indexOf("\n#", from + 1));
    const tabled = [...section.matchAll(/^\| [^|]+ \| `([a-z-]+)` \|/gm)].map((m) => m[1]).sort();
    expect(tabled).toEqual(ids);
  });

  it("every count of commands it gives is a real one", () => {
    const real = [COMMANDS.length, pluginCommandIds().length];
    const counts = [...README.matchAll(/\b(?:the|all|its) (\w+(?:-\w+)?) (?:\w+ )?commands\b/gi)]
      .map((m) => m[1].toLowerCase())
      .map((word) => (/^\d+$/.test(word) ? Number(word) : NUMBER_WORDS.indexOf(word)))
      .filter((n) => n >= 0);
    for (const n of counts) expect([n, real.includes(n)]).toEqual([n, true]);
  });

  it("describes the history view's Pause and Continue as there, not to come", () => {
    expect(README).toContain("Pause, Continue and End buttons");
    expect(README).not.toMatch(/Pause and Continue will/i);
  });

  it("describes hot.md as the working memory of the active topic, not the newest session's", () => {
    expect(README).toContain("the working memory **of the active topic**");
    expect(README).not.toMatch(/newest session's (memory|working memory|body)/i);
  });
});
