/** How many code units a piece of a long text has at most when it is converted to bytes. */
export const PIECE_LENGTH = 64 * 1024;
/** The pieces a long text is written in (NodeStore): fewer, each write being a thread-pool round trip. */
export const WRITE_PIECE_LENGTH = 256 * 1024;

/**
 * `text` in pieces of at most `length` (≥ 2) code units that never cut a surrogate pair, so that converted one by
 * one to UTF-8 they give exactly the bytes of the whole. A long text converted at once (index.md at 30 000
 * sessions: 2.3 MB, hashed twice and written once by an end) is a transient buffer of its size, which the
 * allocator then keeps from the system: a call's peak memory (docs/performance.md "The listing begun early").
 */
export function* pieces(text: string, length = PIECE_LENGTH): Generator<string> {
  let at = 0;
  do {
    let end = Math.min(at + length, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1; // a high surrogate: keep its pair whole
    yield text.slice(at, end); // an empty text is one empty piece
    at = end;
  } while (at < text.length);
}
