// Loads HTML pages in headless chromium and reports on them. A separate Node process, because
// playwright-core does not load inside jest's jsdom environment (where the plugin's DOM is rendered).
//
// stdin: {"pages": [{"name", "html", "width", "height"?, "screenshot"?: png path, "bars"?: CSS selector,
//   "clip"?: true to photograph only the viewport (a picture of exactly width × height), not the whole page}]}
// stdout: {"pages": [{"name", "overflow": [...], "cramped": [...], "bars"?: [heights in px]}]}
//   overflow: elements whose box reaches past the viewport's right edge, or that scroll sideways (but for a
//   box marked data-scrolls="x", which scrolls on purpose and clips what it holds);
//   cramped: setting labels (.setting-item-info with text) squeezed under 8em by their controls.
// "within"?: CSS selectors; for every element they match: itself or a descendant wider than its box
//   (scrollWidth > clientWidth), or a descendant drawn outside its box. Reported as "escapes". A box marked
//   data-scrolls="x" scrolls sideways on purpose (the year heatmap): it may be wider inside, and what it holds
//   is clipped by it, so only the box itself is checked.
// "scrolled"?: {"box": CSS selector of a box that scrolls sideways, "keep": CSS selector}: the box is scrolled to
//   each end in turn, and every element "keep" matches must stay in sight: inside the viewport and inside every
//   ancestor box that clips sideways. Reported as "scrolled": {"scrolls": whether the box could scroll, "kept":
//   how many elements "keep" matched, "hidden": ["left end|right end: <element> [l..r] outside <box> [l..r]"]}.
//
// `--where`: prints {"chromium": path or null, "message": why not} and exits; for tests deciding to skip.
import { writeFileSync } from "node:fs";
import { NO_BROWSER_MESSAGE, findChromium, launchChromium } from "./chromium.mjs";

if (process.argv.includes("--where")) {
  const found = findChromium();
  process.stdout.write(JSON.stringify({ chromium: found, message: found ? "" : NO_BROWSER_MESSAGE }));
  process.exit(0);
}

const input = JSON.parse(
  await new Promise((resolve) => {
    let text = "";
    process.stdin.setEncoding("utf8");
    process.stdin.on("data", (chunk) => (text += chunk));
    process.stdin.on("end", () => resolve(text));
  }),
);

/** In the page: scrolls `box` to each end and lists the `keep` elements then out of sight (see "scrolled"). */
function keptInSight({ box, keep }) {
  const scroller = document.querySelector(box);
  if (!scroller) return { scrolls: false, kept: 0, hidden: [`no ${box}`] };
  const scrolls = scroller.scrollWidth > scroller.clientWidth + 1;
  const hidden = [];
  const name = (el) => `${el.tagName.toLowerCase()} "${(el.textContent ?? "").trim().slice(0, 20)}"`;
  for (const [end, left] of [
    ["left end", -1e6],
    ["right end", 1e6],
  ]) {
    scroller.scrollLeft = left;
    for (const el of document.querySelectorAll(keep)) {
      const r = el.getBoundingClientRect();
      const clips = [document.documentElement];
      for (let a = el.parentElement; a; a = a.parentElement)
        if (getComputedStyle(a).overflowX !== "visible") clips.push(a);
      for (const clip of clips) {
        const c =
          clip === document.documentElement ? { left: 0, right: clip.clientWidth } : clip.getBoundingClientRect();
        if (r.left < c.left - 0.5 || r.right > c.right + 0.5) {
          hidden.push(
            `${end}: ${name(el)} [${Math.round(r.left)}..${Math.round(r.right)}] outside ` +
              `${clip.tagName.toLowerCase()} [${Math.round(c.left)}..${Math.round(c.right)}]`,
          );
          break;
        }
      }
    }
  }
  return { scrolls, kept: document.querySelectorAll(keep).length, hidden };
}

