import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../config";
import { reportSkippedPostgres, testDatabases } from "../db/test-databases";
import { ReadCache, readCacheFor } from "./read-cache";
import { articleById, latestArticles, upsertArticle } from "./repository";
import { homeLists } from "./home-lists";

reportSkippedPostgres();

const MB = 1024 * 1024;

/** A read that counts how often it ran and answers what it is told to. */
function counted<T>(answer: () => T | Promise<T>) {
  const read = async () => {
    read.calls++;
    return answer();
  };
  read.calls = 0;
  return read;
}

/** A promise the test settles itself. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe("ReadCache", () => {
  it("answers a key read before from memory, and reads again once emptied", async () => {
    const cache = new ReadCache(MB, 60_000);
    const read = counted(() => ["a", "b"]);
    expect(await cache.read("k", read)).toEqual(["a", "b"]);
    expect(await cache.read("k", read)).toEqual(["a", "b"]);
    expect(read.calls).toBe(1);
    expect(await cache.read("other", read)).toEqual(["a", "b"]);
    expect(read.calls).toBe(2);
    cache.clear();
    await cache.read("k", read);
    expect(read.calls).toBe(3);
    expect(cache.takeOutcomes()).toEqual({ hit: 1, miss: 3 });
    expect(cache.takeOutcomes()).toEqual({ hit: 0, miss: 0 });
  });

  it("reads once for everyone who asks while the read is under way", async () => {
    const cache = new ReadCache(MB, 60_000);
    const pending = deferred<string[]>();
    const read = counted(() => pending.promise);
    const answers = Promise.all([1, 2, 3, 4, 5].map(() => cache.read("k", read)));
    pending.resolve(["only once"]);
    expect(await answers).toEqual([1, 2, 3, 4, 5].map(() => ["only once"]));
    expect(read.calls).toBe(1);
  });

  it("keeps no failed read: everyone waiting gets the error, the next reader tries again", async () => {
    const cache = new ReadCache(MB, 60_000);
    let fail = true;
    const read = counted(() => {
      if (fail) throw new Error("connection refused");
      return "back";
    });
    const waiting = [cache.read("k", read), cache.read("k", read)];
    for (const answer of waiting) await expect(answer).rejects.toThrow("connection refused");
    expect(read.calls).toBe(1);
    expect(cache.size.entries).toBe(0);
    fail = false;
    expect(await cache.read("k", read)).toBe("back");
    expect(read.calls).toBe(2);
  });

  it("does not keep a read that was under way when articles changed", async () => {
    const cache = new ReadCache(MB, 60_000);
    const before = deferred<string>();
    const first = cache.read("k", () => before.promise);
    cache.clear();
    const read = counted(() => "after the change");
    // Asked after the change: not given the answer read before it.
    const second = cache.read("k", read);
    before.resolve("before the change");
    expect(await first).toBe("before the change");
    expect(await second).toBe("after the change");
    expect(await cache.read("k", read)).toBe("after the change");
    expect(read.calls).toBe(1);
  });

  it("reads again once an answer is older than its time to live", async () => {
    let now = 0;
    const cache = new ReadCache(MB, 60_000, () => now);
    const read = counted(() => now);
    expect(await cache.read("k", read)).toBe(0);
    now = 60_000;
    expect(await cache.read("k", read)).toBe(0);
    now = 60_001;
    expect(await cache.read("k", read)).toBe(60_001);
    expect(read.calls).toBe(2);
  });

  it("reads an expired answer again once for everyone who asks, and gives none the old one", async () => {
    let now = 0;
    const cache = new ReadCache(MB, 60_000, () => now);
    expect(await cache.read("k", async () => "old")).toBe("old");
    now = 60_001;
    const pending = deferred<string>();
    const read = counted(() => pending.promise);
    const answers = Promise.all([1, 2, 3].map(() => cache.read("k", read)));
    pending.resolve("new");
    expect(await answers).toEqual(["new", "new", "new"]);
    expect(read.calls).toBe(1);
    expect(cache.takeOutcomes()).toEqual({ hit: 2, miss: 2 });
  });

  it("keeps no failed read of an expired answer, and does not fall back to the old one", async () => {
    let now = 0;
    const cache = new ReadCache(MB, 60_000, () => now);
    await cache.read("k", async () => "old");
    now = 60_001;
    await expect(
      cache.read("k", async () => {
        throw new Error("connection refused");
      }),
    ).rejects.toThrow("connection refused");
    expect(cache.size.entries).toBe(0);
    expect(await cache.read("k", async () => "back")).toBe("back");
  });

  it("keeps an answer of nothing (no such article) like any other", async () => {
    const cache = new ReadCache(MB, 60_000);
    const read = counted(() => undefined);
    expect(await cache.read("missing", read)).toBeUndefined();
    expect(await cache.read("missing", read)).toBeUndefined();
    expect(read.calls).toBe(1);
  });

  it("drops the least recently used answers beyond its bytes, and never keeps one too large", async () => {
    // Each answer of 1,000 characters is about 2.3 KB with its key: four fit in 10 KB.
    const cache = new ReadCache(10_000, 60_000);
    const text = "x".repeat(1_000);
    const read = counted(() => text);
    for (const key of ["a", "b", "c", "d"]) await cache.read(key, read);
    expect(cache.size.entries).toBe(4);
    await cache.read("a", read); // used again: now the most recent
    await cache.read("e", read); // over the limit: "b" goes
    expect(cache.size.entries).toBe(4);
    expect(cache.size.bytes).toBeLessThanOrEqual(10_000);
    read.calls = 0;
    await cache.read("a", read);
    await cache.read("c", read);
    expect(read.calls).toBe(0);
    await cache.read("b", read);
    expect(read.calls).toBe(1);

    const huge = counted(() => "y".repeat(10_000));
    await cache.read("huge", huge);
    await cache.read("huge", huge);
    expect(huge.calls).toBe(2);
  });

  it("hands out frozen answers, so no reader can change what the next one gets", async () => {
    const cache = new ReadCache(MB, 60_000);
    const answer = await cache.read("k", async () => ({
      articles: [{ id: "a", title: "Harbor budget passes" }],
    }));
    expect(() => answer.articles.push({ id: "b", title: "Added" })).toThrow(TypeError);
    expect(() => {
      (answer.articles[0] as { title: string }).title = "Changed";
    }).toThrow(TypeError);
    expect(await cache.read("k", async () => ({ articles: [] }))).toEqual({
      articles: [{ id: "a", title: "Harbor budget passes" }],
    });
  });
});

describe.each(testDatabases())("the read cache on $name", (database) => {
  let handle: Awaited<ReturnType<typeof database.open>>;
  let cache: ReadCache | null;
  const article = (n: number) => ({
    id: `read-cache-${n}`,
    category: "local-news" as const,
    link: `https://sample.example.org/read-cache/${n}`,
    title: `Read cache story ${n}`,
    excerpt: "x",
    content: `<p>Body ${n}</p>`,
    author: "Staff Writer",
    publishedAt: new Date(Date.UTC(2026, 0, n)),
  });

  beforeAll(async () => {
    handle = await database.open();
    await handle.migrate();
    await upsertArticle(handle.db, article(1));
    cache = await readCacheFor(parseConfig({ READ_CACHE_MB: "4" }), handle);
  });
  afterAll(async () => handle?.dispose());

  it("answers the pages' reads from memory until a change is announced", async () => {
    const titles = async () =>
      (await latestArticles(handle.db, { category: "local-news", limit: 5 })).map((a) => a.title);
    expect(await titles()).toEqual(["Read cache story 1"]);
    expect((await homeLists(handle.db)).headlines.map((a) => a.id)).toEqual(["read-cache-1"]);
    cache?.takeOutcomes();

    // Stored without an announcement (not what ingest does): the database is not asked again.
    await upsertArticle(handle.db, article(2));
    expect(await titles()).toEqual(["Read cache story 1"]);
    expect((await homeLists(handle.db)).headlines).toHaveLength(1);
    expect(await articleById(handle.db, "read-cache-2")).toBeDefined();
    expect(cache?.takeOutcomes()).toEqual({ hit: 2, miss: 1 });

    // What an ingest pass that stored articles does; on PostgreSQL it arrives as a notification.
    await handle.announceChange();
    await expect
      .poll(titles, { timeout: 5_000 })
      .toEqual(["Read cache story 2", "Read cache story 1"]);
    expect((await homeLists(handle.db)).headlines.map((a) => a.id)).toEqual([
      "read-cache-2",
      "read-cache-1",
    ]);
  });

  it("is not set up when READ_CACHE_MB is 0, and another database is read every time", async () => {
    expect(await readCacheFor(parseConfig({ READ_CACHE_MB: "0" }), handle)).toBeNull();
    const other = await database.open();
    try {
      await other.migrate();
      await upsertArticle(other.db, article(1));
      expect((await articleById(other.db, "read-cache-1"))?.content).toBe("<p>Body 1</p>");
      await upsertArticle(other.db, { ...article(1), content: "<p>Corrected</p>" });
      expect((await articleById(other.db, "read-cache-1"))?.content).toBe("<p>Corrected</p>");
    } finally {
      await other.dispose();
    }
  });
});
