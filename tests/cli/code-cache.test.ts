/**
 * V8's code cache of the CLI bundle (src/cli/code-cache.ts, issue 36): a hint V8 may take or refuse, never an
 * input of an answer. A damaged, cut-short, stale or foreign cache file is not handed to V8, the call answers
 * exactly as without one, and the cache is written anew, atomically.
 */
import { isAscii } from "node:buffer";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { actionOf, bundleOf, readCodeCache, writeCodeCache } from "../../src/cli/code-cache";
import { FRESH_MS } from "../../src/node/file-key";
import { tempFolders } from "../support/temp-folders";
import { CLI } from "./support";

const temp = tempFolders();
const KEY = "a".repeat(64);

describe("readCodeCache and writeCodeCache", () => {
  const payload = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7) % 256));

  it("reads back what was written for the same key, and leaves no temporary file", () => {
    const file = path.join(temp("palee-cc-"), "code", "x.v8");
    writeCodeCache(file, KEY, payload);
    expect(readCodeCache(file, KEY)).toEqual(payload);
    expect(fs.readdirSync(path.dirname(file))).toEqual(["x.v8"]);
  });

  it("refuses a file made for another key, damaged, cut short, empty or missing", () => {
    const file = path.join(temp("palee-cc-"), "x.v8");
    writeCodeCache(file, KEY, payload);
    const whole = fs.readFileSync(file);
    expect(readCodeCache(file, "b".repeat(64))).toBeUndefined();
    const damaged = Buffer.from(whole);
    damaged[damaged.length - 100] ^= 1; // one bit of the payload: V8 would be handed it without the digest
    fs.writeFileSync(file, damaged);
    expect(readCodeCache(file, KEY)).toBeUndefined();
    fs.writeFileSync(file, whole.subarray(0, whole.length - 1));
    expect(readCodeCache(file, KEY)).toBeUndefined();
    fs.writeFileSync(file, whole.subarray(0, 40));
    expect(readCodeCache(file, KEY)).toBeUndefined();
    fs.writeFileSync(file, "");
    expect(readCodeCache(file, KEY)).toBeUndefined();
    fs.rmSync(file);
    expect(readCodeCache(file, KEY)).toBeUndefined();
    fs.mkdirSync(file); // a folder where the file should be
    expect(readCodeCache(file, KEY)).toBeUndefined();
  });

  it("writes nothing, and throws nothing, where it cannot write", () => {
    const dir = temp("palee-cc-");
    fs.writeFileSync(path.join(dir, "code"), "a file where the folder should be");
    expect(() => writeCodeCache(path.join(dir, "code", "x.v8"), KEY, payload)).not.toThrow();
    expect(fs.readdirSync(dir)).toEqual(["code"]);
  });
});

describe("the bundle's identity (bundleOf)", () => {
  const later = (): number => Date.now() + FRESH_MS + 60_000; // as if the files were settled
  const pause = (ms: number): void => void Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

  it("tells a settled bundle by its file, a fresh one by its text", () => {
    const file = path.join(temp("palee-cc-"), "palee.js");
    fs.writeFileSync(file, "module.exports = 1;\n");
    const settled = bundleOf(file, later());
    expect(settled.source).toBe("module.exports = 1;\n");
    expect(settled.id).toMatch(/^file \d+:\d+:20:\d+:\d+$/);
    expect(bundleOf(file, later()).id).toBe(settled.id);
    expect(bundleOf(file).id).toMatch(/^text [0-9a-f]{64}$/); // just written: too fresh to tell
  });

  it("never tells a rewritten bundle as the one before, even of the same size and modification time", () => {
    const dir = temp("palee-cc-");
    const file = path.join(dir, "palee.js");
    // Every version dated alike, as npm dates the files it unpacks.
    const packed = new Date("1985-10-26T08:15:00Z");
    fs.writeFileSync(file, "module.exports = 'A';\n");
    fs.utimesSync(file, packed, packed);
    const ids = [bundleOf(file, later()).id];
    pause(30); // past the file system's tick
    fs.writeFileSync(file, "module.exports = 'B';\n"); // in place: the same inode and size
    fs.utimesSync(file, packed, packed);
    ids.push(bundleOf(file, later()).id);
    pause(30);
    fs.writeFileSync(path.join(dir, "new.js"), "module.exports = 'C';\n");
    fs.utimesSync(path.join(dir, "new.js"), packed, packed);
    fs.renameSync(path.join(dir, "new.js"), file); // a new file renamed over it
    ids.push(bundleOf(file, later()).id);
    expect(new Set(ids).size).toBe(3);
  });
});

