import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Window } from "happy-dom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NOT_FOUND_ROUTES, OK_ROUTES } from "../../e2e/routes";
import { openDatabase } from "../db/client";
import { upsertArticle } from "../news/repository";
import { freePort } from "./free-port";
import { ensureBuilt } from "./test-build";
import { sampleSiteEnv } from "../../scripts/sample-site.js";

/**
 * What readers and search engines read on every page, as the production web process serves it:
 * the visible text, the head's tags and the JSON-LD, kept in files beside this test. The files were
 * written from the build of the site before its editorial texts left TypeScript for content files,
 * so a page whose text changes fails here. PAGES_BUILD_ROOT names another checkout whose build to
 * read (its own content); `vitest -u` rewrites the files.
 */

const root = path.resolve(process.env.PAGES_BUILD_ROOT ?? ".");
const ARTICLE_ID = "harbor-budget-passes-32d156f74d2cd5db";
const PATHS = [
  ...OK_ROUTES,
  ...NOT_FOUND_ROUTES,
  `/article/${ARTICLE_ID}`,
  "/rss.xml",
  "/manifest.webmanifest",
];

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "news-page-text-"));
const port = await freePort();
let site: ChildProcess | undefined;

beforeAll(async () => {
  ensureBuilt(root);
  const database = await openDatabase({ kind: "pglite", dataDir }, { owner: "the test" });
  await database.migrate();
  await upsertArticle(database.db, {
    id: ARTICLE_ID,
    category: "local-news",
    link: "https://sample.example.org/harbor-budget",
    title: "Harbor budget passes",
    excerpt: "The port's budget passed.",
    content: "<p>The port's budget passed on Tuesday.</p>",
    author: "Staff Writer",
    publishedAt: new Date(Date.UTC(2026, 10, 20)),
  });
  await database.close();
  // The site's own default address, which the recorded canonical and social URLs name.
  const env = sampleSiteEnv(port, dataDir, {
    SITE_URL: "http://localhost:3000",
    PAGE_CACHE_MB: "0",
    LOG_LEVEL: "info",
  });
  const started = spawn(process.execPath, ["build/web/main.js"], { cwd: root, env });
  site = started;
  let output = "";
  await new Promise<void>((resolve, reject) => {
    started.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('"msg":"listening"')) resolve();
    });
    started.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    started.on("exit", (code) => reject(new Error(`site exited with ${code}:\n${output}`)));
  });
}, 120_000);

afterAll(() => {
  if (site?.exitCode === null) site.kill("SIGKILL");
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const collapse = (text: string) => text.replace(/\s+/g, " ").trim();

/** The page as its readers and crawlers get it, one part per line; the year of the © line varies. */
function pageText(html: string): string {
  const window = new Window({
    settings: { disableJavaScriptEvaluation: true, disableJavaScriptFileLoading: true },
  });
  const { document } = window;
  document.write(html);
  const head = [...document.head.querySelectorAll("title, meta, link")].flatMap((node) => {
    if (node.tagName === "TITLE") return [`title: ${collapse(node.textContent ?? "")}`];
    const key = node.getAttribute("name") ?? node.getAttribute("property");
    if (node.tagName === "META" && key) return [`meta ${key}: ${node.getAttribute("content")}`];
    const rel = node.getAttribute("rel");
    if (rel === "canonical" || rel === "alternate") {
      return [`link ${rel}: ${node.getAttribute("href")} ${node.getAttribute("title") ?? ""}`];
    }
    return [];
  });
  const jsonLd = [...document.querySelectorAll('script[type="application/ld+json"]')].map(
    (node) => `json-ld: ${JSON.stringify(JSON.parse(node.textContent ?? "null"), null, 2)}`,
  );
  for (const node of document.body.querySelectorAll("script, style")) node.remove();
  const body = collapse(document.body.textContent ?? "").replace(/© \d{4}/g, "© {year}");
  void window.happyDOM.close();
  return [...head, ...jsonLd, `body: ${body}`, ""].join("\n");
}

const fileName = (address: string) =>
  address === "/" ? "home" : address.slice(1).replace(/[^a-z0-9.]+/gi, "-");

describe("the text of every page", () => {
  it.each(PATHS)("%s", async (address) => {
    const response = await fetch(`http://127.0.0.1:${port}${address}`);
    const body = await response.text();
    const type = response.headers.get("content-type") ?? "";
    const text = type.startsWith("text/html") ? pageText(body) : `${body}\n`;
    await expect(`status: ${response.status}\n${text}`).toMatchFileSnapshot(
      `__snapshots__/page-text/${fileName(address)}.txt`,
    );
  });
});
