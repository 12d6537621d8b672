/**
 * `hook --install` / `--uninstall` edit the settings file's text (issue 35 §2): only palee's own entries are
 * touched, every other byte is kept, and a file that changes underneath is read again, never overwritten.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { OWN_MARK, isOwnHook } from "../../src/core/agent-hook/settings";
import { HOOK_EVENTS } from "../../src/core/agent-hook/event";
import { editSettings } from "../../src/cli/hook/install";
import { installText, uninstallText } from "../../src/cli/hook/settings-text";
import { PaleeError } from "../../src/core/errors";
import { cleanupVaults, makeTempDir } from "./support";

afterEach(cleanupVaults);

const CMD = `/usr/bin/node /opt/palee/dist/cli.js session hook --vault /v ${OWN_MARK}`;
const LEGACY = "/usr/bin/node /opt/palee/dist/cli.js session hook ";

/** A hand-written settings file: CRLF, tabs, numbers JSON.stringify would rewrite, a user's look-alike hook. */
const THEIRS = [
  "{",
  '\t"big": 12345678901234567890,',
  '\t"huge": 1e400,',
  '\t"one": 1.0,',
  '\t"hooks": {',
  '\t\t"Stop": [',
  '\t\t\t{ "hooks": [ { "type": "command", "command": "palee session hook --my-own-wrapper", "timeout": 5.0 } ] }',
  "\t\t]",
  "\t},",
  '\t"z": "\\u00e9"',
  "}",
  "",
].join("\r\n");

describe("installText / uninstallText", () => {
  it("install then uninstall gives back every byte, and keeps the look-alike hook", () => {
    const installed = installText(THEIRS, "s.json", CMD);
    expect(installed.changed).toBe(true);
    const parsed = JSON.parse(installed.text) as { hooks: Record<string, Array<{ hooks: unknown[] }>> };
    for (const event of HOOK_EVENTS) {
      expect(parsed.hooks[event].some((g) => g.hooks.some((h) => isOwnHook(h)))).toBe(true);
    }
    expect(installed.text).toContain("12345678901234567890");
    expect(installed.text).toContain("1e400");
    expect(installed.text).toContain('"one": 1.0,');
    expect(installed.text).toContain('"timeout": 5.0');
    expect(installed.text.replace(/\r\n/g, "")).not.toContain("\n");
    expect(installText(installed.text, "s.json", CMD).changed).toBe(false);
    const removed = uninstallText(installed.text, "s.json");
    expect(removed.text).toBe(THEIRS);
    expect(uninstallText(THEIRS, "s.json")).toEqual({ text: THEIRS, changed: false, removedFrom: [] });
  });

  it("installs into an empty or missing file, and uninstall leaves {}", () => {
    for (const start of ["{}", "{}\n", " { } "]) {
      const installed = installText(start, "s.json", CMD);
      const parsed = JSON.parse(installed.text) as { hooks: Record<string, unknown> };
      expect(Object.keys(parsed.hooks).sort()).toEqual([...HOOK_EVENTS].sort());
      expect(JSON.parse(uninstallText(installed.text, "s.json").text)).toEqual({});
    }
  });

  it("removes only palee's hook from a group it shares, and an install made before the mark", () => {
    const text = JSON.stringify(
      {
        hooks: {
          Stop: [
            {
              hooks: [
                { type: "command", command: "echo hi" },
                { type: "command", command: CMD },
              ],
            },
          ],
          SessionEnd: [{ hooks: [{ type: "command", command: `${LEGACY}--vault /v` }] }],
          PreCompact: [{ hooks: [{ type: "command", command: "/elsewhere/cli.js session hook" }] }],
        },
      },
      null,
      2,
    );
    const out = uninstallText(text, "s.json", LEGACY);
    expect(out.removedFrom.sort()).toEqual(["SessionEnd", "Stop"]);
    expect(JSON.parse(out.text)).toEqual({
      hooks: {
        Stop: [{ hooks: [{ type: "command", command: "echo hi" }] }],
        PreCompact: [{ hooks: [{ type: "command", command: "/elsewhere/cli.js session hook" }] }],
      },
    });
  });

  it("refuses a file that is not a settings object, in one line", () => {
    for (const bad of ["", "[1]", '{"hooks": 3}', '{"hooks": {"Stop": {}}}', "{nope"]) {
      expect(() => installText(bad, "s.json", CMD)).toThrow(PaleeError);
    }
  });
});

describe("editSettings", () => {
  it("reads again when the file changed between its read and the write: the other edit is kept", async () => {
    const file = path.join(makeTempDir("palee-settings-"), "settings.json");
    fs.writeFileSync(file, '{\n  "a": 1\n}\n');
    let calls = 0;
    const result = await editSettings(file, (text) => {
      if (++calls === 1) fs.writeFileSync(file, '{\n  "a": 1,\n  "b": 2\n}\n');
      return installText(text, file, CMD);
    });
    expect(result.changed).toBe(true);
    expect(calls).toBe(2);
    expect(JSON.parse(fs.readFileSync(file, "utf8"))).toMatchObject({ a: 1, b: 2 });
  });

  it("gives up with a conflict, having changed nothing, when the file keeps changing", async () => {
    const file = path.join(makeTempDir("palee-settings-"), "settings.json");
    fs.writeFileSync(file, "{}");
    let n = 0;
    const editing = editSettings(file, (text) => {
      fs.writeFileSync(file, `{"n": ${++n}}`);
      return installText(text, file, CMD);
    });
    await expect(editing).rejects.toMatchObject({ kind: "conflict", exitCode: 4 });
    expect(fs.readFileSync(file, "utf8")).toBe(`{"n": ${n}}`);
    expect(fs.readdirSync(path.dirname(file))).toEqual(["settings.json"]);
  });
});
