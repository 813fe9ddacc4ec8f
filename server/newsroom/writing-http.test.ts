import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { articles, newsroomMedia, newsroomPosts, staffAudit } from "../db/schema";
import { testDatabases } from "../db/test-databases";
import { startTestApp } from "../http/test-app";
import { childPictureMaker, type PictureMaker } from "../images/picture-maker";
import { addStaff } from "../staff/accounts";
import { staffClient } from "../staff/test-client";

/**
 * The newsroom's writing over HTTP, against the production build: a story written without
 * JavaScript (Markdown and a file input), its picture checked and stripped, published and shown on
 * the public pages at once; hostile files and bodies refused or neutralised with nothing lost; and
 * the body limit the matching route asks for.
 */

const database = testDatabases()[0];
if (!database) throw new Error("no test database");
let handle: Awaited<ReturnType<typeof database.open>>;
let app: Awaited<ReturnType<typeof startTestApp>>;
const PASSWORD = "a long enough password";
const client = staffClient({ base: () => app.base, password: PASSWORD });

/** The web process's picture maker, a child process; the jobs the site gave it, in order. */
const child = childPictureMaker();
const jobs: string[] = [];
const maker: PictureMaker = {
  inspect: (bytes) => (jobs.push("inspect"), child.inspect(bytes)),
  variant: (original, variant) => (jobs.push("variant"), child.variant(original, variant)),
  crop: (original, crop) => (jobs.push("crop"), child.crop(original, crop)),
  clean: (bytes) => (jobs.push("clean"), child.clean(bytes)),
  close: () => child.close(),
};

beforeAll(async () => {
  handle = await database.open();
  await handle.migrate();
  await addStaff(handle.db, { email: "writer@example.org", role: "editor", password: PASSWORD });
  app = await startTestApp(handle, { PAGE_CACHE_MB: "16", READ_CACHE_MB: "16" }, undefined, maker);
}, 120_000);

afterAll(async () => {
  await app?.close();
  await child.close();
  await handle?.dispose();
});

/** A photo as a phone takes it: a JPEG with the camera's details and where it was taken. */
function phonePhoto(): Promise<Buffer> {
  return sharp({ create: { width: 1600, height: 1200, channels: 3, background: "#3366aa" } })
    .jpeg()
    .withExif({
      IFD0: { Make: "PhoneMaker", Model: "Phone 12" },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "32/1 42/1 0/1" },
    })
    .toBuffer();
}

async function postMultipart(address: string, form: FormData, cookie: string) {
  return fetch(`${app.base}${address}`, {
    method: "POST",
    redirect: "manual",
    headers: { Cookie: cookie },
    body: form,
  });
}

async function newStory(cookie: string, csrf: string): Promise<number> {
  const created = await client.post("/newsroom/posts", { _csrf: csrf, kind: "story" }, cookie);
  expect(created.status).toBe(303);
  const id = Number(/\/newsroom\/posts\/(\d+)/.exec(created.headers.get("location") ?? "")?.[1]);
  expect(id).toBeGreaterThan(0);
  return id;
}

const storyForm = (csrf: string, fields: Record<string, string | Blob>) => {
  const form = new FormData();
  form.set("_csrf", csrf);
  form.set("title", "Harbor board approves the budget");
  form.set("dek", "A month of hearings ends with a vote.");
  form.set("category", "local-news");
  form.set("bylines", "Ana Ruiz, Sam Lee");
  form.set("bodyFormat", "markdown");
  form.set("body", "The board **voted** on Tuesday.\n\n<script>alert(1)</script>");
  form.set("pictureAlt", "The harbor at dusk");
  form.set("pictureCredit", "Sample Photographer");
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  return form;
};

