/**
 * src/cli/topic.ts in process: which `--topic` values read the vault's topic notes. A start by a known ID must
 * cost what it did before version 3 (no scan of the notes); a name, or a new ID, reads them once.
 */
import fc from "fast-check";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { CommandContext } from "../../src/cli/commands/command";
import { topicOption } from "../../src/cli/topic";
import { indexTopicsNear } from "../../src/core/records/index-line";
import { layoutFor } from "../../src/core/records/layout";
import { PaleeSessions } from "../../src/core/sessions";
import { NodeStore } from "../../src/node/node-store";
import { systemClock, systemRandom } from "../../src/node/system-ports";

let root: string;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "palee-topic-option-"));
  fs.mkdirSync(path.join(root, "Topics"));
  fs.writeFileSync(path.join(root, "Topics", "Rust ownership.md"), "---\npalee_id: T-rust-ownership\n---\n");
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

function context(): { ctx: CommandContext; scans: () => number } {
  const store = new NodeStore(root);
  const spy = jest.spyOn(store, "topicNotes");
  const core = new PaleeSessions(
    { store, clock: systemClock, random: systemRandom, device: "test-device" },
    layoutFor("palee"),
  );
  const ctx = { core, store, notices: [] as string[] } as unknown as CommandContext;
  return { ctx, scans: () => spy.mock.calls.length };
}

async function endedSessionOn(topic: string): Promise<void> {
  const { ctx } = context();
  await ctx.core.start({ topic });
  await ctx.core.end({ summary: "s" });
}

describe("topicOption: when the topic notes are read", () => {
  it("never for an ID that hot.md names (the last session's topic)", async () => {
    await endedSessionOn("T-sql");
    const { ctx, scans } = context();
    expect(await topicOption(ctx, "T-sql", "begins")).toBe("T-sql");
    expect({ scans: scans(), notices: ctx.notices }).toEqual({ scans: 0, notices: [] });
  });

  it("never for an ID that index.md names", async () => {
    await endedSessionOn("T-sql");
    await endedSessionOn("T-go");
    const { ctx, scans } = context();
    expect(await topicOption(ctx, "T-sql", "begins")).toBe("T-sql");
    expect({ scans: scans(), notices: ctx.notices }).toEqual({ scans: 0, notices: [] });
  });

  it("never for end, pause and continue, which act on the open session", async () => {
    const { ctx, scans } = context();
    expect(await topicOption(ctx, "T-anything", "acts on the open session")).toBe("T-anything");
    expect({ scans: scans(), notices: ctx.notices }).toEqual({ scans: 0, notices: [] });
  });

  it("once for a new ID, which gets the notice", async () => {
    const { ctx, scans } = context();
    expect(await topicOption(ctx, "T-rust-ownershp", "begins")).toBe("T-rust-ownershp");
    expect({ scans: scans(), notices: ctx.notices }).toEqual({
      scans: 1,
      notices: ["new topic T-rust-ownershp; did you mean T-rust-ownership?"],
    });
  });

  it("once for an ID only a topic note has, which is not new", async () => {
    const { ctx, scans } = context();
    expect(await topicOption(ctx, "T-rust-ownership", "begins")).toBe("T-rust-ownership");
    expect({ scans: scans(), notices: ctx.notices }).toEqual({ scans: 1, notices: [] });
  });

  it("once for a name; never for (none)", async () => {
    const { ctx, scans } = context();
    expect(await topicOption(ctx, "rust ownership", "begins")).toBe("T-rust-ownership");
    expect(await topicOption(ctx, "(none)", "begins")).toBeNull();
    expect(scans()).toBe(1);
  });
});

describe("indexTopicsNear: the close-length topics of index.md's lines", () => {
  /** What the lines name, by a regular expression over each line: the reference the text search must equal. */
  const reference = (text: string, length: number, within: number): Set<string> =>
    new Set(
      Array.from(text.matchAll(/ - Topic: (T-[A-Za-z0-9][A-Za-z0-9._-]{0,120}) \(/g), (m) => m[1]).filter(
        (id) => Math.abs(id.length - length) <= within,
      ),
    );
  const topic = fc.oneof(
    fc.stringMatching(/^T-[a-z][a-z.-]{0,9}$/),
    fc.constantFrom("T-a b", "t-lower", "T-", "T-x(y", "T-rust - Topic: T-go", "T-é"),
  );
  const line = fc
    .tuple(fc.stringMatching(/^S-[0-9]{1,4}$/), topic, fc.constantFrom(" (2026-01-02, 5 min)", "(", "", " (x"))
    .map(([id, t, tail]) => `- [[${id}]] - Topic: ${t}${tail}`);

  it("equals the matches of each line, filtered by length", () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), fc.integer({ min: 2, max: 14 }), (lines, length) => {
        const text = `# Sessions\n\n${lines.join("\n")}\n`;
        expect(indexTopicsNear(text, length, 2)).toEqual(reference(text, length, 2));
      }),
    );
  });

  it("names a topic only the index knows as the close one", async () => {
    await endedSessionOn("T-rust-borrowing");
    fs.rmSync(path.join(root, "palee", "hot.md"));
    const { ctx } = context();
    expect(await topicOption(ctx, "T-rust-borowing", "begins")).toBe("T-rust-borowing");
    expect(ctx.notices).toEqual(["new topic T-rust-borowing; did you mean T-rust-borrowing?"]);
  });
});
