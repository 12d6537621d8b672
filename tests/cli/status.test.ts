/** `palee session status` shows a silence (text and `silence_seconds`, contract §5) and never writes. */
import { ago, cleanupVaults, draftId, makeVault, palee, snapshot, writeDraft, writeHot } from "./support";

afterEach(cleanupVaults);

function silentFor(minutes: number): string {
  const vault = makeVault();
  const id = draftId("0000a11e");
  writeDraft(vault, { id, topic: "T-a", startedAt: ago(minutes + 20), lastCheckpointAt: ago(minutes) });
  writeHot(vault, { activeTopic: "T-a", startedAt: ago(minutes + 20), openDraft: id, device: "test-device" });
  return vault;
}

describe("status and a silent session", () => {
  it("after 3 hours of silence: the text says so and how to end it; JSON has silence_seconds", () => {
    const vault = silentFor(180);
    const before = snapshot(vault, { mtimes: true });
    const text = palee(vault, ["status"]);
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(/^No activity since [^,]+, 3 h ago; "palee session end --at last" ends it at/m);
    const doc = palee(vault, ["status", "--json"]).json() as { open: { silence_seconds: number } };
    expect(doc.open.silence_seconds).toBeGreaterThanOrEqual(180 * 60);
    expect(doc.open.silence_seconds).toBeLessThan(180 * 60 + 60);
    expect(snapshot(vault, { mtimes: true })).toEqual(before);
  });

  it("a session checkpointed a minute ago shows no silence line", () => {
    const vault = silentFor(1);
    expect(palee(vault, ["status"]).stdout).not.toMatch(/No activity/);
    const doc = palee(vault, ["status", "--json"]).json() as { open: { silence_seconds: number } };
    expect(doc.open.silence_seconds).toBeLessThan(120);
  });
});
