import type * as readline from "node:readline";

/** Reads answers line by line from a stream (a terminal or a pipe); null at end of input. */
export class LineReader {
  private readonly lines: string[] = [];
  private readonly waiting: Array<(line: string | null) => void> = [];
  private ended = false;
  private readonly rl: readline.Interface;

  constructor(input: NodeJS.ReadableStream) {
    // Required here, not imported: only a call that asks loads node:readline (~0.8 ms every other call saves).
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only by the calls that ask
    const { createInterface } = require("node:readline") as typeof readline;
    this.rl = createInterface({ input, terminal: false });
    this.rl.on("line", (line) => {
      const waiter = this.waiting.shift();
      if (waiter) waiter(line);
      else this.lines.push(line);
    });
    this.rl.on("close", () => {
      this.ended = true;
      for (const waiter of this.waiting.splice(0)) waiter(null);
    });
  }

  next(): Promise<string | null> {
    const line = this.lines.shift();
    if (line !== undefined) return Promise.resolve(line);
    if (this.ended) return Promise.resolve(null);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  close(): void {
    this.rl.close();
  }
}
