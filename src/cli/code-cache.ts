/**
 * Loads the CLI itself (dist/palee.js) with V8's code cache (issue 36, the fixed cost of a process): Node 20 has
 * no compile cache of its own (module.enableCompileCache is Node 22), so the bin compiles the bundle through
 * vm.Script and hands V8 the code it produced for the same bundle in an earlier process, kept on this device in
 * the palee cache folder (state-dir.ts cacheRoot), `code/<key>.v8`.
 *
 * Sound by construction: the cache is a hint V8 may take or refuse, never an input of any answer.
 *   - The key is the bundle's identity (bundleOf), the tool's, Node's and V8's versions and the architecture:
 *     another bundle or another Node never finds this file. The file repeats the key and carries the SHA-256 of
 *     its payload; a file whose key or digest does not match (damaged, cut short, another format) is not handed
 *     to V8 at all, since V8 itself checks only the source's length and its own version and flags.
 *   - V8 may still refuse a well-formed cache (cachedDataRejected): the bundle is then compiled from its text,
 *     exactly as without a cache, and the cache is written anew.
 *   - It is written after the run (so it holds the functions the run compiled lazily too), only when there was
 *     none or it was refused, to a temporary file renamed over the cache (atomic), and any failure is ignored.
 *   - One cache per action (`actionOf`: `session end`, `session list --help`…): a cache holds the functions its
 *     run compiled, and is written only when there was none, so one shared by every action held the first
 *     action's and every other compiled its own on every call (an end with a start's cache: ~20 ms more at 30 000
 *     sessions). The action is part of the key: another action never finds the file.
 *   - `palee mcp` reads a cache but never writes one: the server writes nothing until a tool that writes is called
 *     (contract, `palee mcp`), and its own code is in dist/mcp.js, which this cache does not hold; it reads a
 *     start's (the core it shares with the tools).
 *   - `PALEE_CODE_CACHE=off` loads the bundle without it (the bench's comparison; a way out if ever needed).
 */
