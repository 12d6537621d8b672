/**
 * The topic picker's lines for what was typed (topicSuggestions): the core's matcher first (the topic a link
 * or `--topic` would take, aliases included), then the fuzzy search, then a new topic ID.
 */
import type { SearchResult } from "obsidian";
import type { TopicChoice } from "../../src/plugin/ui/topic-picker";
import { topicSuggestions } from "../../src/plugin/ui/topic-picker";

const RUST: TopicChoice = {
  kind: "topic-note",
  topicId: "T-rust-ownership",
  notePath: "Topics/Rust ownership.md",
  noteName: "Rust ownership",
  aliases: ["Borrowing"],
};
const LIFETIMES: TopicChoice = {
  kind: "topic-note",
  topicId: "T-rust-lifetimes",
  notePath: "Topics/Rust lifetimes.md",
  noteName: "Rust lifetimes",
};
const PAST: TopicChoice = { kind: "past-topic", topicId: "T-borrowck" };
const CHOICES = [LIFETIMES, PAST, RUST];

/** A fuzzy search that matches a text holding the query, scoring every match alike. */
const contains =
  (query: string) =>
  (text: string): SearchResult | null =>
    text.toLowerCase().includes(query.trim().toLowerCase()) ? { score: 0, matches: [] } : null;

const ids = (choices: TopicChoice[]) => choices.map((c) => ("topicId" in c ? c.topicId : c.kind));

describe("topicSuggestions", () => {
  it("lists every choice for an empty query", () => {
    expect(topicSuggestions(CHOICES, " ", contains(" "))).toEqual(CHOICES);
  });

  it("puts the topic a note's alias names first, as --topic and a link would take it", () => {
    expect(ids(topicSuggestions(CHOICES, "borrowing", contains("borrowing")))).toEqual([
      "T-rust-ownership",
      "T-borrowing",
    ]);
  });

  it("finds a note by its alias even where the fuzzy search would not", () => {
    const never = (): SearchResult | null => null;
    expect(ids(topicSuggestions(CHOICES, "Borrowing", never))).toEqual(["T-rust-ownership", "T-Borrowing"]);
  });

  it("puts every topic an ambiguous part names first, then the others the fuzzy search finds", () => {
    const got = ids(topicSuggestions(CHOICES, "rust", contains("rust")));
    expect(got.slice(0, 2).sort()).toEqual(["T-rust-lifetimes", "T-rust-ownership"]);
    expect(got).toHaveLength(3); // and the new topic T-rust
  });

  it("offers no new topic for an ID a choice has", () => {
    expect(ids(topicSuggestions(CHOICES, "T-borrowck", contains("T-borrowck")))).toEqual(["T-borrowck"]);
  });
});
