/**
 * A session with notes but no summary (issue 35 §4): hot.md and the tutor brief give its notes, not "No summary
 * recorded", also when it carries a next action.
 */
import { harness } from "../support/fakes";
import { HOT } from "../support/inspect";

describe("notes without a summary", () => {
  it("hot.md and the brief give the notes", async () => {
    const { core, store, clock } = harness();
    await core.start({ topic: "T-rust" });
    await core.checkpoint({ notes: "borrowing: one &mut at a time" });
    clock.advance(20);
    await core.end({ nextAction: "exercises 4.1" });
    const hot = store.files.get(HOT) ?? "";
    expect(hot).toContain("## Notes");
    expect(hot).toContain("borrowing: one &mut at a time");
    expect(hot).toContain("exercises 4.1");
    const brief = await core.brief({ topic: "T-rust" });
    expect(brief.text).toContain("borrowing: one &mut at a time");
    expect(brief.text).not.toContain("No summary recorded");
  });
});
