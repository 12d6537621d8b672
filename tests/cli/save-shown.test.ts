/**
 * The -i prompts of start and recover show what Save would record before the learner chooses (issue 35 §4):
 * start and end, the minutes studied, and the time away and pauses left out — the same figures Save writes.
 */
import { DEVICE, ago, cleanupVaults, draftId, draftText, makeVault, palee, readRecord, writeFile } from "./support";

afterEach(cleanupVaults);

const ID = draftId("5a7e0001");

/**
 * An interrupted draft (no open session): started 4 h ago, last checkpoint 1 h ago, with 40 min away
 * (3 h 20 min – 2 h 40 min ago) and a 10 min pause (2 h – 1 h 50 min ago): Save records 3 h, 2 h 10 min studied.
 */
function interrupted(): string {
  const vault = makeVault();
  const away = `${ago(200)}/${ago(160)}`;
  const pause = `${ago(120)}/${ago(110)}`;
  const extra = `breaks:\n  - "${away}"\n  - "${pause}"\nbreak_minutes: 50\naway:\n  - "${away}"\n`;
  const text = draftText({ id: ID, topic: "T-a", startedAt: ago(240), lastCheckpointAt: ago(60), device: DEVICE });
  writeFile(vault, `palee/sessions/${ID}.md`, text.replace(/\n---\n$/, `\n${extra}---\n`));
  return vault;
}

const hhmm = (minutesAgo: number): string => ago(minutesAgo).slice(11, 16);

describe.each([
  ["start -i", ["start", "--topic", "T-b", "-i"]],
  ["recover -i", ["recover", "-i"]],
])("%s", (_name, args) => {
  it("shows what Save would record before asking, and Save records just that", () => {
    const vault = interrupted();
    const run = palee(vault, args, { input: "s\n" });
    const line =
      `Save would record ${hhmm(240)}–${hhmm(60)} (interrupted): 2 h 10 min studied; ` +
      "40 min away and 10 min of pauses not counted";
    expect(run.stderr).toContain(line);
    expect(run.stderr.indexOf(line)).toBeLessThan(run.stderr.indexOf("[R]esume [S]ave [D]iscard [I]gnore?"));
    const saved = palee(vault, ["list", "--json"]).json().confirmed as Array<{ path: string }>;
    expect(saved).toHaveLength(1);
    const record = readRecord(vault, saved[0].path).fields;
    expect(record).toMatchObject({ duration_minutes: 130, break_minutes: 50, outcome: "interrupted" });
  });
});

it("a draft with no breaks says so", () => {
  const vault = makeVault();
  const text = draftText({ id: ID, topic: "T-a", startedAt: ago(90), lastCheckpointAt: ago(45), device: DEVICE });
  writeFile(vault, `palee/sessions/${ID}.md`, text);
  const run = palee(vault, ["recover", "-i"], { input: "i\n" });
  expect(run.stderr).toContain(`Save would record ${hhmm(90)}–${hhmm(45)} (interrupted): 45 min studied; no time away`);
});
