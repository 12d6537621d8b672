// A per-process fake clock for tests that spawn the CLI: loaded with NODE_OPTIONS="--require <this file>", it
// moves Date (Date.now() and new Date()) by PALEE_TEST_CLOCK_SHIFT_MS milliseconds, as an NTP step or a VM
// resume would. Only Date: file times come from the kernel, as they do on a machine whose clock is off. The CLI
// itself has no hook for this: the test brings the clock, the code under test reads Date as always.
"use strict";
const shift = Number(process.env.PALEE_TEST_CLOCK_SHIFT_MS || "0");
if (Number.isFinite(shift) && shift !== 0) {
  const RealDate = Date;
  const now = () => RealDate.now() + shift;
  class ShiftedDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(now());
      else super(...args);
    }
    static now() {
      return now();
    }
  }
  globalThis.Date = ShiftedDate;
}
