import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { contactMessages, newsletterSubscribers, pollVotes } from "../db/schema";
import { testDatabases } from "../db/test-databases";
import { startTestApp } from "../http/test-app";
import { siteSecret } from "../db/secrets";
import { formTokenDoubt, issueFormToken } from "./form-token";
import { RATE_LIMITED_MESSAGE } from "./guard";
import { EMAIL_INVALID, EMAIL_MISSING } from "../newsletter/signup-form";
import { NETWORK_CEILING_REACHED, UNSIGNED_NETWORK_VOTES_PER_DAY, VOTE_THANKS } from "./poll";

/**
 * The form endpoints over HTTP, as a browser without JavaScript uses them: the production build
 * behind our Express app, a real database, a real rate limiter. Each test comes from an address of
 * its own (the app trusts one proxy hop, so X-Forwarded-For names the client).
 */

const database = testDatabases()[0];
if (!database) throw new Error("no test database");
let handle: Awaited<ReturnType<typeof database.open>>;
let close: () => Promise<void>;
let base: string;
let nextAddress = 1;
let address = "";

beforeAll(async () => {
  handle = await database.open();
  await handle.migrate();
  const app = await startTestApp(handle, { TRUST_PROXY_HOPS: "1" });
  base = app.base;
  close = app.close;
}, 120_000);

afterAll(async () => {
  await close?.();
  await handle?.dispose();
});

beforeEach(() => {
  address = `203.0.113.${nextAddress++}`;
});

