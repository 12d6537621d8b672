/** "Copy tutor brief" (contract §4b context in the plugin): the active topic's brief on the clipboard, or a notice. */
import { confirmedText } from "../support/builders";
import { harness, installPluginTestEnvironment, lastNotice, loadPlugin } from "./support/plugin-harness";
import { startOn } from "./support/session-files";

installPluginTestEnvironment();

const writeText = jest.fn<Promise<void>, [string]>(() => Promise.resolve());

beforeEach(() => {
  writeText.mockClear();
  Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
});

function note(id: string, topic: string, day: string, summary: string, next: string): [string, string] {
  const fields = {
    session_id: id,
    topic_id: topic,
    started_at: `${day}T10:00:00+00:00`,
    ended_at: `${day}T10:30:00+00:00`,
    duration_minutes: 30,
  };
  return [`palee/sessions/${id}.md`, confirmedText(fields, { summary, next })];
}

describe("copy-tutor-brief", () => {
  it("copies the open topic's brief, with its summaries and next action and no other topic's text", async () => {
    const h = harness({
      files: Object.fromEntries([
        note("S-20260812T100000-aaaa", "T-rust-ownership", "2026-08-12", "Ownership moves", "Exercise 4.1"),
        note("S-20260813T100000-bbbb", "T-sql", "2026-08-13", "SQL joins", "Left joins"),
      ]),
    });
    const p = await loadPlugin(h, { device: "laptop" });
    await startOn(p, "T-rust-ownership");
    expect(await p.run("copy-tutor-brief")).toBe(true);
    expect(writeText).toHaveBeenCalledTimes(1);
    const text = writeText.mock.calls[0][0];
    expect(text).toMatch(/^# Tutor brief: T-rust-ownership/);
    expect(text).toContain("## Open session");
    expect(text).toContain("## Next action\n\nExercise 4.1");
    expect(text).toContain("Ownership moves");
    expect(text).not.toMatch(/SQL|Left joins/);
    expect(lastNotice()).toBe("Tutor brief of T-rust-ownership copied to the clipboard.");
  });

  it("reads in full only the notes the brief needs: the topic's newest, until the words are full", async () => {
    const files: Array<[string, string]> = [];
    for (let day = 1; day <= 28; day++) {
      const d = `2026-07-${String(day).padStart(2, "0")}`;
      const id = `S-202607${String(day).padStart(2, "0")}T100000-${String(day).padStart(4, "0")}`;
      files.push(
        note(id, day % 2 === 0 ? "T-rust" : "T-sql", d, `Summary ${day} ${"word ".repeat(60)}`, `Next ${day}`),
      );
    }
    const h = harness({ files: Object.fromEntries(files) });
    const p = await loadPlugin(h, { device: "laptop" });
    h.catchUpCache();
    h.resetLogs();
    await p.run("copy-tutor-brief");
    const text = writeText.mock.calls[0][0];
    expect(text).toMatch(/^# Tutor brief: T-rust\n/);
    expect(text).toContain("14 sessions, 7 h studied, from 2026-07-02 to 2026-07-28.");
    const read = h.reads.paths().filter((path) => /\/S-[^/]+\.md$/.test(path));
    // 400 words hold about six 64-word summaries: those notes are read, no T-sql note and no older T-rust one.
    expect(read.length).toBeGreaterThan(0);
    expect(read.length).toBeLessThanOrEqual(8);
    expect(read.every((path) => Number(/S-202607(\d\d)/.exec(path)?.[1]) % 2 === 0)).toBe(true);
  });

  it("says so when there is nothing to brief, and leaves the clipboard alone", async () => {
    const p = await loadPlugin(harness(), { device: "laptop" });
    await p.run("copy-tutor-brief");
    expect(writeText).not.toHaveBeenCalled();
    expect(lastNotice()).toBe("There is no topic to brief yet: start a session first.");
  });
});
