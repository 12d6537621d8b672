/**
 * A crash INSIDE a write of the Node store (the CLI's), on real files in temp folders. The fs functions the
 * store uses are wrapped with jest spies that count every step that changes the disk (mkdir, open, the temp
 * file's write, sync and close, link, rename, rm, unlink, copyFile). For each operation, the steps of an
 * uninterrupted run are counted; then, for every step j, the run is killed there: step j and everything
 * after it do nothing and throw — the `finally` clean-ups included, as with a real kill — and a write of the
 * temp file is also cut after half its content. Then:
 *  - every file is its old content or one the operation wrote, in full (temp files aside);
 *  - the leftover temp files (dot-files ending in .tmp) are never read as sessions: not listed, not skipped;
 *  - a fresh core on a fresh NodeStore (the next CLI run) recovers, lists, ends and rebuilds over that vault,
 *    and every invariant of tests/reliability/invariants.ts holds;
 *  - the built CLI does the same on vaults a kill left temp files in.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { layoutFor } from "../../src/core/records/layout";
import type { SessionStore } from "../../src/core/ports";
import { PaleeSessions } from "../../src/core/sessions";
import { answerHook } from "../../src/core/agent-hook/answer";
import { parseHookEvent } from "../../src/core/agent-hook/event";
import * as asyncFs from "../../src/node/async-fs";
import type { OpenFile } from "../../src/node/async-fs";
import { NodeStore } from "../../src/node/node-store";
import { palee } from "../cli/support";
import { draftText } from "../support/builders";
import { CrashingStore } from "../support/crashing-store";
import { FakeClock, SeededRandom } from "../support/fakes";
import { HOT, INDEX, S } from "../support/inspect";
import { MemoryStore } from "../support/memory-store";
import type { VaultState } from "./invariants";
import { invariantViolations } from "./invariants";

const DEVICE = "laptop";
type Files = Record<string, string>;

// ---- the kill switch ------------------------------------------------------------------------------

class Killed extends Error {
  constructor(step: string) {
    super(`simulated kill at ${step}`);
  }
}

/** The run being killed: which disk-changing step dies, and whether a temp-file write is cut in half. */
interface Kill {
  at: number;
  half: boolean;
  steps: string[];
  dead: boolean;
}
let kill: Kill | null = null;
/** Simulates a file system without hard links (FAT, exFAT, some network shares): link fails with EPERM. */
let noHardLinks = false;
let vaultRoot = "";

/** The promises the store calls (async-fs.ts): a module object, whose functions the spies below replace. */
const fsp = asyncFs;
/** The module object itself, whose functions the store calls (a namespace import is a copy of its bindings). */
const fsSync = jest.requireActual<typeof fs>("node:fs");
const real = {
  writeSync: fsSync.writeSync.bind(fsSync),
  mkdir: fsp.mkdir.bind(fsp),
  open: fsp.open.bind(fsp),
  link: fsp.link.bind(fsp),
  rename: fsp.rename.bind(fsp),
  rm: fsp.rm.bind(fsp),
  unlink: fsp.unlink.bind(fsp),
  copyFile: fsp.copyFile.bind(fsp),
  writeFile: fsp.writeFile.bind(fsp),
  readdir: fsp.readdir.bind(fsp),
  lstat: fsp.lstat.bind(fsp),
  realpath: fsp.realpath.bind(fsp),
};

/** A readable name for a path in step logs: vault-relative, temp files' random part elided. */
function shown(p: unknown): string {
  const rel = path.relative(vaultRoot, String(p)).split(path.sep).join("/");
  return rel.replace(/\.[0-9a-f]{8}\.tmp$/, ".…tmp");
}