describe("writing a story in the newsroom", () => {
  it("publishes a story written without JavaScript, with an uploaded picture, everywhere at once", async () => {
    const { cookie, csrf } = await client.signedIn("writer@example.org", "/newsroom/posts");
    const editor = await client.get("/newsroom/posts", cookie);
    expect(editor.headers.get("cache-control")).toBe("private, no-store");

    // The home page is read (and kept by the page cache) before the story goes live.
    expect(await (await fetch(`${app.base}/`)).text()).not.toContain("Harbor board approves");

    const id = await newStory(cookie, csrf);
    const page = await client.get(`/newsroom/posts/${id}`, cookie);
    expect(await page.text()).toMatch(/<textarea[^>]*name="body"/);

    const photo = new File([new Uint8Array(await phonePhoto())], "IMG_0001.jpg", {
      type: "image/jpeg",
    });
    const published = await postMultipart(
      `/newsroom/posts/${id}`,
      storyForm(csrf, { intent: "publish", picture: photo }),
      cookie,
    );
    expect(published.status).toBe(303);
    expect(published.headers.get("location")).toBe(`/newsroom/posts/${id}?done=publish`);
    // The upload was read and cleaned by the site's maker (decision 022), not by sharp in the
    // web process: a 40-megapixel photo takes hundreds of megabytes to decode.
    expect(jobs.slice(0, 2)).toEqual(["inspect", "clean"]);

    const [post] = await handle.db.select().from(newsroomPosts).where(eq(newsroomPosts.id, id));
    const [media] = await handle.db.select().from(newsroomMedia);
    expect(media).toMatchObject({ filename: "IMG_0001.jpg", uploadedBy: "writer@example.org" });
    expect(post?.draft.bodyHtml).toBe("<p>The board <strong>voted</strong> on Tuesday.</p>");
    const [row] = await handle.db.select().from(articles);
    expect(row).toMatchObject({ own: true, author: "Ana Ruiz and Sam Lee" });

    // The picture readers get is ours, without the camera's details or the place.
    const copy = await fetch(`${app.base}/images/${media?.hash}/640.jpg`);
    expect(copy.status).toBe(200);
    const meta = await sharp(Buffer.from(await copy.arrayBuffer())).metadata();
    expect(meta.exif).toBeUndefined();
    const original = await app.pictures.getOriginal(media?.hash ?? "");
    expect((await sharp(original ?? new Uint8Array()).metadata()).exif).toBeUndefined();

    for (const address of ["/", "/local-news", "/rss.xml", `/article/${row?.id}`]) {
      const text = await (await fetch(`${app.base}${address}`)).text();
      expect(text, address).toContain("Harbor board approves the budget");
    }
    const audit = await handle.db
      .select()
      .from(staffAudit)
      .where(eq(staffAudit.action, "story.publish"));
    expect(audit).toHaveLength(1);
  });

  it("refuses a hostile picture and loses nothing that was typed", async () => {
    const { cookie, csrf } = await client.signedIn("writer@example.org", "/newsroom/posts");
    const id = await newStory(cookie, csrf);
    const before = await handle.db.select().from(newsroomMedia);
    const svg = new File(
      ['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'],
      "cute-cat.jpg",
      { type: "image/jpeg" },
    );
    const answer = await postMultipart(
      `/newsroom/posts/${id}`,
      storyForm(csrf, { intent: "save", title: "Words I typed", picture: svg }),
      cookie,
    );
    expect(answer.status).toBe(400);
    const html = await answer.text();
    expect(html).toContain("This file is not a picture we can use");
    expect(html).toContain('value="Words I typed"');
    expect(html).toContain("The board **voted** on Tuesday.");
    expect(await handle.db.select().from(newsroomMedia)).toHaveLength(before.length);
  });

  it("adds a picture sent with a refused draft to nothing: the draft and library stay", async () => {
    const { cookie, csrf } = await client.signedIn("writer@example.org", "/newsroom/posts");
    const id = await newStory(cookie, csrf);
    const before = await handle.db.select().from(newsroomMedia);
    const photo = new File([new Uint8Array(await phonePhoto())], "IMG_0002.jpg", {
      type: "image/jpeg",
    });
    const answer = await postMultipart(
      `/newsroom/posts/${id}`,
      storyForm(csrf, { intent: "save", category: "no-such-section", picture: photo }),
      cookie,
    );
    expect(answer.status).toBe(400);
    const html = await answer.text();
    expect(html).toContain("Nothing was saved: see the fields marked below.");
    expect(html).toContain("Choose one of the categories.");
    expect(await handle.db.select().from(newsroomMedia)).toHaveLength(before.length);
    const [post] = await handle.db.select().from(newsroomPosts).where(eq(newsroomPosts.id, id));
    expect(post?.draft.title).toBe("");
  });

  it("lets the editor's route take a picture-sized body and keeps other forms small", async () => {
    const { cookie, csrf } = await client.signedIn("writer@example.org", "/newsroom/posts");
    const id = await newStory(cookie, csrf);
    const padding = "x".repeat(200 * 1024);
    const big = await postMultipart(
      `/newsroom/posts/${id}`,
      storyForm(csrf, { intent: "save", pictureCredit: "", padding }),
      cookie,
    );
    expect(big.status).toBe(303);
    // The same body to a page without uploads is refused before it is read, whatever the spelling.
    for (const address of ["/newsroom/posts", "/NEWSROOM/posts"]) {
      const small = await postMultipart(address, storyForm(csrf, { padding }), cookie);
      expect(small.status, address).toBe(413);
    }
  });

  it("previews a draft as the reader's page, for staff only, never kept or indexed", async () => {
    const { cookie, csrf } = await client.signedIn("writer@example.org", "/newsroom/posts");
    const id = await newStory(cookie, csrf);
    const saved = await postMultipart(
      `/newsroom/posts/${id}`,
      storyForm(csrf, { intent: "save", title: "A draft nobody sees yet" }),
      cookie,
    );
    expect(saved.status).toBe(303);
    const page = await client.get(`/newsroom/posts/${id}/preview`, cookie);
    const html = await page.text();
    expect(html.match(new RegExp(`<iframe src="/newsroom/preview/${id}"`, "g"))).toHaveLength(2);
    expect(html).toContain('title="Phone preview, 375 pixels wide"');
    expect(html).toContain('title="Desk preview, 1280 pixels wide"');

    const frame = await client.get(`/newsroom/preview/${id}`, cookie);
    expect(frame.status).toBe(200);
    expect(frame.headers.get("cache-control")).toBe("private, no-store");
    expect(frame.headers.get("x-robots-tag")).toBe("noindex, nofollow");
    const drawn = await frame.text();
    // The reader's page: its header and footer, the story with its dek, bylines and label.
    expect(drawn).toContain('<nav aria-label="Main"');
    expect(drawn).toContain("A draft nobody sees yet");
    expect(drawn).toContain("A month of hearings ends with a vote.");
    expect(drawn).toContain("Ana Ruiz and Sam Lee");
    expect(drawn).toContain("Our reporting");
    expect(drawn).not.toContain("<script>alert(1)</script>");

    // Signed out, or as a reader, there is nothing to see.
    const signedOut = await fetch(`${app.base}/newsroom/preview/${id}`, { redirect: "manual" });
    expect(signedOut.status).toBe(303);
    expect(signedOut.headers.get("location")).toContain("/newsroom/sign-in");
    expect(await (await fetch(`${app.base}/`)).text()).not.toContain("A draft nobody sees yet");
  });

  it("schedules only a time still to come, on San Diego's clock", async () => {
    const { cookie, csrf } = await client.signedIn("writer@example.org", "/newsroom/posts");
    const id = await newStory(cookie, csrf);
    const past = await postMultipart(
      `/newsroom/posts/${id}`,
      storyForm(csrf, { intent: "schedule", publishAt: "2020-01-01T09:00" }),
      cookie,
    );
    expect(past.status).toBe(400);
    expect(await past.text()).toContain("Choose a time still to come");
    const skipped = await postMultipart(
      `/newsroom/posts/${id}`,
      storyForm(csrf, { intent: "schedule", publishAt: "2027-03-14T02:30" }),
      cookie,
    );
    expect(skipped.status).toBe(400);
    expect(await skipped.text()).toContain("San Diego&#x27;s clocks skip that time");
    const later = await postMultipart(
      `/newsroom/posts/${id}`,
      storyForm(csrf, { intent: "schedule", publishAt: "2027-11-07T01:30" }),
      cookie,
    );
    expect(later.status).toBe(303);
    const [post] = await handle.db.select().from(newsroomPosts).where(eq(newsroomPosts.id, id));
    // 1:30 happens twice that night; the first (daylight time, UTC-7) is taken.
    expect(post?.publishAt?.toISOString()).toBe("2027-11-07T08:30:00.000Z");
    expect(post?.status).toBe("scheduled");
  });
});
