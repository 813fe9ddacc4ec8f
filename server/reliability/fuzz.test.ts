import fs from "node:fs";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadContent } from "../content/load";
import { contactMessages, newsletterSubscribers, pollVotes } from "../db/schema";
import { reportSkippedPostgres, testDatabases } from "../db/test-databases";
import { startTestApp } from "../http/test-app";
import { upsertArticle } from "../news/repository";

/**
 * Generated input, valid-looking and hostile, to every form endpoint and to the search and archives
 * parameters, over HTTP to the production build on a real database: no answer is a 5xx or shows an
 * internal, every answer is one the endpoint is designed to give, and what the database holds
 * afterwards is exactly the accepted submissions, each valid by rules written out here again.
 *
 * FUZZ_RUNS inputs per target (default 50), FUZZ_SEED for another sequence, FUZZ_REPORT=<file>
 * for a JSON summary per target and database. A failure prints fast-check's seed, path and the
 * shrunk batch of inputs; the message names the one that failed.
 */

reportSkippedPostgres();

const RUNS = positiveInteger(process.env.FUZZ_RUNS, 50);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) | 0 : 20_260_401;
/** Requests in flight at once: each property run sends one batch. */
const BATCH = 4;
/** A test's time: start-up plus a generous 250 ms per input (they take about 10). */
const TIMEOUT = 60_000 + RUNS * 250;
/** The app's form body limit (server/http/app.ts). */
const BODY_LIMIT = 32 * 1024;
/** Node's request header limit (16 KB) minus room for the other headers. */
const URL_LIMIT = 15_000;

function positiveInteger(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

// ---------------------------------------------------------------------------------------------
// The rules of valid data, written out here rather than taken from the code under test.

/** Lower-case as stored; the shape the newsletter and contact forms accept. */
const STORED_EMAIL =
  /^(?!\.)(?!.*\.\.)[a-z0-9_'+.-]*[a-z0-9_+-]@(?:[a-z0-9][a-z0-9-]*\.)+[a-z]{2,}$/;
/** An address every reasonable validator accepts. */
const PLAIN_EMAIL =
  /^[A-Za-z0-9](?:[A-Za-z0-9._+-]*[A-Za-z0-9_+-])?@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.[A-Za-z]{2,}$/;
/** An address outside this shape is refused by any validator we would use. */
const EMAIL_CHARACTERS = /^[A-Za-z0-9_'+.-]+@[A-Za-z0-9.-]+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CONTENT = loadContent("content");
const CATEGORY_VALUES: readonly string[] = CONTENT.contact.categories.map((c) => c.value);
const OPTIONS: readonly string[] = CONTENT.community.poll.options;
/** C0 and C1 control characters and DEL. */
const ANY_CONTROL = /\p{Cc}/u;
const CONTROL_BUT_LINE_BREAKS = /(?![\t\n\r])\p{Cc}/u;

type Verdict = "valid" | "invalid" | "either";

/** Length as people count characters: by code point, so an emoji is one. */
const characters = (text: string) => [...text].length;

function emailVerdict(value: string | undefined): Verdict {
  if (value === undefined) return "invalid";
  const email = value.trim();
  if (email.length > 254 || !EMAIL_CHARACTERS.test(email)) return "invalid";
  return PLAIN_EMAIL.test(email) && !email.includes("..") ? "valid" : "either";
}

function contactVerdict(fields: Fields): Verdict {
  const { name, email, category, message } = fields;
  if (name === undefined || message === undefined || category === undefined) return "invalid";
  if (!CATEGORY_VALUES.includes(category)) return "invalid";
  const mail = emailVerdict(email);
  // Control characters may be dropped before the length checks, so those verdicts need none.
  const cleanName = !ANY_CONTROL.test(name);
  const cleanMessage = !ANY_CONTROL.test(message.replace(/[\t\n\r]/g, ""));
  const nameLength = characters(name.trim());
  const messageLength = characters(message.trim());
  if (mail === "invalid" || nameLength === 0 || messageLength < 10) return "invalid";
  if ((cleanName && nameLength > 100) || (cleanMessage && messageLength > 5000)) return "invalid";
  const lengthsFine = nameLength <= 100 && messageLength <= 5000;
  return mail === "valid" && cleanName && cleanMessage && lengthsFine ? "valid" : "either";
}

/** The answers a form may give to fields of this verdict, `ok` being its success. */
function allowedFor(verdict: Verdict, ok: number): number[] {
  return verdict === "valid" ? [ok] : verdict === "invalid" ? [400] : [ok, 400];
}

/** What is left of `items` after taking out one of each of `taken`. */
function without(items: readonly string[], taken: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const item of taken) counts.set(item, (counts.get(item) ?? 0) + 1);
  return items.filter((item) => {
    const n = counts.get(item) ?? 0;
    counts.set(item, n - 1);
    return n <= 0;
  });
}

function storedEmailProblem(email: string): string | null {
  if (email.length > 254) return "longer than 254";
  if (email !== email.trim().toLowerCase()) return "not normalised";
  return STORED_EMAIL.test(email) ? null : "not an e-mail address";
}

// ---------------------------------------------------------------------------------------------
// Generators.

const NASTY = [
  "",
  " ",
  "\t\n\r",
  "\0",
  "a\0b",
  "\0".repeat(12),
  "\u0001\u0002\u001b[31m",
  "\u007f\u0085\u009f",
  "\uD800",
  "\uDFFF",
  "x\uDC00y",
  "\uFEFF",
  "\u202Eevil",
  "\u200B\u2028\u2029",
  "%E0%A4%A",
  "%",
  "%%",
  "%00",
  "%ZZ",
  "+",
  "&",
  "=",
  "&=&",
  "'",
  '"',
  `'":*&|!()<->`,
  ":*",
  "!!!",
  "<->",
  "a <-> b",
  "a & b | !c",
  "(((",
  ")))",
  "-",
  "--",
  "or",
  '"unterminated',
  "'; DROP TABLE newsletter_subscribers; --",
  "' OR '1'='1",
  "\\",
  "\\x00",
  "../../etc/passwd",
  "..\\..\\windows\\win.ini",
  "/etc/passwd",
  "file:///etc/passwd",
  "//evil.example/",
  "https://evil.example/",
  "javascript:alert(1)",
  "<script>alert(1)</script>",
  "<img src=x onerror=alert(1)>",
  "{{7*7}}",
  "${7*7}",
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "NaN",
  "Infinity",
  "-1",
  "0",
  "1e309",
  "1.5",
  "9007199254740993",
  "null",
  "undefined",
  "[]",
  "{}",
  "日本語のテキスト",
  "Ünïcödé",
  "🙂🙂",
  "👨‍👩‍👧‍👦",
  "Z̷̢͉a̶l̷g̵o̴",
  "مرحبا بالعالم",
];

const nasty = fc.constantFrom(...NASTY);

/**
 * Strings up to and past the 32 KB body limit, in one- to four-byte characters (measured encoded, so
 * a body never grows far past the limit: the server stops reading there and closes).
 */
const huge = fc
  .tuple(
    fc.constantFrom("x", "é", "\0", "🙂", "a@b.co ", "%"),
    fc.integer({ min: 200, max: 40_000 }),
  )
  .map(([unit, bytes]) => {
    const text = unit.repeat(Math.ceil(bytes / encodeURIComponent(unit).length));
    // Half the time one code unit shorter: an emoji then ends in a lone surrogate.
    return bytes % 2 === 0 ? text : text.slice(0, -1);
  });

const shortHostileText = fc.oneof(
  { weight: 4, arbitrary: nasty },
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 20 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 20 }) },
  { weight: 2, arbitrary: fc.array(nasty, { maxLength: 4 }).map((parts) => parts.join("")) },
);