/** Called before each disk-changing step: "go", "half" (write half, then die), or throws once dead. */
function step(name: string, canHalve = false): "go" | "half" {
  if (!kill) return "go";
  if (kill.dead) throw new Killed(`${name} (after the kill)`);
  const n = kill.steps.length;
  kill.steps.push(name);
  if (n !== kill.at) return "go";
  kill.dead = true;
  if (kill.half && canHalve) return "half";
  throw new Killed(name);
}
/** Listings and lookups change nothing: they are not steps, but a dead process does none (reads, being
 * synchronous, cannot run after the kill anyway: the operation has already been rejected). */
function alive(name: string): void {
  if (kill?.dead) throw new Killed(`${name} (after the kill)`);
}

const handles: OpenFile[] = [];
/** The files opened through the kill switch, by descriptor: their writes are steps, named by their paths. */
const openedPaths = new Map<number, string>();

function installKillSwitch(): void {
  jest.spyOn(fsp, "mkdir").mockImplementation((p: fs.PathLike, o?: fs.MakeDirectoryOptions) => {
    step(`mkdir ${shown(p)}`);
    return real.mkdir(p, o);
  });
  jest.spyOn(fsp, "open").mockImplementation(async (p: string, flags: string) => {
    step(`open ${shown(p)}`);
    const handle = await real.open(p, flags);
    handles.push(handle);
    openedPaths.set(handle.fd, shown(p));
    const sync = handle.sync.bind(handle);
    const close = handle.close.bind(handle);
    Object.assign(handle, {
      sync: () => {
        step(`sync ${shown(p)}`);
        return sync();
      },
      close: () => {
        step(`close ${shown(p)}`);
        return close();
      },
    });
    return handle;
  });
  // The temp file's content is written synchronously on the opened file (text-pieces.ts writeText).
  jest.spyOn(fsSync, "writeSync").mockImplementation(((fd: number, buffer: Buffer, offset: number, length: number) => {
    const name = openedPaths.get(fd) ?? `fd ${fd}`;
    if (step(`write ${name}`, true) === "half") {
      real.writeSync(fd, buffer, offset, Math.floor(length / 2));
      throw new Killed(`write ${name} (half written)`);
    }
    return real.writeSync(fd, buffer, offset, length);
  }) as typeof fsSync.writeSync);
  jest.spyOn(fsp, "link").mockImplementation((a: fs.PathLike, b: fs.PathLike) => {
    step(`link ${shown(a)} -> ${shown(b)}`);
    if (noHardLinks)
      return Promise.reject(Object.assign(new Error("EPERM: operation not permitted, link"), { code: "EPERM" }));
    return real.link(a, b);
  });
  jest.spyOn(fsp, "rename").mockImplementation((a: fs.PathLike, b: fs.PathLike) => {
    step(`rename ${shown(a)} -> ${shown(b)}`);
    return real.rename(a, b);
  });
  jest.spyOn(fsp, "rm").mockImplementation((p: fs.PathLike, o?: fs.RmOptions) => {
    step(`rm ${shown(p)}`);
    return real.rm(p, o);
  });
  jest.spyOn(fsp, "unlink").mockImplementation((p: fs.PathLike) => {
    step(`unlink ${shown(p)}`);
    return real.unlink(p);
  });
  jest.spyOn(fsp, "copyFile").mockImplementation((a: fs.PathLike, b: fs.PathLike, m?: number) => {
    step(`copyFile ${shown(a)} -> ${shown(b)}`);
    return real.copyFile(a, b, m);
  });
  jest.spyOn(fsp, "writeFile").mockImplementation((async (p: fs.PathLike, d: string, o?: fs.WriteFileOptions) => {
    if (step(`writeFile ${shown(p)}`, true) === "half") {
      await real.writeFile(p, d.slice(0, Math.floor(d.length / 2)), o);
      throw new Killed(`writeFile ${shown(p)} (half written)`);
    }
    return real.writeFile(p, d, o);
  }) as typeof fsp.writeFile);
  jest.spyOn(fsp, "readdir").mockImplementation(((p: fs.PathLike, o?: object) => {
    alive(`readdir ${shown(p)}`);
    return real.readdir(p, o as never);
  }) as typeof fsp.readdir);
  jest.spyOn(fsp, "lstat").mockImplementation((p: fs.PathLike) => {
    alive(`lstat ${shown(p)}`);
    return real.lstat(p);
  });
  jest.spyOn(fsp, "realpath").mockImplementation((p: fs.PathLike) => {
    alive(`realpath ${shown(p)}`);
    return real.realpath(p);
  });
}

