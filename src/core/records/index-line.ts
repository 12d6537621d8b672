/**
 * One line of index.md, the grammar in one place: `- [[S-…]] - Topic: T-… (2026-08-14, 45 min)`. Written by
 * renderIndexLine; read back by parseIndexLine, and searched in the text itself (index-text.ts, the CLI's
 * topic check) through the pieces below, so that a change of the line changes every reader.
 */
import type { ConfirmedSession } from "./records";
import { recordedDate } from "../time/index";
import { TOPIC_ID_PATTERN } from "../topics/ids";
import { renderTopic } from "../topics/display";

/** How a line begins (its link's opening) and how its link closes: a link never holds "]]". */
export const LINE_OPEN = "- [[";
export const LINK_CLOSE = "]]";
/** What comes between a line's link and its topic. */
const TOPIC_KEY = " - Topic: ";
/** What comes between a line's topic and its day. */
const AFTER_TOPIC = " (";

/** The link an index line and hot.md give a session: its file name without ".md". */
export function linkOf(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1).replace(/\.md$/, "");
}

/** One index line; the date is the day recorded in started_at (the learner's day, same on every device). */
export function renderIndexLine(session: ConfirmedSession): string {
  const when = `${recordedDate(session.startedAt)}, ${session.durationMinutes} min`;
  const topic = renderTopic(session.topicId);
  return `${LINE_OPEN}${linkOf(session.path)}${LINK_CLOSE}${TOPIC_KEY}${topic}${AFTER_TOPIC}${when})`;
}

/** What an index line says: the note it links, its topic (as renderTopic wrote it), its day and minutes. */
export interface IndexLine {
  readonly link: string;
  readonly topic: string;
  readonly date: string;
  readonly minutes: number;
}

const LINE = /^- \[\[([^\]]+)\]\] - Topic: (.*) \((\d{4}-\d{2}-\d{2}), (\d+) min\)$/;

/** An index line read back, or null when it is not one renderIndexLine could have written. */
export function parseIndexLine(line: string): IndexLine | null {
  const m = LINE.exec(line);
  return m ? { link: m[1], topic: m[2], date: m[3], minutes: Number(m[4]) } : null;
}

/** What follows a line's link (its "]]") when the line is of the topic `rendered` (as renderTopic writes it). */
export function topicTail(rendered: string): string {
  return `${LINK_CLOSE}${TOPIC_KEY}${rendered}${AFTER_TOPIC}`;
}

/** Whether an index.md text has a line of the topic `topicId` (a quick search; its lines are not checked). */
export function indexNamesTopic(text: string, topicId: string): boolean {
  return text.includes(`${TOPIC_KEY}${renderTopic(topicId)}${AFTER_TOPIC}`);
}

/** `text` matched literally in a regular expression. */
const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The distinct topic IDs index.md's lines name whose length is within `within` of `length`: the only ones that
 * can be close to a new ID (closeTopicId: case or an edit distance of at most 2). Found by one regular expression
 * run by the engine over the text (a loop of searches in script took 2.5 times as long in a fresh process at
 * 30 000 lines): a line's topic is what stands between TOPIC_KEY and the first AFTER_TOPIC, which no ID holds, so
 * matching an ID of those lengths followed by AFTER_TOPIC finds exactly the topics the lines name.
 */
export function indexTopicsNear(text: string, length: number, within: number): Set<string> {
  const found = new Set<string>();
  // TOPIC_ID_PATTERN's form ("T-", a letter or digit, up to 120 more) at the lengths asked; each found checked by it.
  const least = Math.max(length - within, 3) - 3;
  const most = Math.min(length + within, 123) - 3;
  if (most < least) return found;
  const id = `T-[A-Za-z0-9][A-Za-z0-9._-]{${least},${most}}`;
  const topic = new RegExp(`${escaped(TOPIC_KEY)}(${id})${escaped(AFTER_TOPIC)}`, "g");
  for (let m = topic.exec(text); m !== null; m = topic.exec(text)) if (TOPIC_ID_PATTERN.test(m[1])) found.add(m[1]);
  return found;
}