const hostileText = fc.oneof(
  { weight: 13, arbitrary: shortHostileText },
  { weight: 1, arbitrary: huge },
);

/** For query strings: huge values are rarer, as past 16 KB the request line is refused (431). */
const hostileParam = fc.oneof(
  { weight: 40, arbitrary: shortHostileText },
  { weight: 1, arbitrary: huge },
);

const lowerWord = (max: number) =>
  fc.string({
    unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz0123456789"),
    minLength: 1,
    maxLength: max,
  });

/** Addresses every validator accepts, in any case and with spaces around. */
const plainEmail = fc
  .tuple(
    lowerWord(12),
    fc.option(fc.tuple(fc.constantFrom(".", "_", "+", "-"), lowerWord(6)), { nil: undefined }),
    lowerWord(10),
    fc.constantFrom("com", "org", "net", "co", "example", "news", "io"),
    fc.boolean(),
    fc.constantFrom("", " ", "  ", "\t", "\n"),
  )
  .map(([user, tag, domain, tld, upper, pad]) => {
    const email = `${user}${tag ? tag.join("") : ""}@${domain}.${tld}`;
    return `${pad}${upper ? email.toUpperCase() : email}${pad}`;
  });

/** Nearly an address: one character, doubled `@`, or a length at the 254 limit. */
const nearEmail = fc.oneof(
  fc
    .tuple(
      plainEmail,
      fc.nat(),
      fc.constantFrom(" ", "@", "..", "\0", "é", "<", '"', ",", ";", "%", "\n", ".", "-", "'"),
    )
    .map(([email, at, insert]) => {
      const i = at % (email.length + 1);
      return `${email.slice(0, i)}${insert}${email.slice(i)}`;
    }),
  fc
    .integer({ min: 235, max: 260 })
    .map((n) => `${"a".repeat(n - "@example.com".length)}@example.com`),
  fc.constantFrom(
    "a@b",
    "@example.com",
    "a@",
    "a@.com",
    ".a@example.com",
    "a.@example.com",
    "a@example.c",
    "a@example..com",
    "a@-example.com",
    "a@example-.com",
    "a@[127.0.0.1]",
    "a@localhost",
    "a@example.com.",
    '"a b"@example.com',
    "a@xn--ls8h.la",
    "ä@example.com",
    "a@exämple.com",
    "a+b@example.com",
    "o'brien@example.ie",
  ),
);

const emailValue = fc.oneof(
  { weight: 5, arbitrary: plainEmail },
  { weight: 3, arbitrary: nearEmail },
  { weight: 2, arbitrary: hostileText },
);

const nameValue = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      "Ana Reader",
      "José Ñúñez",
      "李雷",
      "O'Brien",
      "Mary-Jane van der Berg",
      "  Sam  ",
    ),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.integer({ min: 98, max: 102 }), fc.constantFrom("n", "é", "🙂"))
      .map(([n, unit]) => ` ${unit.repeat(n)} `),
  },
  { weight: 3, arbitrary: hostileText },
);

const WORDS = [
  "harbor",
  "council",
  "budget",
  "beach",
  "trolley",
  "housing",
  "café",
  "tip",
  "water",
  "main",
];
const sentence = fc
  .array(fc.constantFrom(...WORDS), { minLength: 3, maxLength: 60 })
  .map((words) => words.join(" "));