function post(
  route: string,
  fields: Record<string, string> | [string, string][],
  headers: HeadersInit = {},
) {
  return fetch(`${base}${route}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    redirect: "manual",
    headers: { "X-Forwarded-For": address, ...headers },
  });
}

const subscribers = async () =>
  (await handle.db.select().from(newsletterSubscribers)).map((s) => s.email);
const messages = async () => handle.db.select().from(contactMessages);

describe("newsletter", () => {
  beforeEach(async () => {
    await handle.db.delete(newsletterSubscribers);
  });

  it("without JavaScript: stores the address once, normalised, and goes back with the message", async () => {
    const response = await post("/newsletter", {
      email: "  Reader@Example.COM ",
      returnTo: "/local-events?x=1",
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/local-events?x=1&subscribed=1#newsletter");
    const again = await post("/newsletter", { email: "reader@example.com", returnTo: "/" });
    expect(again.status).toBe(303);
    expect(await subscribers()).toEqual(["reader@example.com"]);

    const back = await fetch(`${base}/?subscribed=1`);
    const html = await back.text();
    expect(html).toContain("Thanks for subscribing!");
    expect(html).toContain("Please confirm from your inbox");
    // One message: not "added" while the address waits for its confirmation.
    expect(html).not.toContain("added to our newsletter");
  });

  it("with JavaScript: answers in place, without a redirect", async () => {
    const response = await post("/newsletter", { email: "js@example.com", _inline: "1" });
    expect(response.status).toBe(200);
    expect(await subscribers()).toEqual(["js@example.com"]);
  });

  it.each([
    ["an empty address", "", EMAIL_MISSING],
    ["a malformed address", "not-an-address", EMAIL_INVALID],
    ["an address that is too long", `${"a".repeat(250)}@example.com`, EMAIL_INVALID],
  ])("refuses %s with 400 and a clear message, storing nothing", async (_, email, message) => {
    const response = await post("/newsletter", { email, returnTo: "/" });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(message.replace("'", "&#x27;"));
    expect(await subscribers()).toEqual([]);
  });

  it("never sends the reader to another site", async () => {
    for (const returnTo of ["//evil.example/", "https://evil.example/", "/\\evil.example", "x"]) {
      const response = await post("/newsletter", { email: "a@example.com", returnTo });
      expect(response.headers.get("location")).toBe("/?subscribed=1#newsletter");
    }
  });

  it("a filled honeypot looks like success and stores nothing", async () => {
    const response = await post("/newsletter", {
      email: "bot@example.com",
      website: "https://spam.example",
      returnTo: "/",
    });
    expect(response.status).toBe(303);
    expect(await subscribers()).toEqual([]);
  });

  it("answers 429 with a readable message after 10 attempts in 10 minutes", async () => {
    for (let i = 0; i < 10; i++) {
      expect(
        (await post("/newsletter", { email: `r${i}@example.com`, returnTo: "/" })).status,
      ).toBe(303);
    }
    const limited = await post("/newsletter", { email: "r10@example.com", returnTo: "/" });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await limited.text()).toContain(RATE_LIMITED_MESSAGE);
    expect(await subscribers()).toHaveLength(10);
    // Another reader is not affected.
    address = "198.51.100.7";
    expect((await post("/newsletter", { email: "other@example.com" })).status).toBe(303);
  });
});

describe("contact form", () => {
  const valid = {
    name: "Ana Reader",
    email: "Ana@Example.com",
    category: "news-tip",
    message: "A water main broke on Adams Avenue this morning.",
  };
  beforeEach(async () => {
    await handle.db.delete(contactMessages);
  });

  /** The form's token as the page renders it, as if it had been shown `ageMs` ago. */
  async function shownFormToken(ageMs = 60_000): Promise<string> {
    return issueFormToken(await siteSecret(handle.db, "forms"), Date.now() - ageMs);
  }

  it("renders its signed time in the form, which a reader's message then carries", async () => {
    const page = await (await fetch(`${base}/contact-us`)).text();
    const token = /name="form_token" value="(\d+\.[\w-]+)"/.exec(page)?.[1];
    expect(formTokenDoubt(await siteSecret(handle.db, "forms"), token, Date.now() + 10_000)).toBe(
      null,
    );
  });

  it.each([
    ["without the form's token", async () => ({}), "no valid form token"],
    [
      "a second after the form was shown",
      async () => ({ form_token: await shownFormToken(1_000) }),
      /^sent \d+ ms after/,
    ],
    [
      "with a stale form",
      async () => ({ form_token: await shownFormToken(2 * 86_400_000) }),
      "sent more than a day after the form was shown",
    ],
    [
      "with a message of links",
      async () => ({
        form_token: await shownFormToken(),
        message: "Buy https://a.example https://b.example https://c.example https://d.example",
      }),
      "4 links",
    ],
  ])(
    "keeps a message sent %s, marked as suspected spam, and thanks alike",
    async (_what, extra, reason) => {
      const response = await post("/contact-us", { ...valid, ...(await extra()) });
      expect(response.status).toBe(303);
      expect(response.headers.get("location")).toBe("/contact-us?sent=1");
      const stored = await messages();
      expect(stored).toHaveLength(1);
      expect(stored[0]?.spamReason).toMatch(reason);
    },
  );

  it("stores a valid message and confirms after a redirect", async () => {
    const response = await post("/contact-us", { ...valid, form_token: await shownFormToken() });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/contact-us?sent=1");
    const stored = await messages();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      name: "Ana Reader",
      email: "ana@example.com",
      spamReason: null,
    });
    const page = await (await fetch(`${base}/contact-us?sent=1`)).text();
    expect(page).toContain("Thank you, your message has reached our newsroom.");
  });

  it("names every invalid field, keeps what was typed, and stores nothing", async () => {
    const response = await post("/contact-us", {
      name: " ",
      email: "ana@",
      category: "gossip",
      message: "short",
    });
    expect(response.status).toBe(400);
    const html = await response.text();
    for (const text of [
      "Please enter your name.",
      EMAIL_INVALID,
      "Please choose what your message is about.",
      "Please write a message of at least 10 characters.",
      "Please correct the 4 fields marked below.",
    ]) {
      expect(html).toContain(text);
    }
    expect(html).toContain('value="ana@"');
    expect(await messages()).toEqual([]);
  });

  it("a filled honeypot gets the thanks and stores nothing", async () => {
    const response = await post("/contact-us", { ...valid, website: "spam" });
    expect(response.status).toBe(303);
    expect(await messages()).toEqual([]);
  });

  it("answers 429 after 10 messages in 10 minutes", async () => {
    for (let i = 0; i < 10; i++) await post("/contact-us", valid);
    const limited = await post("/contact-us", valid);
    expect(limited.status).toBe(429);
    expect(await limited.text()).toContain(RATE_LIMITED_MESSAGE);
    expect(await messages()).toHaveLength(10);
  });

  it("takes the category from the address", async () => {
    const html = await (await fetch(`${base}/contact-us?category=event`)).text();
    expect(html).toMatch(/<option value="event" selected="">/);
  });
});

describe("every form endpoint", () => {
  it("refuses a post made from another site's page, storing nothing", async () => {
    await handle.db.delete(newsletterSubscribers);
    const response = await post(
      "/newsletter",
      { email: "csrf@example.com", returnTo: "/" },
      { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
    );
    expect(response.status).toBe(403);
    expect(await subscribers()).toEqual([]);
  });

  it("refuses a body larger than any form, before reading it", async () => {
    const response = await post("/contact-us", {
      name: "Ana",
      email: "ana@example.com",
      category: "general",
      message: "x".repeat(40_000),
    });
    expect(response.status).toBe(413);
    expect(await messages()).toEqual([]);
  });

  it("answers errors with a request id and no internals", async () => {
    const response = await post("/newsletter", { email: "nope" });
    expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(await response.text()).not.toMatch(/at \w+ \(|node_modules|ZodError/);
  });
});

describe("contact form from an outside provider", () => {
  it("shows the configured form in a 789 px frame, passing the category on", async () => {
    const other = await startTestApp(handle, {
      CONTACT_FORM_URL: "https://forms.example.net/newsroom?lang=en",
    });
    try {
      const html = await (await fetch(`${other.base}/contact-us?category=event`)).text();
      const frame = /<iframe[^>]*>/.exec(html)?.[0] ?? "";
      expect(frame).toContain(
        'src="https://forms.example.net/newsroom?lang=en&amp;category=event"',
      );
      expect(frame).toContain('height="789"');
      expect(frame).toContain('title="Contact form"');
      expect(html).not.toContain('name="message"');
    } finally {
      await other.close();
    }
  });
});

describe("community poll", () => {
  beforeEach(async () => {
    await handle.db.delete(pollVotes);
  });

  it("without JavaScript: a vote redirects to the results, thanked, with a voter cookie", async () => {
    const response = await post("/community", { option: "Transportation" });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/community?poll=voted#poll");
    const cookie = response.headers.get("set-cookie")?.split(";")[0] ?? "";
    expect(cookie).toMatch(/^poll_voter=/);
    const page = await (
      await fetch(`${base}/community?poll=voted`, { headers: { cookie } })
    ).text();
    expect(page).toContain(VOTE_THANKS);
    expect(await handle.db.$count(pollVotes)).toBe(1);

    const again = await post("/community", { option: "Homelessness" }, { cookie });
    expect(again.headers.get("location")).toBe("/community?poll=already#poll");
    expect(await handle.db.$count(pollVotes)).toBe(1);
  });

  it("counts every reader at one address; a script without the page's token stops at a ceiling", async () => {
    const page = await (await fetch(`${base}/community`)).text();
    const token = /name="form_token" value="([\w.-]+)"/.exec(page)?.[1] ?? "";
    expect(token).toMatch(/^\d{13}\.[\w-]{43}$/);
    // Two readers in one home, each in their own browser, from the page's form: both counted.
    for (const option of ["Transportation", "Homelessness"]) {
      const vote = await post("/community", { option, form_token: token });
      expect(vote.headers.get("location")).toBe("/community?poll=voted#poll");
    }
    expect(await handle.db.$count(pollVotes)).toBe(2);
    // A browser that keeps no cookie is still told its vote was counted.
    expect(await (await fetch(`${base}/community?poll=voted`)).text()).toContain(VOTE_THANKS);
    // A script that never loads the page, dropping its cookie: counted up to the lower ceiling.
    const answers = [];
    for (let i = 0; i < UNSIGNED_NETWORK_VOTES_PER_DAY; i++) {
      answers.push(
        (await post("/community", { option: "Housing affordability" })).headers.get("location"),
      );
    }
    expect(answers).toEqual([
      ...Array<string>(UNSIGNED_NETWORK_VOTES_PER_DAY - 2).fill("/community?poll=voted#poll"),
      "/community?poll=ceiling#poll",
      "/community?poll=ceiling#poll",
    ]);
    expect(await handle.db.$count(pollVotes)).toBe(UNSIGNED_NETWORK_VOTES_PER_DAY);
    // Without JavaScript the page says why, with the results.
    const told = await (await fetch(`${base}/community?poll=ceiling`)).text();
    expect(told).toContain(NETWORK_CEILING_REACHED);
    expect(told).toContain("Total votes:");
    // Another address counts on its own.
    address = "203.0.113.250";
    const neighbour = await post("/community", { option: "Homelessness" });
    expect(neighbour.headers.get("location")).toBe("/community?poll=voted#poll");
    // What is kept is a keyed hash of the address and the day, never the address.
    const stored = await handle.db.select().from(pollVotes);
    expect(JSON.stringify(stored)).not.toContain("203.0.113");
  });

  it("a post with two options is refused with 400 and the options named, and stores nothing", async () => {
    const response = await post("/community", [
      ["option", "Transportation"],
      ["option", "Homelessness"],
    ]);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("Please choose one of the options: ");
    expect(await handle.db.$count(pollVotes)).toBe(0);
  });

  it("a filled honeypot stores nothing; a flood is refused with 429", async () => {
    await post("/community", { option: "Transportation", website: "x" });
    expect(await handle.db.$count(pollVotes)).toBe(0);
    for (let i = 0; i < 9; i++) await post("/community", { option: "Nope" });
    const limited = await post("/community", { option: "Transportation" });
    expect(limited.status).toBe(429);
    expect(await handle.db.$count(pollVotes)).toBe(0);
  });
});
