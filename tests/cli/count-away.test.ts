/**
 * `--count-away` (contract §5 version 4; issue 35 §4): the time away the CLI recorded in the open session can be
 * counted back as study, on draft and end (and MCP checkpoint / end_session); pauses never are.
 */
import { countAllAwayUpdate } from "../../src/core/honest-time";
import { call, connectStdio } from "./mcp-support";
import {
  DEVICE,
  ago,
  cleanupVaults,
  confirmedFiles,
  draftFiles,
  makeVault,
  palee,
  readRecord,
  writeDraft,
  writeHot,
} from "./support";

afterEach(cleanupVaults);
jest.setTimeout(30_000);

const ID = "DRAFT-S-0000abcd";

/** A session started 4 h ago whose last sign of life was 3 h 50 min ago: the learner studied on paper. */
function silentVault(): string {
  const vault = makeVault();
  const startedAt = ago(240);
  writeDraft(vault, { id: ID, topic: "T-rust", startedAt, lastCheckpointAt: ago(230) });
  writeHot(vault, { activeTopic: "T-rust", startedAt, openDraft: ID, device: DEVICE });
  return vault;
}

const draftFields = (vault: string) => readRecord(vault, `palee/sessions/${draftFiles(vault)[0]}`).fields;

describe("--count-away", () => {
  it("draft records the silence as time away; draft --count-away counts it back; end saves 4 h", () => {
    const vault = silentVault();
    const recorded = palee(vault, ["draft"]);
    expect(recorded.status).toBe(0);
    expect(recorded.stderr).toMatch(/^Away .*, not counted/);
    expect(draftFields(vault).away).toHaveLength(1);
    expect(draftFields(vault).break_minutes).toBe(230);
    const counted = palee(vault, ["draft", "--count-away"]);
    expect(counted.status).toBe(0);
    expect(counted.stderr).toMatch(/^Counted .* as study time \(3 h 50 min more studied\)\.$/m);
    expect(draftFields(vault)).toMatchObject({ away: [], break_minutes: 0, breaks: [] });
    const again = palee(vault, ["draft", "--count-away"]);
    expect(again.stderr).toMatch(/No time away is recorded in DRAFT-S-0000abcd: nothing to count/);
    const ended = palee(vault, ["end", "--json"]);
    expect(ended.status).toBe(0);
    expect((ended.json().session as { duration_minutes: number }).duration_minutes).toBe(240);
  });

  it("end --count-away counts it back before ending", () => {
    const vault = silentVault();
    expect(palee(vault, ["draft"]).status).toBe(0);
    const ended = palee(vault, ["end", "--count-away", "--json"]);
    expect(ended.status).toBe(0);
    expect(ended.stderr).toMatch(/Counted .* as study time/);
    expect((ended.json().session as { duration_minutes: number }).duration_minutes).toBe(240);
    expect(confirmedFiles(vault)).toHaveLength(1);
  });

  it("MCP end_session takes count_away", async () => {
    const vault = silentVault();
    expect(palee(vault, ["draft"]).status).toBe(0);
    const connected = await connectStdio(vault);
    try {
      const ended = await call(connected.client, "end_session", { count_away: true });
      expect(ended).toMatchObject({ isError: false, doc: { session: { duration_minutes: 240 } } });
      expect(ended.text).toMatch(/Counted .* as study time/);
    } finally {
      await connected.close();
    }
  });
});

describe("countAllAwayUpdate", () => {
  it("removes only the recorded time away from breaks: pauses stay", () => {
    const at = (h: number) => Date.UTC(2026, 7, 14, h);
    const pause = { fromMs: at(9), toMs: at(10) };
    const away = { fromMs: at(11), toMs: at(14) };
    const current = { pausedAt: null, pausedMs: null, breaks: [pause, away], breakMinutes: 240, warnings: [] };
    const change = countAllAwayUpdate(current, [away], () => 0);
    expect(change.counted).toEqual([away]);
    expect(change.countedMinutes).toBe(180);
    expect(change.updates).toMatchObject({ breaks: ["2026-08-14T09:00:00+00:00/2026-08-14T10:00:00+00:00"] });
    expect(change.updates).toMatchObject({ break_minutes: 60, away: [] });
  });
});
