/**
 * src/cli/topic.ts in process: which `--topic` values read the vault's topic notes. A start by a known ID must
 * cost what it did before version 3 (no scan of the notes); a name, or a new ID, reads them once.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { CommandContext } from "../../src/cli/commands/command";
import { topicOption } from "../../src/cli/topic";
import { layoutFor } from "../../src/core/layout";
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
