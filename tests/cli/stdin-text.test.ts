/** `--summary -` / `--next -` read standard input, bounded in size and in silence (issue 35 §4). */
import { PassThrough } from "node:stream";
import { readStdinText } from "../../src/cli/stdin-text";
import { PaleeError } from "../../src/core/errors";

describe("readStdinText", () => {
  it("reads the text up to end of input; blank is no text", async () => {
    const input = new PassThrough();
    const reading = readStdinText(input, "summary", 1_000);
    input.write("- borrowing\n");
    input.end("- lifetimes\n");
    await expect(reading).resolves.toBe("- borrowing\n- lifetimes\n");
    const blank = new PassThrough();
    const none = readStdinText(blank, "summary", 1_000);
    blank.end("  \n");
    await expect(none).resolves.toBeNull();
  });

  it("gives up on an input that stays open and silent, with one clear refusal", async () => {
    const input = new PassThrough();
    const reading = readStdinText(input, "next", 50);
    input.write("partial");
    const error = await reading.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaleeError);
    expect((error as PaleeError).message).toMatch(/^--next -: standard input did not end within 0\.05 s of silence/);
    expect(input.destroyed).toBe(true);
  });
});
