/** Topics by name in the plugin (contract §5 version 4): the status bar shows the topic note's name. */
import { topicLabel } from "../../src/core/topics/display";

describe("topicLabel", () => {
  it.each([
    ["[[Topics/Rust ownership]]", "Rust ownership"],
    ["[[Rust ownership|ownership]]", "Rust ownership"],
    ["[[Topics/Rust ownership.md#Moves]]", "Rust ownership"],
    [null, "T-rust-ownership"],
    ["not a link", "T-rust-ownership"],
    ["[[]]", "T-rust-ownership"],
  ])("%j → %s", (note, label) => {
    expect(topicLabel("T-rust-ownership", note)).toBe(label);
  });
});
