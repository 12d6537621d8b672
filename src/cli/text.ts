/** Small text helpers of the CLI's reports (stats, export), and the one cleaner of what reaches a terminal. */

export const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;

// C0 controls but tab and line feed, DEL, and C1 controls (U+0080–U+009F, which some terminals obey too).
// eslint-disable-next-line no-control-regex -- control characters are exactly what this removes
const CONTROL_KEEPING_LINES = /\r(?!\n)|[\u0000-\u0008\u000b-\u000c\u000e-\u001f\u007f-\u009f]/g;
// eslint-disable-next-line no-control-regex -- as above, line breaks and tabs included
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/**
 * Text from notes (summaries, next actions, notes, legacy topics, file names) as it may reach a terminal: every
 * control character shown as "?", so no escape sequence (ANSI colours, clear screen, OSC window titles or
 * clipboard writes) is ever sent raw. Line breaks (\n, \r\n) and tabs are kept: the working memory and a CSV
 * export are multi-line text. The CLI's stdout and stderr pass through it (terminalIo, output.ts).
 */
export const terminalSafe = (text: string): string => text.replace(CONTROL_KEEPING_LINES, "?");

/** terminalSafe for one field of one line (a table cell): line breaks and tabs become "?" too. */
export const printable = (text: string): string => text.replace(CONTROL, "?");

/**
 * A JSON document as printed: indented by two, one line break at the end. JSON.stringify escapes C0 controls
 * but leaves DEL and C1 raw: those are escaped too (\u009b is still U+009B to a JSON reader).
 */
const unicodeEscape = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
/** JSON.stringify indented by two, as jsonText prints it, without the final line break. */
export const jsonPart = (value: unknown): string =>
  JSON.stringify(value, null, 2).replace(/[\u007f-\u009f]/g, unicodeEscape);
export const jsonText = (value: unknown): string => `${jsonPart(value)}\n`;
