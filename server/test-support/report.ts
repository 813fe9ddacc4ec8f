import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as prettier from "prettier";

/** A Markdown table (Prettier aligns it when the document is written). */
export function formatMarkdownTable(headers: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.map(String).join(" | ")} |`;
  return [line(headers), line(headers.map(() => "---")), ...rows.map(line)].join("\n");
}

export function machineLine(): string {
  const cpu = os.cpus()[0]?.model ?? "unknown CPU";
  const memory = Math.round(os.totalmem() / 2 ** 30);
  return `${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} × ${cpu}, ${memory} GiB, Node ${process.version}`;
}

export async function writeSection(id: string, title: string, body: string): Promise<void> {
  await writeDocSection({
    file: "docs/BENCHMARKS.md",
    header:
      "# Benchmarks\n\nMeasured with `npm run bench:*` on the machine named in each section. Ratios are measured side by side in one run; absolute numbers vary with the machine's load.\n",
    marker: "bench",
    id,
    title,
    body,
  });
}

/**
 * Writes `body` as the section `id` of a Markdown document (between `<!-- marker:id -->` comments),
 * replacing that section's earlier run, or appending it; a new document starts with `header`.
 */
export async function writeDocSection(options: {
  file: string;
  header: string;
  marker: string;
  id: string;
  title: string;
  body: string;
}): Promise<void> {
  const { header, marker, id, title, body } = options;
  const file = path.resolve(options.file);
  const current = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : header;
  const start = `<!-- ${marker}:${id} -->`;
  const end = `<!-- /${marker}:${id} -->`;
  const section = `${start}\n## ${title}\n\n${body.trim()}\n${end}`;
  const pattern = new RegExp(`${start}[\\s\\S]*?${end}`);
  const next = pattern.test(current)
    ? current.replace(pattern, () => section)
    : `${current.trimEnd()}\n\n${section}\n`;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // Formatted as the rest of the repository, so `prettier --check` stays clean after a run.
  const config = (await prettier.resolveConfig(file)) ?? {};
  fs.writeFileSync(file, await prettier.format(next, { ...config, filepath: file }));
}