/** What a killed process leaves: its open files are closed by the system. */
async function reapHandles(): Promise<void> {
  for (const handle of handles.splice(0)) await handle.close().catch(() => undefined);
  openedPaths.clear();
}

// ---- vaults on disk -------------------------------------------------------------------------------

/**
 * Hundreds of vaults are written and thrown away: on Linux they go to memory (/dev/shm), where fsync costs
 * nothing; links, renames and exclusive creates behave there as on a disk.
 */
const TEMP_BASE = fs.existsSync("/dev/shm") && fs.statSync("/dev/shm").isDirectory() ? "/dev/shm" : os.tmpdir();
const roots: string[] = [];
function writeVault(files: Files): string {
  const root = fs.mkdtempSync(path.join(TEMP_BASE, "palee-kill-"));
  roots.push(root);
  for (const [rel, text] of Object.entries(files)) {
    const abs = path.join(root, ...rel.split("/"));
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, text);
  }
  return root;
}
function removeVault(root: string): void {
  fs.rmSync(root, { recursive: true, force: true });
  roots.splice(roots.indexOf(root), 1);
}
afterAll(() => {
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
});

/** Every file of the vault by relative path, the trash apart. */
function filesOf(root: string): { files: Map<string, string>; trash: Map<string, string> } {
  const files = new Map<string, string>();
  const trash = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const abs = path.join(dir, e.name);
      if (e.isDirectory()) walk(abs);
      else {
        const rel = path.relative(root, abs).split(path.sep).join("/");
        (rel.startsWith(".trash/") ? trash : files).set(rel, fs.readFileSync(abs, "utf8"));
      }
    }
  };
  walk(root);
  return { files, trash };
}

const TEMP = /(^|\/)\.[^/]+\.tmp$/;
const isTemp = (rel: string): boolean => TEMP.test(rel);

/** The vault as the invariant checker sees it; the trash's "DRAFT-S-… 1.md" copies name their draft. */
function stateOf(root: string, createdDrafts: Iterable<string>): VaultState {
  const { files, trash } = filesOf(root);
  const trashed = [...trash.keys()].map(
    (rel) => `palee/sessions/${rel.slice(".trash/".length).replace(/ \d+\.md$/, ".md")}`,
  );
  return { files, trashed, createdDrafts: new Set(createdDrafts) };
}

function createdDraftsIn(logs: readonly string[]): string[] {
  return logs.flatMap((w) => /^create .*\/(DRAFT-S-[^/]+)\.md$/.exec(w)?.[1] ?? []);
}

// ---- starting vaults, made by the core itself -----------------------------------------------------

const USER_FILES: Files = {
  "palee/My notes.md": "# My notes\n\nKept beside the sessions.\n",
  "Other/x.md": "Unrelated note.\n",
};

function core(store: SessionStore, at = "2026-08-14T12:00:00Z", seed = 3): PaleeSessions {
  return new PaleeSessions(
    { store, clock: FakeClock.at(at), random: new SeededRandom(seed), device: DEVICE },
    layoutFor("palee"),
  );
}

/** Two ended sessions yesterday, plus whatever `then` does on the same files. */
async function history(
  then?: (at: (iso: string) => PaleeSessions, store: MemoryStore) => Promise<unknown>,
): Promise<Files> {
  const store = new MemoryStore(USER_FILES);
  const at = (iso: string): PaleeSessions => core(store, iso, Date.parse(iso) % 1000);
  await at("2026-08-13T09:00:00Z").start({ topic: "T-a" });
  await at("2026-08-13T09:20:00Z").checkpoint({ notes: "borrowing" });
  await at("2026-08-13T09:45:00Z").end({ summary: "Borrowing basics.", nextAction: "Lifetimes." });
  await at("2026-08-13T15:00:00Z").start({ topic: "T-b" });
  await at("2026-08-13T16:00:00Z").end({ summary: "Traits." });
  if (then) await then(at, store);
  return store.snapshot();
}