import { createHash, randomBytes } from "node:crypto";
import { closeSync, fstatSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { Script } from "node:vm";
import { FRESH_MS } from "../node/file-key";
import { cacheRoot } from "./state-dir";
import { restoreYoungGenerationGrowth, youngGenerationKeptSmall } from "./young-generation";
import { VERSION } from "./version";

const FORMAT = "palee-code-cache 1";

const sha256 = (data: string | Buffer): string => createHash("sha256").update(data).digest("hex");

/** What a cache file must repeat to be taken: the format, the key, the payload's digest. */
function headerOf(key: string, payload: Buffer): string {
  return `${FORMAT}\n${key}\n${sha256(payload)}\n`;
}

/** The payload of the cache file `file` if it is whole and made for `key`, else undefined. */
export function readCodeCache(file: string, key: string): Buffer | undefined {
  let data: Buffer;
  try {
    data = readFileSync(file);
  } catch {
    return undefined;
  }
  const prefix = `${FORMAT}\n${key}\n`;
  const headerEnd = prefix.length + 65; // the digest's 64 hex digits and a newline
  if (data.length <= headerEnd || data.toString("latin1", 0, prefix.length) !== prefix) return undefined;
  const payload = data.subarray(headerEnd);
  return data.toString("latin1", prefix.length, headerEnd) === `${sha256(payload)}\n` ? payload : undefined;
}

/** Writes `payload` as the cache file `file` for `key`: a temporary file beside it, then renamed over it. */
export function writeCodeCache(file: string, key: string, payload: Buffer): void {
  const temp = `${file}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(temp, Buffer.concat([Buffer.from(headerOf(key, payload), "latin1"), payload]), { mode: 0o600 });
    renameSync(temp, file);
  } catch {
    try {
      rmSync(temp, { force: true });
    } catch {
      // No temporary file could be made there either.
    }
  }
}

/**
 * The action a call's cache is for: `session <action>` (or the top-level command), and " help" when it asks for
 * help or the version, which runs other code. A name that is no action's form is "other": a mistyped action fails
 * (no cache is written after a failure) and never adds a file of its own.
 */
export function actionOf(args: readonly string[]): string {
  const words = args[0] === "session" ? args.slice(0, 2) : args.slice(0, 1);
  const action = words.every((w) => /^[a-z][a-z-]{0,23}$/.test(w)) && words.length > 0 ? words.join(" ") : "other";
  return args.some((a) => a === "--help" || a === "-h" || a === "--version") ? `${action} help` : action;
}

/**
 * The bundle at `file`: its text and what identifies that text, read through one descriptor, the identity taken
 * before the text. Its identity (device, inode, size, modification and status-change times in ns, as
 * NodeStore.fileKey tells a note) once it is older than FRESH_MS at `now`; until then the SHA-256 of its text.
 * Sound: every write sets the status-change time to its own tick, and no tool can set it back. A file whose times
 * are FRESH_MS (longer than any file system's tick) before this read can change only at a later tick, so while it
 * shows these times it holds the text read here. A text read after a write began (a rebuild under way) was read
 * under times the file never shows again; a rebuild's new file (a new inode, or the same one rewritten) has a new
 * status-change time. A file too fresh to tell may yet change within its tick: its text's digest keys it. Where
 * a file system keeps no status-change time (FAT), the tool's version in the key still tells releases apart, as
 * npm dates every file it unpacks alike.
 */
export function bundleOf(file: string, now = Date.now()): { source: string; id: string } {
  const fd = openSync(file, "r");
  try {
    const stat = fstatSync(fd, { bigint: true });
    const source = readFileSync(fd, "utf8");
    const settled = BigInt(now - FRESH_MS) * 1_000_000n;
    if (stat.isFile() && stat.mtimeNs <= settled && stat.ctimeNs <= settled) {
      return { source, id: `file ${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}` };
    }
    return { source, id: `text ${sha256(source)}` };
  } finally {
    closeSync(fd);
  }
}

/** Where the code cache of the bundle `id` (bundleOf) for `action` is kept, and its key; null without a folder. */
function cachePlace(id: string, env: NodeJS.ProcessEnv, action: string): { file: string; key: string } | null {
  if (env.PALEE_CODE_CACHE === "off") return null;
  let root: string;
  try {
    root = cacheRoot(env);
  } catch {
    return null;
  }
  const key = sha256(`${id} ${VERSION} ${process.version} ${process.versions.v8} ${process.arch} ${action}`);
  return { file: path.join(root, "code", `${key.slice(0, 32)}.v8`), key };
}

/**
 * Loads the CommonJS file `file` as `require` would (its own `require`, `module`, `exports`, `__filename`,
 * `__dirname`), through the code cache of `action` (actionOf), and returns its exports. The file is built as the
 * function CommonJS wraps a module in (esbuild.config.mjs), compiled as it is: no copy of its text joined to the
 * wrapper on every call. `save`: whether a missing or refused cache is written when the process exits with 0.
 * `requireOf`: the file's `require`; this module's own by default, which resolves as the file's own when the file
 * sits beside this one (dist/palee.js beside dist/cli.js), and needs no node:module (its loading costs every call).
 */
export function requireWithCodeCache(
  file: string,
  env: NodeJS.ProcessEnv,
  action: string,
  save = true,
  requireOf: NodeJS.Require = require,
): unknown {
  const { source, id } = bundleOf(file);
  const place = cachePlace(id, env, action);
  const cachedData = place === null ? undefined : readCodeCache(place.file, place.key);
  const script = new Script(source, { filename: file, cachedData });
  if (save && place !== null && (cachedData === undefined || script.cachedDataRejected === true)) {
    const flagsAtLoad = youngGenerationKeptSmall();
    process.once("exit", (code) => {
      // Only after a call that succeeded: one refused (a cache folder inside the vault, `cache_dir`) writes nothing.
      if (code !== 0) return;
      // V8's flags as they were at the load (a stats call that scanned everything changed one since), else the
      // next call would refuse the cache, compile the text and write it again.
      if (!flagsAtLoad) restoreYoungGenerationGrowth();
      try {
        writeCodeCache(place.file, place.key, script.createCachedData());
      } catch {
        // A cache that cannot be made is no cache: the next process compiles the text, as this one did.
      }
    });
  }
  const load = script.runInThisContext() as (...args: unknown[]) => void;
  const module = { exports: {} as unknown, filename: file, id: file, loaded: false };
  load.call(module.exports, module.exports, requireOf, module, file, path.dirname(file));
  module.loaded = true;
  return module.exports;
}
