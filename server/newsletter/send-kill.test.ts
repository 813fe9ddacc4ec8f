import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { simpleParser } from "mailparser";
import { eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "../db/client";
import { newsletterDeliveries, newsletterIssues, newsletterSubscribers } from "../db/schema";
import { testDatabases } from "../db/test-databases";
import { upsertArticle } from "../news/repository";
import { SEND_CONCURRENCY } from "./send";
import { startTestSmtp } from "../test-support/smtp";

/**
 * A digest run killed mid-send (SIGKILL, a real `news newsletter send` process) and run again:
 * every reader gets the issue, nobody twice. The copy of a message the killed process had handed
 * over but not yet recorded goes again with the same Message-ID (SMTP cannot say it arrived), so
 * at most SEND_CONCURRENCY messages arrive twice, each the same message.
 */

const READERS = 400;
const created: string[] = [];
afterAll(() => created.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

function send(env: Record<string, string>) {
  const child = spawn(process.execPath, ["--import", "tsx", "cli/news.ts", "newsletter", "send"], {
    env: { PATH: process.env.PATH ?? "", LOG_LEVEL: "silent", ...env },
  });
  let stdout = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  return { child, exited, output: () => stdout };
}

async function seed(handle: DatabaseHandle) {
  await handle.migrate();
  for (let i = 0; i < 6; i++) {
    await upsertArticle(handle.db, {
      id: `story-${i}`,
      category: i % 2 ? "business" : "local-news",
      link: `https://feeds.example.org/${i}`,
      title: `Story ${i}`,
      excerpt: "An excerpt.",
      content: "<p>Body</p>",
      image: null,
      author: "Staff",
      publishedAt: new Date(Date.now() - i * 60_000),
    });
  }
  await handle.db.insert(newsletterSubscribers).values(
    Array.from({ length: READERS }, (_, i) => ({
      email: `reader${i}@example.com`,
      status: "confirmed",
      confirmedAt: new Date(),
    })),
  );
}

describe.each(testDatabases())("a digest run killed mid-send on $name", (database) => {
  it("resumes without skipping anyone or sending anyone a second, different message", async () => {
    const opened = await database.open();
    const url = opened.url;
    let env: Record<string, string>;
    let reopen: () => Promise<DatabaseHandle>;
    if (url) {
      env = { DATABASE_URL: url };
      reopen = async () => opened;
      await seed(opened);
    } else {
      // The embedded database belongs to one process: the test lets go of it while the sender runs.
      await opened.dispose();
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "news-kill-"));
      created.push(dataDir);
      const handle = await openDatabase({ kind: "pglite", dataDir }, { owner: "the kill test" });
      await seed(handle);
      await handle.close();
      env = { DATA_DIR: dataDir };
      reopen = () => openDatabase({ kind: "pglite", dataDir }, { owner: "the kill test" });
    }
    // A server that takes a few milliseconds per message, so the kill lands mid-run.
    const smtp = await startTestSmtp({ delayMs: 8 });
    Object.assign(env, {
      SMTP_URL: smtp.url,
      SITE_URL: "https://news.example.com",
      NEWSLETTER_FROM: "news@example.com",
    });
    try {
      const first = send(env);
      await smtp.received(READERS / 4, 60_000);
      first.child.kill("SIGKILL");
      expect((await first.exited).signal).toBe("SIGKILL");
      const beforeResume = smtp.count();
      expect(beforeResume).toBeLessThan(READERS);

      const started = Date.now();
      const second = send(env);
      const { code } = await second.exited;
      expect(code, second.output()).toBe(0);
      expect(second.output()).toMatch(
        /^Resumed issue \d+ to SMTP server smtp:\/\/127\.0\.0\.1:\d+: /,
      );
      console.log(
        `${database.name}: killed after ${beforeResume} of ${READERS}; resumed in ${Date.now() - started} ms; ` +
          `${smtp.count() - READERS} message(s) handed over twice`,
      );

      const messages = await Promise.all(smtp.raw.map((raw) => simpleParser(raw)));
      const byReader = new Map<string, Set<string>>();
      for (const message of messages) {
        const to = message.to && !Array.isArray(message.to) ? message.to.text : "";
        const ids = byReader.get(to) ?? new Set<string>();
        ids.add(message.messageId ?? "");
        byReader.set(to, ids);
      }
      // Nobody skipped: every reader has the issue.
      expect([...byReader.keys()].sort()).toEqual(
        Array.from({ length: READERS }, (_, i) => `reader${i}@example.com`).sort(),
      );
      // Nobody sent two different messages: one Message-ID each.
      expect([...byReader.values()].filter((ids) => ids.size !== 1)).toEqual([]);
      // Raw copies beyond one each: only what was in flight when the process was killed.
      expect(messages.length - READERS).toBeLessThanOrEqual(SEND_CONCURRENCY);

      const db = await reopen();
      try {
        const statuses = await db.db
          .select({ status: newsletterDeliveries.status, n: sql<number>`count(*)::int` })
          .from(newsletterDeliveries)
          .groupBy(newsletterDeliveries.status);
        expect(statuses).toEqual([{ status: "sent", n: READERS }]);
        const [issue] = await db.db.select().from(newsletterIssues);
        expect(issue?.completedAt).toBeInstanceOf(Date);
        const retried = await db.db
          .select({ n: sql<number>`count(*)::int` })
          .from(newsletterDeliveries)
          .where(eq(newsletterDeliveries.attempts, 2));
        // The first run had claimed a batch it never finished: those went in the second run.
        expect(retried[0]?.n).toBeGreaterThan(0);
      } finally {
        if (!url) await db.close();
      }
    } finally {
      await smtp.close();
      if (url) await opened.dispose();
    }
  }, 180_000);
});