const openSession = (): Promise<Files> =>
  history(async (at) => {
    await at("2026-08-14T11:00:00Z").start({ topic: "T-a" });
    await at("2026-08-14T11:55:00Z").checkpoint({ notes: "moves" });
  });
/** This morning's session on T-b, never ended: interrupted by 12:00. */
const interrupted = (): Promise<Files> =>
  history(async (at) => {
    await at("2026-08-14T08:00:00Z").start({ topic: "T-b" });
    await at("2026-08-14T08:40:00Z").checkpoint({ notes: "generics" });
  });
const draftOf = (files: Files): string => {
  const name = Object.keys(files).find((p) => /DRAFT-S-/.test(p)) ?? "";
  return name.slice(name.lastIndexOf("/") + 1, -3);
};

interface Scenario {
  name: string;
  vault: () => Promise<Files>;
  run: (c: PaleeSessions, files: Files) => Promise<unknown>;
  discarded?: (files: Files) => string[];
}

const SECOND = "DRAFT-S-0000000b";
/** Notes long enough that half of the confirmed note ends inside them, after complete frontmatter. */
const LONG_NOTES = Array.from({ length: 40 }, (_, i) => `- point ${i + 1}: ownership moves, borrows do not`).join("\n");
const scenarios: Scenario[] = [
  { name: "start", vault: () => history(), run: (c) => c.start({ topic: "T-c" }) },
  { name: "checkpoint with notes", vault: openSession, run: (c) => c.checkpoint({ notes: "clones" }) },
  {
    name: "checkpoint creating a new draft",
    vault: () => history(),
    run: (c) => c.checkpoint({ topic: "T-c", notes: "first" }),
  },
  {
    name: "end with two drafts",
    vault: async () => ({
      ...(await openSession()),
      [S(SECOND)]: draftText(
        {
          session_id: SECOND,
          topic_id: "T-a",
          started_at: "2026-08-14T11:10:00+00:00",
          last_checkpoint_at: "2026-08-14T11:50:00+00:00",
        },
        "second\n",
      ),
    }),
    run: (c) => c.end({ summary: "Done." }),
  },
  {
    name: "end with long notes",
    vault: () =>
      history(async (at) => {
        await at("2026-08-14T11:00:00Z").start({ topic: "T-a" });
        await at("2026-08-14T11:55:00Z").checkpoint({ notes: LONG_NOTES });
      }),
    run: (c) => c.end({ summary: "Done." }),
  },
  // palee session hook (contract §4b): a conversation's own session, ended by its SessionEnd.
  {
    name: "hook SessionEnd of the conversation's own session",
    vault: () =>
      history(async (at) => {
        await at("2026-08-14T11:00:00Z").start({ topic: "T-a", agent: "claude-code:5f1c" });
        await at("2026-08-14T11:55:00Z").checkpoint({ notes: "moves" });
      }),
    run: (c) =>
      answerHook(c, parseHookEvent('{"hook_event_name":"SessionEnd","session_id":"5f1c","reason":"logout"}'), {
        topic: null,
        words: 400,
      }).then((answer) => {
        if (answer.did !== "ended") throw new Error(`the hook answered ${answer.did}, not ended`);
      }),
  },
  { name: "recover save", vault: interrupted, run: (c, files) => c.recover(draftOf(files), "save") },
  {
    name: "recover discard",
    vault: interrupted,
    run: (c, files) => c.recover(draftOf(files), "discard"),
    discarded: (files) => [draftOf(files)],
  },
  { name: "recover resume", vault: interrupted, run: (c, files) => c.recover(draftOf(files), "resume") },
  {
    name: "rebuild of a missing index and a corrupt hot.md",
    vault: async () => {
      const files = await history();
      delete files[INDEX];
      return { ...files, [HOT]: "---\n: [\n---\n" };
    },
    run: (c) => c.rebuild(),
  },
];