const messageValue = fc.oneof(
  { weight: 4, arbitrary: sentence },
  { weight: 1, arbitrary: fc.integer({ min: 4995, max: 5005 }).map((n) => `\n${"m".repeat(n)}\n`) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 12 }).map((n) => ` ${"m".repeat(n)} `) },
  // Around the 10-character minimum when each character takes two UTF-16 units.
  { weight: 1, arbitrary: fc.integer({ min: 3, max: 12 }).map((n) => "🙂".repeat(n)) },
  { weight: 3, arbitrary: hostileText },
);

const categoryValue = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...CATEGORY_VALUES) },
  { weight: 1, arbitrary: fc.constantFrom("", "News-Tip", "news-tip ", "gossip", "general\0") },
  { weight: 1, arbitrary: hostileText },
);

const optionValue = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...OPTIONS) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "homelessness",
      " Homelessness",
      "Homelessness ",
      "Jobs &amp; economy",
      "Jobs & economy\0",
      "Parking",
      "",
    ),
  },
  { weight: 2, arbitrary: hostileText },
);

const returnToValue = fc.oneof(
  fc.constantFrom(
    "/",
    "/local-events?x=1",
    "/search?q=a#b",
    "//evil.example/",
    "https://evil.example/",
    "/\\evil.example",
    "/\t/evil.example",
    "x",
    " /",
    "/%2F%2Fevil.example",
  ),
  hostileText,
);

/** Mostly nothing, sometimes one or two of `item`. */
function sometimes<T>(item: fc.Arbitrary<T>): fc.Arbitrary<T[]> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant<T[]>([]) },
    { weight: 1, arbitrary: fc.array(item, { minLength: 1, maxLength: 2 }) },
  );
}

/** The hidden field people leave empty; software that fills every field fills it. */
const honeypot = (filled: string) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom("", " ") },
    { weight: 1, arbitrary: fc.constant(filled) },
  );

/**
 * Through React Router's data endpoint (`.data`, as pages with JavaScript send) three times in four,
 * through the page itself (no JavaScript) otherwise: a full render costs about three times as much.
 */
const viaData = fc.oneof(
  { weight: 3, arbitrary: fc.constant(true) },
  { weight: 1, arbitrary: fc.constant(false) },
);

type Entry = [name: string, value: string | { file: string }];

/** The fields a browser would send, then fields missing, repeated, added, or sent as files. */
function formEntries(
  core: Record<string, fc.Arbitrary<string>>,
  optional: Record<string, fc.Arbitrary<string>>,
) {
  const names = Object.keys(core);
  const required = fc.record(core);
  const extra = fc.record(optional, { requiredKeys: [] });
  const extraName = fc.oneof(
    fc.constantFrom(
      ...names,
      "website",
      "_inline",
      "__proto__",
      "constructor",
      "email[]",
      "",
      "toString",
    ),
    fc.string({ maxLength: 12 }),
  );
  return fc
    .tuple(
      required,
      extra,
      fc.oneof(
        { weight: 4, arbitrary: fc.constant<string[]>([]) },
        { weight: 1, arbitrary: fc.subarray(names, { minLength: 1 }) },
      ),
      sometimes(fc.tuple(extraName, hostileText, fc.boolean())),
      fc.oneof(
        { weight: 6, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.constantFrom(...names) },
      ),
    )
    .map(([values, optionalValues, missing, additions, asFile]) => {
      const entries: Entry[] = [];
      for (const [name, value] of Object.entries({ ...values, ...optionalValues })) {
        if (value === undefined || missing.includes(name)) continue;
        entries.push([name, name === asFile ? { file: value } : value]);
      }
      for (const [name, value, first] of additions) {
        if (first) entries.unshift([name, value]);
        else entries.push([name, value]);
      }
      return entries;
    });
}

type Encoding =
  | "urlencoded"
  | "multipart"
  | "malformed-urlencoded"
  | "odd-content-type"
  | "json"
  | "text"
  | "no-content-type"
  | "empty"
  | "broken-multipart"
  | "chunked";

const encoding = fc.oneof(
  { weight: 12, arbitrary: fc.constant<Encoding>("urlencoded") },
  { weight: 4, arbitrary: fc.constant<Encoding>("multipart") },
  {
    weight: 5,
    arbitrary: fc.constantFrom<Encoding>(
      "malformed-urlencoded",
      "odd-content-type",
      "json",
      "text",
      "no-content-type",
      "empty",
      "broken-multipart",
      "chunked",
    ),
  },
);

/** Content types near a form's, and one that lacks its multipart boundary. */
const oddType = fc.constantFrom(
  "APPLICATION/X-WWW-FORM-URLENCODED",
  "application/x-www-form-urlencoded; charset=utf-16",
  "application/x-www-form-urlencoded;;;",
  "application/x-www-form-urlencodedx",
  "application/xml",
  "multipart/form-data",
  "multipart/mixed; boundary=x",
);

/** Bits spliced into an encoded form or query: broken escapes and separators. */
const corruption = fc.array(
  fc.tuple(
    fc.nat(),
    fc.constantFrom(
      "%E0%A4%A",
      "%",
      "%Z",
      "%ZZ",
      "%00",
      "%C0%80",
      "%FF%FE",
      "&&",
      "==",
      "&=",
      "+",
      ";",
      "%2",
      "%uD800",
    ),
  ),
  { minLength: 1, maxLength: 3 },
);

