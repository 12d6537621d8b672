/**
 * What `palee mcp` reads from its client, one message a line, bounded (issue 35 §2): a line longer than
 * MESSAGE_MAX_BYTES is never handed to the protocol. The SDK's transport would drop its buffer and close,
 * leaving the server deaf; here the line is skipped up to its end, the client gets a JSON-RPC error for it
 * (with its `id` when that stands near the start of the line), and the next message is served as usual.
 */
import { Transform } from "node:stream";
import type { TransformCallback } from "node:stream";

/** The largest request the server reads: 10 MiB. */
export const MESSAGE_MAX_BYTES = 10 * 1024 * 1024;

/** How much of a refused line is kept to find its id. */
const HEAD_BYTES = 512;

/** The JSON-RPC error for a line that was too long: `id` as found at its start, else null. */
export function tooLongAnswer(head: string, max: number): string {
  // The id is read only where it comes before the arguments: never a key inside them.
  const before = head.split(/"params"\s*:/)[0];
  const id = /"id"\s*:\s*("(?:[^"\\]|\\.){0,100}"|-?\d{1,16})\s*[,}]/.exec(before)?.[1] ?? "null";
  const message = `request refused: longer than ${max} bytes; send less (the server goes on serving)`;
  return `${JSON.stringify({ jsonrpc: "2.0", id: JSON.parse(id) as unknown, error: { code: -32600, message } })}\n`;
}

/** Passes whole lines of at most `max` bytes; a longer line is dropped and `refuse` is called with its start. */
export function boundedLines(max: number, refuse: (head: string) => void): Transform {
  let held: Buffer[] = [];
  let size = 0;
  let skipping = false;
  let head = "";
  return new Transform({
    transform(chunk: Buffer, _encoding: string, done: TransformCallback) {
      let rest = chunk;
      while (rest.length > 0) {
        const newline = rest.indexOf(0x0a);
        const part = newline === -1 ? rest : rest.subarray(0, newline);
        rest = newline === -1 ? Buffer.alloc(0) : rest.subarray(newline + 1);
        if (!skipping && size + part.length > max) {
          head = Buffer.concat([...held, part.subarray(0, HEAD_BYTES)]).toString("utf8", 0, HEAD_BYTES);
          skipping = true;
          held = [];
          size = 0;
        }
        if (!skipping) {
          held.push(part);
          size += part.length;
        }
        if (newline === -1) break;
        if (skipping) refuse(head);
        else this.push(Buffer.concat([...held, Buffer.from("\n")]));
        skipping = false;
        held = [];
        size = 0;
      }
      done();
    },
    flush(done: TransformCallback) {
      if (skipping) refuse(head);
      else if (size > 0) this.push(Buffer.concat(held));
      done();
    },
  });
}