// ---- the runs -------------------------------------------------------------------------------------

interface Run {
  root: string;
  outcome: string;
  steps: string[];
  logs: string[];
  contents: Map<string, string[]>;
}

/** The store as the CLI composes it (cli/invoke.ts): index.md a derived view, written without a flush. */
function cliStore(root: string): NodeStore {
  return new NodeStore(root, null, INDEX, undefined, [INDEX]);
}

/** Runs the scenario on a fresh copy of `files` on disk, killed at step `at` (or never). */
async function runOnDisk(scenario: Scenario, files: Files, at: number, half = false): Promise<Run> {
  const root = writeVault(files);
  vaultRoot = root;
  const logging = new CrashingStore(cliStore(root));
  kill = { at, half, steps: [], dead: false };
  const steps = kill.steps;
  let outcome: string;
  try {
    await scenario.run(core(logging), files);
    outcome = "finished";
  } catch (error) {
    outcome = error instanceof Error && /simulated kill/.test(error.message) ? "killed" : `failed: ${String(error)}`;
  } finally {
    kill = null;
    await reapHandles();
  }
  return { root, outcome, steps, logs: [...logging.log], contents: logging.contents };
}

/** Every content a path held at some point of an uninterrupted run: before, and each write in full. */
function contentsWritten(before: Files, written: Map<string, string[]>): Map<string, Set<string>> {
  const seen = new Map<string, Set<string>>();
  for (const [p, text] of Object.entries(before)) seen.set(p, new Set([text]));
  for (const [p, texts] of written) for (const text of texts) seen.set(p, new Set([...(seen.get(p) ?? []), text]));
  return seen;
}

const figures = { scenarios: 0, killPoints: 0, halfWrites: 0, leftTempFiles: 0, emptyClaims: 0 };

describe("a kill inside every step of the Node store's writes", () => {
  beforeAll(installKillSwitch);
  afterAll(() => {
    jest.restoreAllMocks();
    process.stdout.write(
      `crash-node-store: ${figures.scenarios} scenarios, ${figures.killPoints} kill points ` +
        `(${figures.halfWrites} of them half-way through a temp-file write), ` +
        `${figures.leftTempFiles} left a temp file, ${figures.emptyClaims} an empty claimed note ` +
        `(no hard links)\n`,
    );
  });

  it.each(scenarios.map((s) => [s.name, s] as const))(
    "%s: old or new content in full, and the next run recovers",
    (_name, scenario) => killEverywhere(scenario),
  );

  describe("on a file system without hard links (create and trash fall back)", () => {
    beforeAll(() => (noHardLinks = true));
    afterAll(() => (noHardLinks = false));
    const writesNotes = scenarios.filter((s) => /start|new draft|end|save|discard/.test(s.name));
    it.each(writesNotes.map((s) => [s.name, s] as const))(
      "%s: old or new content in full, and the next run recovers",
      (_name, scenario) => killEverywhere(scenario),
    );
  });
});