function splice(text: string, bits: readonly (readonly [number, string])[]): string {
  let result = text;
  for (const [at, bit] of bits) {
    const i = at % (result.length + 1);
    result = `${result.slice(0, i)}${bit}${result.slice(i)}`;
  }
  return result;
}

interface FormRequest {
  entries: Entry[];
  encoding: Encoding;
  /** The Content-Type sent with the "odd-content-type" encoding. */
  oddType: string;
  corruption: [number, string][];
  /** Through the page (no JavaScript) or React Router's data endpoint (with it). */
  data: boolean;
  headers: Record<string, string>;
  cookie?: string;
}

/** Headers of a post from our own pages, or from a client that is not a browser. */
const sameSiteHeaders = (base: string) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constant<Record<string, string>>({ Origin: base }) },
    { weight: 1, arbitrary: fc.constant<Record<string, string>>({}) },
    {
      weight: 1,
      arbitrary: fc.constant<Record<string, string>>({
        Origin: base,
        "Sec-Fetch-Site": "same-origin",
      }),
    },
    { weight: 1, arbitrary: fc.constant<Record<string, string>>({ "Sec-Fetch-Site": "none" }) },
  );

/** Headers of a post a page of another site made a browser send, or that pretends to be one. */
const crossSiteHeaders = (base: string) =>
  fc
    .oneof(
      fc.constantFrom<Record<string, string>>(
        { Origin: "https://evil.example" },
        { Origin: "null" },
        { Origin: "http://127.0.0.1:1" },
        { Origin: base.toUpperCase() },
        { Origin: `${base}.evil.example` },
        { "Sec-Fetch-Site": "cross-site" },
        { "Sec-Fetch-Site": "same-site" },
        { Origin: base, "Sec-Fetch-Site": "cross-site" },
        { Origin: "https://evil.example", "Sec-Fetch-Site": "same-origin" },
      ),
      fc.webUrl().map((url) => ({ Origin: new URL(url).origin })),
      fc
        .string({ minLength: 1, maxLength: 30 })
        .filter((s) => s.trim() !== "")
        .map((origin) => ({ Origin: origin })),
      fc.string({ maxLength: 20 }).map((site) => ({ Origin: base, "Sec-Fetch-Site": `x${site}` })),
    )
    .filter(
      (h) => h.Origin === undefined || ![base, "http://localhost:3000"].includes(h.Origin.trim()),
    );

function formRequest(
  entries: fc.Arbitrary<Entry[]>,
  headers: fc.Arbitrary<Record<string, string>>,
  cookie?: fc.Arbitrary<string | undefined>,
): fc.Arbitrary<FormRequest> {
  return fc.record({
    entries,
    encoding,
    oddType,
    corruption,
    data: viaData,
    headers,
    cookie: cookie ?? fc.constant(undefined),
  });
}

/** A query string from pairs (missing, repeated or extra), sometimes with broken escapes. */
function queryInput(params: Record<string, fc.Arbitrary<string>>) {
  const names = Object.keys(params);
  return fc.record({
    values: fc.record(params, { requiredKeys: [] }),
    repeats: sometimes(fc.tuple(fc.constantFrom(...names), hostileParam)),
    extras: sometimes(
      fc.tuple(
        fc.oneof(
          fc.constantFrom("utm_source", "_data", "index", "__proto__", ""),
          fc.string({ maxLength: 8 }),
        ),
        hostileParam,
      ),
    ),
    corruption: fc.oneof(
      { weight: 3, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: corruption },
    ),
    data: viaData,
  });
}

function queryPath(
  path: string,
  input: {
    values: Partial<Record<string, string>>;
    repeats: [string, string][];
    extras: [string, string][];
    corruption?: [number, string][];
    data: boolean;
  },
) {
  const pairs: [string, string][] = [];
  for (const [name, value] of Object.entries(input.values))
    if (value !== undefined) pairs.push([name, value]);
  const query = new URLSearchParams([...pairs, ...input.repeats, ...input.extras]).toString();
  const search = input.corruption ? splice(query, input.corruption) : query;
  return `${path}${input.data ? ".data" : ""}${search ? `?${search}` : ""}`;
}

/** Page and year numbers, plausible and not. */
const pageValue = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: -3, max: 12 }).map(String) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      "",
      "0",
      "-0",
      "1.0",
      "1.5",
      "01",
      " 2",
      "+1",
      "1e3",
      "1e400",
      "NaN",
      "Infinity",
      "10000",
      "10001",
      "9007199254740993",
      "0x2",
      "abc",
      "1,2",
      "１",
      "2024",
      "2025",
      "2026",
    ),
  },
  { weight: 1, arbitrary: fc.double().map(String) },
  { weight: 1, arbitrary: fc.integer().map(String) },
  { weight: 2, arbitrary: hostileParam },
);

/** Mostly the first page, which every query has. */
const searchPage = fc.oneof(
  { weight: 4, arbitrary: fc.constant("1") },
  { weight: 1, arbitrary: fc.constant("2") },
  { weight: 2, arbitrary: pageValue },
);

const searchText = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...WORDS, "san diego", "story", "O'Brien") },
  { weight: 2, arbitrary: sentence },
  {
    weight: 3,
    arbitrary: fc
      .array(
        fc.oneof(
          fc.constantFrom(...WORDS),
          fc.constantFrom(
            "'",
            '"',
            ":*",
            "&",
            "|",
            "!",
            "(",
            ")",
            "<->",
            "<2>",
            "-",
            " or ",
            " and ",
            " not ",
            " ",
            "\\",
            ":",
            "*",
            "\0",
          ),
        ),
        { maxLength: 10 },
      )
      .map((parts) => parts.join("")),
  },
  { weight: 4, arbitrary: hostileParam },
);

