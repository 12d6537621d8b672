/** MCP answers name the tool's arguments, not the CLI's flags (contract §5 version 4). */
import { inToolWords } from "../../src/cli/mcp/words";

const TOOLS: Record<string, string> = { log: "log_session", end: "end_session", draft: "checkpoint" };
const words = (text: string) => inToolWords(text, (action) => TOOLS[action]);

describe("inToolWords", () => {
  it.each([
    [
      "the session has been silent 3 h: say when it ended with --at now, --at last or --at HH:MM",
      "the session has been silent 3 h: say when it ended with at=now, at=last or at=HH:MM",
    ],
    [
      "recorded with: palee session log --topic T-x --from HH:MM --to HH:MM",
      "recorded with: the log_session tool with topic=T-x from=HH:MM to=HH:MM",
    ],
    ["give --from and --to, or --minutes, not both", "give `from` and `to`, or `minutes`, not both"],
    ['--minutes "abc" is not a whole number', 'minutes="abc" is not a whole number'],
    ['or checkpoint it ("palee session draft --topic T-a")', "or checkpoint it (the checkpoint tool with topic=T-a)"],
    ['drafts wait ("palee session start -i")', 'drafts wait ("palee session start -i")'],
    ["--next must be short; --if-none ignore", "`next_action` must be short; if_none=ignore"],
    [
      'end it: palee session end --agent a:1 --summary "<what>" --if-none ignore',
      'end it: the end_session tool with agent=a:1 summary="<what>" if_none=ignore',
    ],
    ["a summary with -- inside and x--y", "a summary with -- inside and x--y"],
  ])("%s", (text, expected) => {
    expect(words(text)).toBe(expected);
  });
});