async function killEverywhere(scenario: Scenario): Promise<void> {
  const files = await scenario.vault();
  const full = await runOnDisk(scenario, files, Number.POSITIVE_INFINITY);
  expect(full.outcome).toBe("finished");
  const finished = filesOf(full.root);
  expect([...finished.files.keys()].filter(isTemp)).toEqual([]);
  const written = contentsWritten(files, full.contents);
  const draftContents = new Set(
    [...written].filter(([p]) => /\/DRAFT-S-[^/]+\.md$/.test(p)).flatMap(([, texts]) => [...texts]),
  );
  expect(finished.files.size).toBeGreaterThan(0);
  for (const [rel, text] of finished.files) expect([rel, written.get(rel)?.has(text)]).toEqual([rel, true]);
  removeVault(full.root);
  figures.scenarios++;

  const points: Array<[number, boolean]> = [];
  // Without hard links the steps are those of the run with them up to the first link: only later ones differ.
  const from = noHardLinks
    ? Math.max(
        0,
        full.steps.findIndex((name) => name.startsWith("link ")),
      )
    : 0;
  full.steps.forEach((name, j) => {
    if (j < from) return;
    points.push([j, false]);
    if (/^write(File)? /.test(name)) points.push([j, true]);
  });
  expect([scenario.name, points.length > 0]).toEqual([scenario.name, true]);
  for (const [j, half] of points) {
    const run = await runOnDisk(scenario, files, j, half);
    const label = `${scenario.name}, killed at step ${j} (${half ? "half-way through " : ""}${full.steps[j]})`;
    expect([label, run.outcome]).toEqual([label, "killed"]);
    expect([label, run.steps]).toEqual([label, full.steps.slice(0, j + 1)]);
    figures.killPoints++;
    if (half) figures.halfWrites++;

    // The moment after the kill: every file its old content or a new one in full; temp files aside.
    const { files: now, trash } = filesOf(run.root);
    const temps = [...now.keys()].filter(isTemp);
    if (temps.length > 0) figures.leftTempFiles++;
    if (half && full.steps[j]?.startsWith("write ")) {
      // The simulation did cut a temp file: half of some content is on disk under a temp name.
      const halves = temps.filter((rel) => {
        const text = now.get(rel) ?? "";
        return [...written.values()].some((texts) =>
          [...texts].some((t) => text.length < t.length && t.startsWith(text)),
        );
      });
      expect([label, halves.length]).toEqual([label, 1]);
    }
    // Without hard links, a note's name is claimed by an empty file before the temp file is renamed over it:
    // a kill in between leaves that empty file, never a partial note.
    const empties = [...now]
      .filter(([rel, text]) => text === "" && !isTemp(rel) && rel.startsWith("palee/sessions/"))
      .map(([rel]) => rel);
    expect([label, empties.length]).toEqual([label, noHardLinks ? empties.length : 0]);
    expect([label, empties.length <= 1]).toEqual([label, true]);
    const partial = [...now].filter(
      ([rel, text]) => !isTemp(rel) && !empties.includes(rel) && !(written.get(rel)?.has(text) ?? false),
    );
    expect([label, partial.map(([rel]) => rel)]).toEqual([label, []]);
    const strangeTrash = [...trash].filter(([, text]) => !draftContents.has(text));
    expect([label, strangeTrash.map(([rel]) => rel)]).toEqual([label, []]);
    const created = createdDraftsIn(run.logs);
    const atKill = stateOf(run.root, created);
    for (const rel of empties) (atKill.files as Map<string, string>).delete(rel);
    expect([
      label,
      invariantViolations(files, atKill, {
        phase: "crashed",
        discarded: scenario.discarded?.(files),
        allowExtra: isTemp,
      }),
    ]).toEqual([label, []]);

    // The next run (a fresh store and core, as the next CLI call): recover, list, rebuild, then end and rebuild.
    vaultRoot = run.root;
    const next = new CrashingStore(cliStore(run.root));
    const fresh = core(next, "2026-08-14T12:03:00Z", 17);
    if (empties.length > 0) {
      figures.emptyClaims++;
      // An empty note is reported by name, never read as a session; the learner moves it away.
      const seen = await fresh.list({ all: true });
      expect([label, seen.skipped.map((x) => x.path)]).toEqual([label, empties]);
      for (const rel of empties) fs.renameSync(path.join(run.root, rel), path.join(run.root, "Other", "empty note.md"));
    }
    const opened = await fresh.triageOnOpen();
    for (const d of opened.pending) await fresh.recover(d.draftId, "save");
    const list = await fresh.list({ all: true });
    expect([label, list.skipped]).toEqual([label, []]);
    const listed = [...list.confirmed.map((s) => s.path), ...list.drafts.map((d) => d.path)];
    expect([label, listed.filter(isTemp)]).toEqual([label, []]);
    await fresh.rebuild();
    const movedAway = (rel: string): boolean => isTemp(rel) || (empties.length > 0 && rel === "Other/empty note.md");
    const options = { discarded: scenario.discarded?.(files), allowExtra: movedAway };
    const allCreated = [...created, ...createdDraftsIn(next.log)];
    expect([label, invariantViolations(files, stateOf(run.root, allCreated), options)]).toEqual([label, []]);
    // A new session after the crash (an open one is kept and ended): end alone would refuse nothing_open.
    await fresh.start({ topic: "T-a", ifOpen: "keep" });
    await fresh.end({ summary: "After the crash." });
    const rebuilt = await fresh.rebuild();
    expect([label, rebuilt.skipped]).toEqual([label, []]);
    expect([
      label,
      invariantViolations(files, stateOf(run.root, allCreated), { ...options, newUnabsorbedAllowed: 1 }),
    ]).toEqual([label, []]);
    // The temp files a kill left are still there: never read, never removed (only drafts are ever removed).
    expect([label, [...filesOf(run.root).files.keys()].filter(isTemp)]).toEqual([label, temps]);
    removeVault(run.root);
  }
}

