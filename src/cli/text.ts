/** Small text helpers of the CLI's reports (stats, export). */

export const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;

/** A JSON document as printed: indented by two, one line break at the end. */
export const jsonText = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/** Control characters in recorded text would move the terminal's cursor: shown as "?". */
// eslint-disable-next-line no-control-regex -- control characters are exactly what this removes
export const printable = (text: string): string => text.replace(/[\u0000-\u001f\u007f-\u009f]/g, "?");
