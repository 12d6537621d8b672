import type { Clock, RandomSource } from "../../core/ports";

/** The wall clock: elapsed time is always computed from recorded instants, never by counting ticks. */
export const browserClock: Clock = {
  now: () => Date.now(),
  offsetMinutes: (at) => -new Date(at).getTimezoneOffset(),
};

/** Web Crypto, available in Obsidian on desktop and mobile (no Node crypto in main.js). */
export const browserRandom: RandomSource = {
  bytes: (count) => window.crypto.getRandomValues(new Uint8Array(count)),
};