describe("the built CLI on a vault a kill left temp files in", () => {
  beforeAll(installKillSwitch);
  afterAll(() => jest.restoreAllMocks());

  const endTwo = scenarios.find((s) => s.name === "end with two drafts");
  const kills: Array<[string, (step: string) => boolean, boolean]> = [
    ["half-way through the confirmed note's temp file", (step) => /^write .*\/\.S-/.test(step), true],
    ["after the confirmed note's link, before its temp file is removed", (step) => /^rm .*\/\.S-/.test(step), false],
    ["before hot.md's temp file is renamed into place", (step) => /^rename .*\.hot\.md/.test(step), false],
  ];

  it.each(kills)("list, end and rebuild work when killed %s", async (_when, at, half) => {
    if (!endTwo) throw new Error("no end scenario");
    const files = await endTwo.vault();
    const full = await runOnDisk(endTwo, files, Number.POSITIVE_INFINITY);
    removeVault(full.root);
    const j = full.steps.findIndex(at);
    expect(j).toBeGreaterThanOrEqual(0);
    const run = await runOnDisk(endTwo, files, j, half);
    expect(run.outcome).toBe("killed");
    const temps = [...filesOf(run.root).files.keys()].filter(isTemp);
    expect(temps).toHaveLength(1);
    // The CLI is another process: nothing of the kill switch reaches it.

    const env = { env: { PALEE_DEVICE: DEVICE } };
    const list = palee(run.root, ["list", "--all", "--json"], env);
    expect(list.status).toBe(0);
    expect(list.json().skipped).toEqual([]);
    expect(list.stdout).not.toMatch(/\.tmp/);
    // Killed before the note existed: end saves the drafts' sitting; after: it reports the saved session.
    const end = palee(
      run.root,
      ["end", "--topic", "T-a", "--summary", "After the crash.", "--at", "now", "--json"],
      env,
    );
    expect([end.status, end.stderr]).toEqual([0, expect.any(String)]);
    expect(end.json()).toMatchObject({ status: "ended", ...(half ? {} : { already_saved: true }) });
    expect(end.json().already_saved).toBe(half ? undefined : true);
    const rebuild = palee(run.root, ["rebuild", "--json"], env);
    expect(rebuild.status).toBe(0);
    expect(rebuild.json().skipped).toEqual([]);
    const state = stateOf(run.root, createdDraftsIn(run.logs));
    expect(invariantViolations(files, state, { allowExtra: isTemp, newUnabsorbedAllowed: 1 })).toEqual([]);
    expect([...state.files.keys()].filter(isTemp)).toEqual(temps);
    removeVault(run.root);
  });
});