const browser = await launchChromium();
const results = [];
try {
  for (const job of input.pages) {
    const page = await browser.newPage({
      viewport: { width: job.width, height: job.height ?? 100 },
      deviceScaleFactor: job.scale ?? 1,
    });
    await page.setContent(job.html, { waitUntil: "load" });
    const overflow = await page.evaluate(() => {
      const width = document.documentElement.clientWidth;
      const found = [];
      for (const el of document.body.querySelectorAll("*")) {
        // What a box marked data-scrolls="x" holds is clipped by it (the year heatmap scrolls on purpose).
        if (el.parentElement?.closest('[data-scrolls="x"]')) continue;
        const box = el.getBoundingClientRect();
        const style = getComputedStyle(el);
        // A text field scrolls its own text by design, as does a box marked to scroll sideways; anything else
        // scrolling sideways hides content.
        const field = el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.getAttribute("data-scrolls") === "x";
        const scrolls =
          !field &&
          el.scrollWidth > el.clientWidth + 1 &&
          style.overflowX !== "visible" &&
          style.overflowX !== "hidden";
        if (box.width > 0 && (box.right > width + 0.5 || box.left < -0.5 || scrolls)) {
          const name =
            el.tagName.toLowerCase() +
            (el.className && typeof el.className === "string" ? `.${el.className.trim().split(/\s+/).join(".")}` : "");
          found.push(
            `${name} [${Math.round(box.left)}..${Math.round(box.right)} of ` +
              `${width}${scrolls ? ", scrolls sideways" : ""}]: ${(el.textContent ?? "").trim().slice(0, 40)}`,
          );
        }
      }
      return found;
    });
    const cramped = await page.$$eval(".setting-item-info", (els) =>
      els
        .filter(
          (el) =>
            (el.textContent ?? "").trim() !== "" &&
            el.getBoundingClientRect().width < 8 * parseFloat(getComputedStyle(el).fontSize),
        )
        .map(
          (el) => `${Math.round(el.getBoundingClientRect().width)}px: ${(el.textContent ?? "").trim().slice(0, 40)}`,
        ),
    );
    const result = { name: job.name, overflow, cramped };
    if (job.within) {
      result.escapes = await page.evaluate((selectors) => {
        const found = [];
        const describe = (el) =>
          el.tagName.toLowerCase() +
          (typeof el.className === "string" && el.className
            ? `.${el.className.trim().split(/\s+/).join(".")}`
            : el.getAttribute("class")
              ? `.${el.getAttribute("class").trim().split(/\s+/).join(".")}`
              : "");
        for (const selector of selectors) {
          for (const root of document.querySelectorAll(selector)) {
            const outer = root.getBoundingClientRect();
            for (const el of [root, ...root.querySelectorAll("*")]) {
              if (el.parentElement?.closest('[data-scrolls="x"]') && root.contains(el.parentElement)) continue;
              const scrolls = el.getAttribute("data-scrolls") === "x";
              const box = el.getBoundingClientRect();
              const text = (el.textContent ?? "").trim().slice(0, 40);
              if (!scrolls && el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1)
                found.push(`${selector}: ${describe(el)} is ${el.scrollWidth}px wide in ${el.clientWidth}px: ${text}`);
              const outside =
                box.left < outer.left - 0.5 ||
                box.right > outer.right + 0.5 ||
                box.top < outer.top - 0.5 ||
                box.bottom > outer.bottom + 0.5;
              if (el !== root && (box.width > 0 || box.height > 0) && outside) {
                found.push(
                  `${selector}: ${describe(el)} [${Math.round(box.left)}..${Math.round(box.right)} x ` +
                    `${Math.round(box.top)}..${Math.round(box.bottom)}] outside ` +
                    `[${Math.round(outer.left)}..${Math.round(outer.right)} x ` +
                    `${Math.round(outer.top)}..${Math.round(outer.bottom)}]: ${text}`,
                );
              }
            }
          }
        }
        return found;
      }, job.within);
    }
    if (job.scrolled) result.scrolled = await page.evaluate(keptInSight, job.scrolled);
    if (job.bars) {
      result.bars = await page.$$eval(job.bars, (els) =>
        els.map((el) => Math.round(el.getBoundingClientRect().height * 100) / 100),
      );
    }
    if (job.screenshot) writeFileSync(job.screenshot, await page.screenshot({ fullPage: !job.clip }));
    results.push(result);
    await page.close();
  }
} finally {
  await browser.close();
}
process.stdout.write(JSON.stringify({ pages: results }));
