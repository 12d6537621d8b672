/**
 * The plugin's working memory is the memory of the topic being studied (contract §2 hot.md, version 3; issue
 * 19 item 1): starting a topic from the picker writes that topic's memory into hot.md, with its last next
 * action carried forward, and "Copy working memory" copies a text that names its topic.
 */
import { confirmedText } from "../support/builders";
import { HOT, S, bodyAt, startOn } from "./support/session-files";
import { harness, installPluginTestEnvironment, lastNotice, loadPlugin } from "./support/plugin-harness";

installPluginTestEnvironment();

const RUST_OLD = "S-20260810T090000-0001";
const RUST_NEW = "S-20260811T090000-0002";
const SQL = "S-20260812T090000-0003";

function note(id: string, topic: string, day: string, sections: { summary?: string; next?: string }): string {
  return confirmedText(
    {
      session_id: id,
      topic_id: topic,
      started_at: `2026-08-${day}T09:00:00+00:00`,
      ended_at: `2026-08-${day}T09:30:00+00:00`,
      duration_minutes: 30,
    },
    sections,
  );
}

describe("working memory in the plugin", () => {
  let copied: string[];
  beforeEach(() => {
    copied = [];
    Object.defineProperty(navigator, "clipboard", {
      configurable: true,
      value: { writeText: (text: string) => Promise.resolve(void copied.push(text)) },
    });
  });

  it("starting a topic shows its memory, next action carried, and the copy names the topic", async () => {
    const h = harness();
    h.write(S(RUST_OLD), note(RUST_OLD, "T-rust-ownership", "10", { summary: "Borrowing", next: "Read chapter 5" }));
    h.write(S(RUST_NEW), note(RUST_NEW, "T-rust-ownership", "11", { summary: "Lifetimes" }));
    h.write(S(SQL), note(SQL, "T-sql", "12", { summary: "Joins", next: "Practise LEFT JOIN" }));
    const p = await loadPlugin(h, { device: "laptop" });
    await startOn(p, "T-rust-ownership");
    const body = bodyAt(h, HOT);
    expect(body).toMatch(/^Topic: T-rust-ownership, newest session 2026-08-11\n/);
    expect(body).toContain("Lifetimes");
    expect(body).toContain("## Next action (from 2026-08-10)\n\nRead chapter 5\n");
    expect(body).not.toMatch(/Joins|LEFT JOIN/);

    expect(await p.run("copy-working-memory")).toBe(true);
    expect(copied).toEqual([body.trim()]);
    expect(copied[0]).toMatch(/^Topic: T-rust-ownership,/);
    expect(lastNotice()).toBe("Working memory copied to the clipboard.");
  });
});
