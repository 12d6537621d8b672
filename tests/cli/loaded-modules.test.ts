/**
 * What a plain CLI call loads of Node (issue 36, the fixed cost of a process): not the streams of its standard
 * input and output (std-streams.ts), nor fs.promises and the readline it brings (async-fs.ts), nor node:module
 * (code-cache.ts); and the bundle it loads is ASCII only (esbuild.config.mjs), read and hashed on Node's fast
 * paths.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { tempFolders } from "../support/temp-folders";
import { CLI, DEVICE, cleanupVaults, makeVault, palee } from "./support";

const temp = tempFolders();
afterEach(cleanupVaults);

describe("a call loads only the Node modules it uses", () => {
  /** The Node modules a call loaded, by a preload that prints them as it exits. */
  function loadedBy(vault: string, args: readonly string[]): string[] {
    const preload = path.join(temp("palee-std-"), "loaded.cjs");
    fs.writeFileSync(
      preload,
      "const list = () => JSON.stringify(process.moduleLoadList);\n" +
        'process.on("exit", () => require("node:fs").writeSync(2, "\\nLOADED " + list()));',
    );
    const run = spawnSync(process.execPath, ["--require", preload, CLI, "session", ...args, "--vault", vault], {
      env: { ...process.env, PALEE_DEVICE: DEVICE, TZ: "UTC" },
      encoding: "utf8",
      input: "",
    });
    expect(run.status).toBe(0);
    const loaded = /\nLOADED (.*)$/.exec(run.stderr);
    if (loaded === null) throw new Error(`no module list: ${run.stderr}`);
    return JSON.parse(loaded[1]) as string[];
  }

  it("next, status and a start into pipes load no socket, no fs.promises, no readline, no node:module", () => {
    const vault = makeVault();
    expect(palee(vault, ["start", "--topic", "T-a"]).status).toBe(0);
    expect(palee(vault, ["end", "--summary", "done"]).status).toBe(0);
    for (const args of [["next"], ["status"], ["start", "--topic", "T-b"]]) {
      const loaded = loadedBy(vault, args);
      // net: the streams of stdout, stderr or stdin on a pipe (std-streams.ts); fs.promises: async-fs.ts.
      const unused = ["net", "internal/fs/promises", "internal/readline/interface", "module"].map(
        (m) => `NativeModule ${m}`,
      );
      expect({ args, loaded: loaded.filter((m) => unused.includes(m)) }).toEqual({ args, loaded: [] });
    }
  });
});

describe("dist/palee.js", () => {
  it("is ASCII only, its comments too", () => {
    const text = fs.readFileSync(path.join(path.dirname(CLI), "palee.js"), "utf8");
    // eslint-disable-next-line no-control-regex -- every character outside ASCII
    expect(text.match(/[^\x00-\x7f]/g)).toBeNull();
  });
});
