/**
 * styles.css (contract §5): every class the dialogs and the settings tab render for the learner to read is
 * styled there, and only with the app's theme variables, so light, dark and community themes all apply.
 */
import { readFileSync } from "fs";
import { join } from "path";

const css = readFileSync(join(__dirname, "../../styles.css"), "utf8");

describe("styles.css", () => {
  it.each(["palee-setting-error", "palee-end-preview", "palee-end-silence"])("styles .%s", (cls) => {
    expect(css).toMatch(new RegExp(`\\.${cls}\\s*[,{:]`));
  });

  it("uses theme variables for colours, never literal ones", () => {
    const colours = [...css.matchAll(/(?:^|[\s;{])(?:color|fill|stroke|background(?:-color)?)\s*:\s*([^;]+);/g)];
    expect(colours.length).toBeGreaterThan(0);
    expect(colours.map((m) => m[1].trim()).filter((value) => !/^var\(--[a-z0-9-]+\)$/.test(value))).toEqual([]);
  });
});
