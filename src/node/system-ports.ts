import { webcrypto } from "node:crypto";
import { hostname } from "node:os";
import type { Clock, RandomSource } from "../core/ports";

export const systemClock: Clock = {
  now: () => Date.now(),
  offsetMinutes: (at) => -new Date(at).getTimezoneOffset(),
};

export const systemRandom: RandomSource = {
  bytes: (count) => webcrypto.getRandomValues(new Uint8Array(count)),
};

/** The CLI's device name: $PALEE_DEVICE, else the host name (written into drafts and hot.md). */
export function deviceName(env: NodeJS.ProcessEnv): string {
  const fromEnv = env.PALEE_DEVICE?.trim();
  return fromEnv ? fromEnv : hostname() || "unknown-device";
}
