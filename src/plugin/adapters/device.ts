import type { App } from "obsidian";
import type { RandomSource } from "../../core/ports";
import { hex } from "../../core/records/ids";

/** Kept per device in the app's local storage (scoped to this vault), never in the synced data.json. */
export const DEVICE_STORAGE_KEY = "palee-sessions-device";

const MAX_DEVICE_NAME = 60;

/** A device name as typed in settings: trimmed, one line, not empty; null when unusable. */
export function cleanDeviceName(raw: unknown): string | null {
  if (typeof raw !== "string") return null;
  const name = raw.replace(/\p{Cc}/gu, " ").trim();
  return name === "" || name.length > MAX_DEVICE_NAME ? null : name;
}

/** This device's name, generated once ("desktop-3fa2", "mobile-91c0") and kept in local storage. */
export function loadDeviceName(app: App, isMobile: boolean, random: RandomSource): string {
  const stored = cleanDeviceName(app.loadLocalStorage(DEVICE_STORAGE_KEY));
  if (stored) return stored;
  const generated = `${isMobile ? "mobile" : "desktop"}-${hex(random, 2)}`;
  app.saveLocalStorage(DEVICE_STORAGE_KEY, generated);
  return generated;
}

export function saveDeviceName(app: App, name: string): void {
  app.saveLocalStorage(DEVICE_STORAGE_KEY, name);
}