// ---------------------------------------------------------------------------------------------
// Sending, and what the server makes of it.

type Bytes = Uint8Array<ArrayBuffer>;

interface Encoded {
  body: Bytes | ReadableStream<Bytes> | undefined;
  contentType: string | undefined;
  bytes: number;
}

const encoder = new TextEncoder();
const encode = (text: string): Bytes => new Uint8Array(encoder.encode(text));

async function encodeForm(request: FormRequest): Promise<Encoded> {
  const pairs = request.entries.map(([name, value]): [string, string] => [
    name,
    typeof value === "string" ? value : value.file,
  ]);
  const urlencoded = new URLSearchParams(pairs).toString();
  const text = (body: string, contentType: string | undefined): Encoded => {
    const bytes = encode(body);
    return { body: bytes, contentType, bytes: bytes.length };
  };
  switch (request.encoding) {
    case "urlencoded":
      return text(urlencoded, "application/x-www-form-urlencoded");
    case "malformed-urlencoded":
      return text(splice(urlencoded, request.corruption), "application/x-www-form-urlencoded");
    case "odd-content-type":
      return text(urlencoded, request.oddType);
    case "json":
      return text(JSON.stringify(Object.fromEntries(pairs)), "application/json");
    case "text":
      return text(urlencoded, "text/plain;charset=UTF-8");
    case "no-content-type":
      return text(urlencoded, undefined);
    case "empty":
      return { body: undefined, contentType: undefined, bytes: 0 };
    case "chunked": {
      // A stream of unknown length goes out chunked (fetch sends an empty one without a body).
      const bytes = encode(urlencoded || "x=");
      const body = new ReadableStream<Bytes>({
        start(controller) {
          controller.enqueue(bytes);
          controller.close();
        },
      });
      return { body, contentType: "application/x-www-form-urlencoded", bytes: bytes.length };
    }
    case "multipart":
    case "broken-multipart": {
      const form = new FormData();
      for (const [name, value] of request.entries) {
        if (typeof value === "string") form.append(name, value);
        else form.append(name, new Blob([value.file], { type: "text/plain" }), "upload.txt");
      }
      const response = new Response(form);
      const contentType = response.headers.get("content-type") ?? "multipart/form-data";
      let bytes = new Uint8Array(await response.arrayBuffer());
      if (request.encoding === "broken-multipart") {
        // Cut short, or with broken escapes spliced into the parts and boundaries.
        const cut = (request.corruption[0]?.[0] ?? 0) % Math.max(1, bytes.length);
        bytes =
          cut % 2 === 0
            ? bytes.slice(0, cut)
            : encode(splice(new TextDecoder().decode(bytes), request.corruption));
      }
      return { body: bytes, contentType, bytes: bytes.length };
    }
  }
}

const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];

