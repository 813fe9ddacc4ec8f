import fs from "node:fs";
import path from "node:path";
import { lexer } from "marked";
import { parse as parseYaml } from "yaml";
import type { z } from "zod";

/** A content file that cannot be used; its one-line message names the file and the field. */
export class ContentError extends Error {
  constructor(file: string, problem: string) {
    const shown = path.relative(process.cwd(), file);
    super(`${shown.startsWith("..") ? file : shown}: ${problem}`);
    this.name = "ContentError";
  }
}

/** `topics[2].items[0].answer`. */
function fieldPath(keys: readonly PropertyKey[]): string {
  return keys
    .map((key, i) => (typeof key === "number" ? `[${key}]` : `${i > 0 ? "." : ""}${String(key)}`))
    .join("");
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const where = fieldPath(issue.path);
  if (issue.code === "unrecognized_keys") {
    return `${fieldPath([...issue.path, issue.keys[0] ?? ""])}: unknown key`;
  }
  const problem =
    issue.code !== "invalid_type"
      ? issue.message
      : issue.input === undefined
        ? "missing"
        : `expected ${/^[aeio]/.test(issue.expected) ? "an" : "a"} ${issue.expected}`;
  return where ? `${where}: ${problem}` : problem;
}

/** `value` checked against `schema`; the first problem found stops with a ContentError. */
export function validate<T extends z.ZodType>(
  schema: T,
  file: string,
  value: unknown,
): z.output<T> {
  const parsed = schema.safeParse(value, { reportInput: true });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new ContentError(file, issue ? describeIssue(issue) : "invalid");
}

function yamlOf(file: string, text: string): unknown {
  try {
    return parseYaml(text);
  } catch (error) {
    // The parser's message goes on with a picture of the line: its first line says it all.
    const line = (error as Error).message.split("\n")[0] ?? "";
    throw new ContentError(file, line.replace(/:$/, ""));
  }
}

function readText(file: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch (error) {
    throw new ContentError(file, `cannot be read (${(error as NodeJS.ErrnoException).code})`);
  }
}

export const readYaml = (file: string): unknown => yamlOf(file, readText(file));

const FRONT_MATTER = /^\uFEFF?---\r?\n(?:([\s\S]*?)\r?\n)?---[ \t]*(?:\r?\n|$)/;

/** The YAML between the `---` lines that open a Markdown file, and the Markdown after them. */
export function splitFrontMatter(file: string, source: string): { data: unknown; body: string } {
  const match = FRONT_MATTER.exec(source);
  if (!match) {
    throw new ContentError(
      file,
      'front matter: the file must start with a "---" line, and one must close it',
    );
  }
  // A line in place of the opening "---", so that errors give the file's line numbers.
  return { data: yamlOf(file, `\n${match[1] ?? ""}`), body: source.slice(match[0].length) };
}

export const readFrontMatter = (file: string) => splitFrontMatter(file, readText(file));

export interface Section {
  heading: string;
  paragraphs: string[];
  list?: string[];
}

const plain = (text: string) => text.replace(/\s+/g, " ").trim();

/**
 * A Markdown body of plain paragraphs, `## ` headings and `- ` lists: the paragraphs before the
 * first heading, then one section per heading. Inline Markdown is not rendered: the texts are plain.
 */
export function readSections(file: string, body: string): { intro: string[]; sections: Section[] } {
  const intro: string[] = [];
  const sections: Section[] = [];
  for (const token of lexer(body)) {
    const section = sections.at(-1);
    if (token.type === "space") continue;
    if (token.type === "heading" && token.depth === 2) {
      sections.push({ heading: plain(token.text), paragraphs: [] });
    } else if (token.type === "paragraph") {
      (section?.paragraphs ?? intro).push(plain(token.text));
    } else if (token.type === "list" && !token.ordered && section && !section.list) {
      section.list = (token.items as { text: string }[]).map((item) => plain(item.text));
    } else {
      throw new ContentError(
        file,
        `body: only paragraphs, "## " headings and a "- " list per section are allowed, not: ${plain(token.raw).slice(0, 60)}`,
      );
    }
  }
  return { intro, sections };
}
