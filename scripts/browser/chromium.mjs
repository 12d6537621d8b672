// The real browser for the screenshots and the browser test: Debian's chromium package, driven by
// playwright-core. Nothing here downloads a browser; without one installed, `findChromium()` is null.
import { existsSync } from "node:fs";

/** Where Debian (`apt-get install chromium`) puts it; PALEE_CHROMIUM, when set, is the only place looked at. */
export const CHROMIUM_CANDIDATES = process.env.PALEE_CHROMIUM
  ? [process.env.PALEE_CHROMIUM]
  : ["/usr/bin/chromium", "/usr/bin/chromium-browser"];

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** The path of an installed chromium, or null. */
export function findChromium() {
  return CHROMIUM_CANDIDATES.find((path) => existsSync(path)) ?? null;
}

export const NO_BROWSER_MESSAGE =
  "No chromium found (looked at " +
  CHROMIUM_CANDIDATES.join(", ") +
  "): browser checks skipped. Install it with `sudo apt-get install -y chromium` " +
  "(Debian/Ubuntu) or set PALEE_CHROMIUM.";

export async function launchChromium() {
  const executablePath = findChromium();
  if (!executablePath) throw new Error(NO_BROWSER_MESSAGE);
  const { chromium } = await import("playwright-core");
  return chromium.launch({ executablePath, args: CHROMIUM_ARGS });
}