/** The form as the platform's own parser reads these bytes (the server uses the same), or why not. */
async function parseLikeServer(encoded: Encoded): Promise<FormData | "not a form" | "unreadable"> {
  const type = (encoded.contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  if (!FORM_TYPES.includes(type)) return "not a form";
  try {
    const headers = { "Content-Type": encoded.contentType ?? "" };
    return await new Request("http://parse.invalid/", {
      method: "POST",
      headers,
      body: encoded.body instanceof Uint8Array ? encoded.body : "",
    }).formData();
  } catch {
    return "unreadable";
  }
}

type Fields = Partial<Record<string, string>>;

/** The first value of each field, as the forms read them; files count as missing. */
function firstValues(form: FormData): Fields {
  const fields = Object.create(null) as Fields;
  for (const [name, value] of form) {
    if (!(name in fields)) fields[name] = typeof value === "string" ? value : undefined;
  }
  return fields;
}

interface Answer {
  status: number;
  location: string | null;
  setCookie: string | null;
  body: string;
}

/** Markers of an internal leaking into an answer: stack frames, driver errors, source paths. */
const INTERNALS =
  /node_modules|Failed query|ZodError|Unexpected Server Error|\bat \S+ \((?:file:|\/)|\.[jt]sx?:\d+:\d+|ECONNREFUSED|PGlite|DrizzleError/;

/** The target being fuzzed, whose report counts the answers. */
let current: TargetReport | null = null;

async function exchange(
  base: string,
  path: string,
  init: { method: string; headers: Record<string, string>; body?: Encoded["body"] },
): Promise<Answer> {
  const request: RequestInit & { duplex?: "half" } = {
    method: init.method,
    headers: { "Accept-Encoding": "identity", ...init.headers },
    body: init.body,
    redirect: "manual",
    ...(init.body instanceof ReadableStream ? { duplex: "half" } : {}),
  };
  let response = await fetch(`${base}${path}`, request);
  if (response.status === 503 && !(init.body instanceof ReadableStream)) {
    // 503 is how a page answers when the database does not (server/news/load.ts), and on a machine
    // busy enough a pool connection can take longer than the pool waits. Input that causes a 503
    // causes it again; one that passes on a second try is counted apart in the report.
    await response.arrayBuffer();
    if (current)
      current.statuses["503, then retried"] = (current.statuses["503, then retried"] ?? 0) + 1;
    await new Promise((resolve) => setTimeout(resolve, 250));
    response = await fetch(`${base}${path}`, request);
  }
  if (current) {
    current.runs++;
    current.statuses[response.status] = (current.statuses[response.status] ?? 0) + 1;
  }
  return {
    status: response.status,
    location: response.headers.get("location"),
    setCookie: response.headers.get("set-cookie"),
    body: await response.text(),
  };
}

class Mismatch extends Error {
  override name = "Mismatch";
}

function check(condition: boolean, what: string, input: unknown, answer: Answer): void {
  if (condition) return;
  const shown = JSON.stringify(input, (_key, value: unknown) =>
    typeof value === "string" && value.length > 300
      ? `${value.slice(0, 300)}… (${value.length} chars)`
      : value,
  );
  throw new Mismatch(
    `${what}\n  got ${answer.status} ${answer.location ?? ""} ${answer.body.slice(0, 300)}\n  for ${shown}`,
  );
}

/** What every answer must be, whatever was sent. */
function checkCommon(answer: Answer, allowed: readonly number[], input: unknown): void {
  check(answer.status < 500, `a ${answer.status} answer`, input, answer);
  const leak = INTERNALS.exec(answer.body);
  const around = leak ? answer.body.slice(Math.max(0, leak.index - 80), leak.index + 80) : "";
  check(leak === null, `an internal in the answer: …${around}…`, input, answer);
  check(
    allowed.includes(answer.status),
    `status ${answer.status}, expected one of ${allowed.join(", ")}`,
    input,
    answer,
  );
  if (answer.status === 303) {
    const location = answer.location ?? "";
    check(/^\/(?![/\\])/.test(location), `a redirect off the site: ${location}`, input, answer);
  }
}

// ---------------------------------------------------------------------------------------------
// Bookkeeping: answers by status, and what was accepted, to compare with the database.

interface TargetReport {
  target: string;
  database: string;
  runs: number;
  statuses: Record<string, number>;
  stored: number;
  ms: number;
}

const reports: TargetReport[] = [];

afterAll(() => {
  const file = process.env.FUZZ_REPORT;
  if (file) fs.writeFileSync(file, `${JSON.stringify(reports, null, 2)}\n`);
});

interface Ledger {
  /** Normalised addresses of newsletter signups answered as done (honeypot aside). */
  subscribed: Set<string>;
  /** Normalised addresses of contact messages answered as sent (honeypot aside). */
  contacted: string[];
  /** Voter id → options of the valid votes answered as taken (honeypot aside). */
  votes: Map<string, Set<string>>;
}

const VOTERS = [
  "6f1c2d3e-4b5a-4c6d-8e7f-901234567890",
  "0a1b2c3d-4e5f-4a6b-9c8d-7e6f5a4b3c2d",
  "11111111-2222-4333-8444-555555555555",
];

const cookieValue = fc.oneof(
  { weight: 3, arbitrary: fc.constant(undefined) },
  { weight: 2, arbitrary: fc.constantFrom(...VOTERS).map((id) => `poll_voter=${id}`) },
  { weight: 2, arbitrary: fc.uuid().map((id) => `poll_voter=${id}`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(...VOTERS).map((id) => `theme=dark; poll_voter=${id}; x=1`),
  },
  {
    weight: 1,
    arbitrary: fc
      .string({ maxLength: 40 })
      .map((s) => `poll_voter=${s.replace(/[0-9a-f]/gi, "z")}`),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 60 }).filter((s) => !s.includes("poll_voter")) },
);

/** The voter id the request carries, when its cookie holds one. */
function cookieVoter(cookie: string | undefined): string | null {
  for (const part of (cookie ?? "").split(";")) {
    const [name, value] = part.trim().split("=");
    if (name === "poll_voter") return value && UUID.test(value) ? value : null;
  }
  return null;
}

// FUZZ_DATABASE=pglite or postgres runs one of them (resilience/fuzz.ts runs both side by side).
const databases = testDatabases().filter(
  (database) => !process.env.FUZZ_DATABASE || database.name === process.env.FUZZ_DATABASE,
);

describe.each(databases)("fuzzing on $name", (database) => {
  let handle: Awaited<ReturnType<typeof database.open>>;
  let app: Awaited<ReturnType<typeof startTestApp>>;
  const ledger: Ledger = { subscribed: new Set(), contacted: [], votes: new Map() };

  beforeAll(async () => {
    handle = await database.open();
    await handle.migrate();
    // Articles over three years and two categories, so searches find something and archives page.
    for (let i = 0; i < 45; i++) {
      await upsertArticle(handle.db, {
        id: `fuzz-${i}`,
        category: i % 3 === 0 ? "community" : "local-news",
        link: `https://sample.example.org/fuzz-${i}`,
        title: `${WORDS[i % WORDS.length] ?? "harbor"} story ${i}`,
        excerpt: `About the ${WORDS[(i * 7) % WORDS.length] ?? "beach"} and the council, part ${i}.`,
        content: "<p>Body</p>",
        author: "Staff Writer",
        publishedAt: new Date(Date.UTC(2024 + (i % 3), i % 12, 1 + (i % 27))),
      });
    }
    // No page cache, so every answer comes from the loaders; no rate limit in the way.
    // Each post comes from an address of its own (a proxy's X-Forwarded-For), as from many readers:
    // the poll holds a network's votes in a day to a ceiling besides one per browser.
    app = await startTestApp(handle, {
      PAGE_CACHE_MB: "0",
      FORM_RATE_LIMIT: "100000",
      TRUST_PROXY_HOPS: "1",
    });
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await handle?.dispose();
  });

  const storedRows = async () =>
    (await handle.db.$count(newsletterSubscribers)) +
    (await handle.db.$count(contactMessages)) +
    (await handle.db.$count(pollVotes));

  /** Runs `send` on RUNS generated inputs, BATCH at a time, and records the answers. */
  async function fuzz<T>(
    target: string,
    input: fc.Arbitrary<T>,
    send: (value: T) => Promise<void>,
  ) {
    const report: TargetReport = {
      target,
      database: database.name,
      runs: 0,
      statuses: {},
      stored: 0,
      ms: 0,
    };
    const before = await storedRows();
    const started = performance.now();
    current = report;
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(input, { minLength: BATCH, maxLength: BATCH }), async (batch) => {
          // Every request of the batch ends before the next batch (or target) starts.
          const results = await Promise.allSettled(batch.map(send));
          for (const result of results) if (result.status === "rejected") throw result.reason;
        }),
        { numRuns: Math.ceil(RUNS / BATCH), seed: SEED },
      );
    } finally {
      current = null;
      report.ms = Math.round(performance.now() - started);
      report.stored = (await storedRows()) - before;
      reports.push(report);
    }
  }

  let posts = 0;

  /** Encodes and posts a form; the answer's shape is checked by the caller. */
  async function post(path: string, request: FormRequest) {
    const encoded = await encodeForm(request);
    const headers: Record<string, string> = {
      ...request.headers,
      // A /64 of its own: limits count an IPv6 client by its /64.
      "X-Forwarded-For": `2001:db8:${(++posts >> 16).toString(16)}:${(posts & 0xffff).toString(16)}::1`,
    };
    if (encoded.contentType) headers["Content-Type"] = encoded.contentType;
    if (request.cookie) headers.Cookie = request.cookie;
    const answer = await exchange(app.base, request.data ? `${path}.data` : path, {
      method: "POST",
      headers,
      body: encoded.body,
    });
    return { encoded, answer };
  }

  /**
   * What the server must answer before any form logic: 411 without a length, 413 over the limit,
   * 415 for a body that is not a form, 400 for a form that cannot be read; else the form it read.
   */
  async function beforeForm(
    request: FormRequest,
    encoded: Encoded,
  ): Promise<{ status: number } | { form: FormData }> {
    if (request.encoding === "chunked") return { status: 411 };
    if (encoded.bytes > BODY_LIMIT) return { status: 413 };
    const form = await parseLikeServer(encoded);
    if (form === "not a form") return { status: 415 };
    if (form === "unreadable") return { status: 400 };
    return { form };
  }

  /**
   * Posts a form and checks what must be answered before any form logic. The form as the server
   * read it, or null when it never got that far.
   */
  async function postForm(path: string, request: FormRequest) {
    const { encoded, answer } = await post(path, request);
    const parsed = await beforeForm(request, encoded);
    if ("form" in parsed) return { answer, form: parsed.form };
    checkCommon(answer, [parsed.status], request);
    return { answer, form: null };
  }

  const done = (request: FormRequest, inline: boolean) => (inline ? 200 : request.data ? 202 : 303);

  it(
    "POST /newsletter: never a 5xx; accepts exactly the valid addresses",
    async () => {
      const input = formRequest(
        formEntries(
          { email: emailValue },
          {
            returnTo: returnToValue,
            website: honeypot("https://spam.example"),
            _inline: fc.constantFrom("1", "0", ""),
          },
        ),
        sameSiteHeaders(app.base),
      );
      await fuzz("POST /newsletter", input, async (request) => {
        const { answer, form } = await postForm("/newsletter", request);
        if (!form) return;
        const fields = firstValues(form);
        const bot = (fields.website ?? "").trim() !== "";
        const ok = done(request, fields._inline === "1");
        checkCommon(answer, bot ? [ok] : allowedFor(emailVerdict(fields.email), ok), request);
        if (answer.status === ok && !bot)
          ledger.subscribed.add((fields.email ?? "").trim().toLowerCase());
      });
    },
    TIMEOUT,
  );

  it(
    "POST /contact-us: never a 5xx; accepts exactly the valid messages",
    async () => {
      const input = formRequest(
        formEntries(
          { name: nameValue, email: emailValue, category: categoryValue, message: messageValue },
          { website: honeypot("spam") },
        ),
        sameSiteHeaders(app.base),
      );
      await fuzz("POST /contact-us", input, async (request) => {
        const { answer, form } = await postForm("/contact-us", request);
        if (!form) return;
        const fields = firstValues(form);
        const bot = (fields.website ?? "").trim() !== "";
        const ok = done(request, false);
        checkCommon(answer, bot ? [ok] : allowedFor(contactVerdict(fields), ok), request);
        if (answer.status === ok && !bot)
          ledger.contacted.push((fields.email ?? "").trim().toLowerCase());
      });
    },
    TIMEOUT,
  );

  it(
    "POST /community (poll): never a 5xx; counts exactly the valid votes, one per voter",
    async () => {
      const input = formRequest(
        formEntries(
          { option: optionValue },
          { website: honeypot("x"), _inline: fc.constantFrom("1", "0") },
        ),
        sameSiteHeaders(app.base),
        cookieValue,
      );
      await fuzz("POST /community (poll)", input, async (request) => {
        const { answer, form } = await postForm("/community", request);
        if (!form) return;
        const fields = firstValues(form);
        // A vote carries one option: a post with several is refused, whatever their values.
        const options = form.getAll("option");
        const option = options.length === 1 ? options[0] : undefined;
        const bot = (fields.website ?? "").trim() !== "";
        const ok = done(request, fields._inline === "1");
        const valid = typeof option === "string" && OPTIONS.includes(option);
        checkCommon(answer, bot || valid ? [ok] : [400], request);
        if (answer.status === ok && !bot && typeof option === "string") {
          const voter =
            cookieVoter(request.cookie) ?? /poll_voter=([^;]+)/.exec(answer.setCookie ?? "")?.[1];
          check(voter !== undefined, "a vote without a voter cookie", request, answer);
          if (voter) ledger.votes.set(voter, (ledger.votes.get(voter) ?? new Set()).add(option));
        }
      });
    },
    TIMEOUT,
  );

  it(
    "POST from another site's page to any form: always 403",
    async () => {
      const forms = fc.oneof(
        fc.tuple(fc.constant("/newsletter"), formEntries({ email: emailValue }, {})),
        fc.tuple(
          fc.constant("/contact-us"),
          formEntries(
            { name: nameValue, email: emailValue, category: categoryValue, message: messageValue },
            {},
          ),
        ),
        fc.tuple(fc.constant("/community"), formEntries({ option: optionValue }, {})),
      );
      const rest = formRequest(fc.constant([]), crossSiteHeaders(app.base), cookieValue);
      await fuzz("POST from other sites", fc.tuple(forms, rest), async ([[path, entries], r]) => {
        const request: FormRequest = { ...r, entries };
        const { answer } = await post(path, request);
        checkCommon(answer, [403], { path, ...request });
      });
    },
    TIMEOUT,
  );

  /** The query string as the server reads it, and how long the request line is. */
  const sent = (path: string) => {
    const url = new URL(`${app.base}${path}`);
    return { params: url.searchParams, length: url.href.length };
  };

  it(
    "GET /search: never a 5xx; the first page of any query is there",
    async () => {
      const input = queryInput({ q: searchText, page: searchPage });
      await fuzz("GET /search", input, async (query) => {
        const path = queryPath("/search", query);
        const answer = await exchange(app.base, path, { method: "GET", headers: {} });
        const { params, length } = sent(path);
        const page = params.get("page");
        const allowed = page === null || Number(page) === 1 ? [200] : [200, 404];
        checkCommon(answer, length > URL_LIMIT ? [...allowed, 431] : allowed, {
          path: path.slice(0, 2000),
        });
      });
    },
    TIMEOUT,
  );

  it(
    "GET /archives: never a 5xx; any filter shows a page",
    async () => {
      const categories = fc.oneof(
        fc.constantFrom(
          "",
          "local-news",
          "community",
          "politics",
          "business",
          "entertainment",
          "Local-News",
        ),
        hostileParam,
      );
      const input = queryInput({ category: categories, year: pageValue, page: pageValue });
      await fuzz("GET /archives", input, async (query) => {
        const path = queryPath("/archives", query);
        const answer = await exchange(app.base, path, { method: "GET", headers: {} });
        checkCommon(answer, sent(path).length > URL_LIMIT ? [200, 431] : [200], {
          path: path.slice(0, 2000),
        });
      });
    },
    TIMEOUT,
  );

  it("stores only valid rows, exactly those of the accepted submissions", async () => {
    const subscribers = await handle.db.select().from(newsletterSubscribers);
    for (const { email } of subscribers) expect(storedEmailProblem(email), email).toBeNull();
    const emails = subscribers.map((s) => s.email);
    expect(without(emails, [...ledger.subscribed]), "stored, never accepted").toEqual([]);
    expect(without([...ledger.subscribed], emails), "accepted, not stored").toEqual([]);

    const messages = await handle.db.select().from(contactMessages);
    for (const row of messages) {
      const shown = JSON.stringify(row).slice(0, 300);
      expect(storedEmailProblem(row.email), shown).toBeNull();
      expect(row.name, shown).toBe(row.name.trim());
      expect(characters(row.name), shown).toBeGreaterThanOrEqual(1);
      expect(characters(row.name), shown).toBeLessThanOrEqual(100);
      expect(ANY_CONTROL.test(row.name), shown).toBe(false);
      expect(row.message, shown).toBe(row.message.trim());
      expect(characters(row.message), shown).toBeGreaterThanOrEqual(10);
      expect(characters(row.message), shown).toBeLessThanOrEqual(5000);
      expect(CONTROL_BUT_LINE_BREAKS.test(row.message), shown).toBe(false);
      expect(CATEGORY_VALUES, shown).toContain(row.category);
    }
    const senders = messages.map((m) => m.email);
    expect(without(senders, ledger.contacted), "stored, never accepted").toEqual([]);
    expect(without(ledger.contacted, senders), "accepted, not stored").toEqual([]);

    const votes = await handle.db.select().from(pollVotes);
    for (const vote of votes) {
      const shown = JSON.stringify(vote);
      expect(vote.pollId, shown).toBe(CONTENT.community.poll.id);
      expect(OPTIONS, shown).toContain(vote.option);
      expect(vote.voterId, shown).toMatch(UUID);
      expect([...(ledger.votes.get(vote.voterId) ?? [])], shown).toContain(vote.option);
    }
    const voters = votes.map((v) => v.voterId);
    expect(without([...ledger.votes.keys()], voters), "voted, no vote stored").toEqual([]);
    expect(votes.length).toBe(ledger.votes.size);
  });
});