describe("the CLI with its code cache", () => {
  // A bundle just built is keyed by its text until it settles, then by its file (bundleOf): a test that began
  // before and ended after would see two keys. So each runs with the bundle settled.
  beforeAll(() => {
    const stat = fs.statSync(path.join(path.dirname(CLI), "palee.js"));
    const wait = Math.max(stat.mtimeMs, stat.ctimeMs) + FRESH_MS + 100 - Date.now();
    if (wait > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, wait);
  });

  /** One whole process of the built CLI in `vault` with the cache folder `cache`. */
  const call = (vault: string, cache: string, ...args: string[]) => {
    const r = spawnSync(process.execPath, [CLI, ...args, "--vault", vault], {
      encoding: "utf8",
      env: { PATH: process.env.PATH, TZ: "UTC", PALEE_CACHE_DIR: cache, PALEE_DEVICE: "test-device" },
    });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  const cacheFiles = (cache: string): string[] => {
    const dir = path.join(cache, "code");
    return fs.existsSync(dir) ? fs.readdirSync(dir).map((name) => path.join(dir, name)) : [];
  };

  it("answers alike with no cache, a good one, a damaged one and a stale one, and mends the bad ones", () => {
    const vault = temp("palee-cc-vault-");
    const cache = temp("palee-cc-cache-");
    expect(call(vault, cache, "session", "start", "--topic", "T-cache").status).toBe(0);
    expect(call(vault, cache, "session", "end", "--summary", "Cached.", "--next", "More.").status).toBe(0);
    const args = ["session", "list", "--json"];
    const others = cacheFiles(cache);
    const first = call(vault, cache, ...args);
    expect(first.status).toBe(0);
    // The list's own cache, beside the start's and the end's (one per action).
    const [file, ...more] = cacheFiles(cache).filter((f) => !others.includes(f));
    expect({ others: others.length, more }).toEqual({ others: 2, more: [] });
    const good = fs.readFileSync(file);

    // A good cache is used as it is: not rewritten.
    const long = new Date("2020-01-01T00:00:00Z");
    fs.utimesSync(file, long, long);
    expect(call(vault, cache, ...args)).toEqual(first);
    expect(fs.statSync(file).mtimeMs).toBe(long.getTime());

    const bad: Array<[string, Buffer]> = [
      ["a bit of the payload flipped", Buffer.from(good.map((b, i) => (i === good.length - 500 ? b ^ 0x10 : b)))],
      ["cut short", good.subarray(0, good.length >> 1)],
      [
        "another bundle's key",
        Buffer.concat([Buffer.from(good.toString("latin1").replace(/\n[0-9a-f]{64}\n/, `\n${KEY}\n`), "latin1")]),
      ],
      ["garbage", Buffer.from("palee-code-cache 1\nnot a cache at all\n")],
      ["empty", Buffer.alloc(0)],
    ];
    for (const [what, bytes] of bad) {
      fs.writeFileSync(file, bytes);
      expect({ what, ...call(vault, cache, ...args) }).toEqual({ what, ...first });
      // The refused cache was made anew, whole.
      expect({ what, files: cacheFiles(cache).length, mended: readCodeCache(file, keyOf(good)) !== undefined }).toEqual(
        { what, files: 3, mended: true },
      );
    }
  });

  it("keeps one cache per action, each written once by its own first call", () => {
    const vault = temp("palee-cc-vault-");
    const cache = temp("palee-cc-cache-");
    const made = (args: string[]): string[] => {
      const before = cacheFiles(cache);
      expect(call(vault, cache, ...args).status).toBe(0);
      return cacheFiles(cache).filter((f) => !before.includes(f));
    };
    const [start] = made(["session", "start", "--topic", "T-cache"]);
    const [end] = made(["session", "end", "--summary", "Cached.", "--next", "More."]);
    // Help runs other code: its own cache, never the action's.
    expect(made(["session", "end", "--help"])).toHaveLength(1);
    const long = new Date("2020-01-01T00:00:00Z");
    for (const f of [start, end]) fs.utimesSync(f, long, long);
    expect(made(["session", "start", "--topic", "T-cache"])).toEqual([]);
    expect(made(["session", "end", "--summary", "Again.", "--next", "More."])).toEqual([]);
    // Each found its own, whole, and took it: neither was written again.
    expect([start, end].map((f) => fs.statSync(f).mtimeMs)).toEqual([long.getTime(), long.getTime()]);
    expect(readCodeCache(end, keyOf(fs.readFileSync(start)))).toBeUndefined();
  });

  it("writes a cache the next call takes after a stats call that changed V8's flags (a full scan)", () => {
    const vault = temp("palee-cc-vault-");
    const cache = temp("palee-cc-cache-");
    expect(call(vault, cache, "session", "start", "--topic", "T-cache").status).toBe(0);
    expect(call(vault, cache, "session", "end", "--summary", "Cached.", "--next", "More.").status).toBe(0);
    const others = cacheFiles(cache);
    // Its first call has no device memory of the older notes' totals: it scans every note, with the young
    // generation kept small (young-generation.ts), a V8 flag that V8 checks a code cache against.
    const first = call(vault, cache, "session", "stats", "--json");
    expect(first.status).toBe(0);
    const [file, ...more] = cacheFiles(cache).filter((f) => !others.includes(f));
    expect(more).toEqual([]);
    const long = new Date("2020-01-01T00:00:00Z");
    fs.utimesSync(file, long, long);
    // Observed before: the next call refused it, compiled the bundle from its text and wrote it again.
    expect(call(vault, cache, "session", "stats", "--json")).toEqual(first);
    expect(fs.statSync(file).mtimeMs).toBe(long.getTime());
  });

  it("never runs a rewritten bundle with the cache of the one before", () => {
    // A bin beside a bundle of its own: the same size twice, rewritten in place under its old modification time.
    const dir = temp("palee-cc-bin-");
    const cache = temp("palee-cc-cache-");
    fs.copyFileSync(CLI, path.join(dir, "cli.js"));
    const bundle = path.join(dir, "palee.js");
    const write = (word: string): void =>
      fs.writeFileSync(bundle, `(function (exports) { exports.runProcess = () => console.log("${word}");\n});`);
    const run = (): string =>
      spawnSync(process.execPath, [path.join(dir, "cli.js"), "session", "list"], {
        encoding: "utf8",
        env: { PATH: process.env.PATH, TZ: "UTC", PALEE_CACHE_DIR: cache },
      }).stdout;
    const packed = new Date("1985-10-26T08:15:00Z"); // every version dated alike, as npm dates what it unpacks
    write("A");
    fs.utimesSync(bundle, packed, packed);
    const settle = (): void => void Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, FRESH_MS + 200);
    settle(); // told by its identity from now on
    expect([run(), run()]).toEqual(["A\n", "A\n"]);
    const [file] = cacheFiles(cache);
    expect(cacheFiles(cache)).toHaveLength(1);
    write("B");
    fs.utimesSync(bundle, packed, packed);
    settle();
    expect(run()).toBe("B\n");
    expect(cacheFiles(cache).filter((f) => f !== file)).toHaveLength(1); // B's own
  }, 20_000);

  it("reads a bundle built in ASCII only, which Node decodes on its fast path", () => {
    for (const name of ["cli.js", "palee.js"]) {
      expect({ name, ascii: isAscii(fs.readFileSync(path.join(path.dirname(CLI), name))) }).toEqual({
        name,
        ascii: true,
      });
    }
  });

  it("names the action a cache is for", () => {
    expect(actionOf(["session", "end", "--summary", "x"])).toBe("session end");
    expect(actionOf(["session", "end", "--help"])).toBe("session end help");
    expect(actionOf(["rebuild"])).toBe("rebuild");
    expect(actionOf(["session", "../x"])).toBe("other");
    expect(actionOf([])).toBe("other");
  });

  it("answers alike when the cache folder cannot be used, or the cache is off", () => {
    const vault = temp("palee-cc-vault-");
    const cache = temp("palee-cc-cache-");
    const expected = call(vault, cache, "session", "list");
    expect(expected.status).toBe(0);
    fs.rmSync(path.join(cache, "code"), { recursive: true });
    fs.writeFileSync(path.join(cache, "code"), "a file where the folder should be");
    expect(call(vault, cache, "session", "list")).toEqual(expected);
    const fresh = temp("palee-cc-cache-");
    const off = spawnSync(process.execPath, [CLI, "session", "list", "--vault", vault], {
      encoding: "utf8",
      env: { PATH: process.env.PATH, TZ: "UTC", PALEE_CACHE_DIR: fresh, PALEE_CODE_CACHE: "off" },
    });
    expect({ status: off.status, stdout: off.stdout, stderr: off.stderr }).toEqual(expected);
    expect(fs.existsSync(path.join(fresh, "code"))).toBe(false);
  });

  it("writes no cache for palee mcp, which writes nothing until a tool that writes is called", () => {
    const cache = temp("palee-cc-cache-");
    const r = spawnSync(process.execPath, [CLI, "mcp", "--vault", path.join(cache, "nowhere")], {
      input: "",
      encoding: "utf8",
      env: { PATH: process.env.PATH, TZ: "UTC", PALEE_CACHE_DIR: cache },
    });
    expect(r.status).toBe(2);
    expect(fs.readdirSync(cache)).toEqual([]);
  });
});

/** The key a cache file names on its second line. */
function keyOf(file: Buffer): string {
  return file.toString("latin1").split("\n")[1];
}
