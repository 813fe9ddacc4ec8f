/** The machines check's scenarios: pictures from every origin, a take-down, a banner, a kill. */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pagePictures } from "../../server/test-support/page-pictures";
import { sampleSiteEnv } from "../../scripts/sample-site.js";
import { staffClient } from "../../server/staff/test-client";
import { dateToSanDiegoLocal } from "../../shared/san-diego-time";
import type { Verdict } from "../check";
import { get, stopChild, type Child } from "../processes";
import { bannerOf, decodes, getBytes, pool, reached, seconds } from "./probes";
import { varnishHit } from "./varnish";

export type MachineName = "machine-1" | "machine-2";

/** The longest a change may take to reach the other machine and Varnish. */
const REACH_MS = 2_000;
/** Copies asked of machine 1 at once before it is killed: focused cuts no page names. */
const KILL_FOCI = [
  [10, 20],
  [30, 70],
  [60, 40],
  [85, 15],
  [45, 90],
  [20, 55],
] as const;
const PASSWORD = "machines check password, long enough";
const EDITOR = "editor@machines.example.org";

/** The running machines, Varnish and bucket, as the scenarios reach them. */
export interface Cluster {
  /** A machine's own address. */
  base: (machine: MachineName) => string;
  varnishUrl: string;
  /** The check's folder, with each machine's data folder named after it. */
  work: string;
  /** The category pages' paths. */
  categories: string[];
  machine1: Child;
  /** Children stopped on purpose: their end is no failure. */
  killed: Set<Child>;
  /** Polls `test` until it holds, failing early when a machine or Varnish stops. */
  waitUntil: (what: string, test: () => Promise<boolean>, timeoutMs: number) => Promise<number>;
  /** Every key in the bucket. */
  listKeys: () => Promise<string[]>;
  /** The bytes of the bucket's object `key`. */
  readObject: (key: string) => Promise<Uint8Array>;
}

/** What the scenarios found: each requirement met or not, and the figures of the report's table. */
export interface Findings {
  verdicts: Verdict[];
  rows: (string | number)[][];
}

/**
 * 1. Every picture address on either machine's pages answers from both machines and through
 * Varnish. Answers the hashes of the pictures the pages name.
 */
export async function picturesEverywhere(
  cluster: Cluster,
  { verdicts, rows }: Findings,
): Promise<string[]> {
  const { base, varnishUrl, categories } = cluster;
  console.log("machines: every picture address on the home and category pages, from each…");
  const pages = ["/", ...categories];
  const addresses = new Set<string>();
  const pageStatus: string[] = [];
  for (const machine of ["machine-1", "machine-2"] as const) {
    for (const page of pages) {
      const answer = await get(`${base(machine)}${page}`);
      if (answer.status !== 200) pageStatus.push(`${machine} ${page} ${answer.status}`);
      for (const address of pagePictures(answer.body, varnishUrl).stored) addresses.add(address);
    }
  }
  const hashes = [...new Set([...addresses].map((a) => a.split("/")[2] ?? ""))];
  const list = [...addresses];
  const picturesStarted = Date.now();
  // Machine 2 first: it has no folder of pictures, so each answer comes from the bucket or is
  // made from the bucket's original there and then.
  const answered = { "machine-2": 0, "machine-1": 0, varnish: 0 };
  const failures: string[] = [];
  for (const [who, origin] of [
    ["machine-2", base("machine-2")],
    ["machine-1", base("machine-1")],
    ["varnish", varnishUrl],
  ] as const) {
    const results = await pool(list, 4, (address) => getBytes(`${origin}${address}`));
    results.forEach((result, i) => {
      if (result.status === 200 && result.type.startsWith("image/")) answered[who]++;
      else if (failures.length < 5) failures.push(`${who} ${list[i]} ${result.status}`);
    });
  }
  const picturesMs = Date.now() - picturesStarted;
  const allAnswered = Object.values(answered).every((n) => n === list.length);
  // The pictures are the bucket's: neither machine keeps any in its own folder.
  const localFiles = (["machine-1", "machine-2"] as const).reduce(
    (n, machine) => n + filesUnder(path.join(cluster.work, machine, "pictures")),
    0,
  );
  verdicts.push({
    pass:
      list.length > 0 &&
      hashes.length > 0 &&
      allAnswered &&
      pageStatus.length === 0 &&
      localFiles === 0,
    text: `every picture address on either machine's home and ${categories.length} category pages answers 200 from both machines and through Varnish: ${list.length} addresses of ${hashes.length} pictures; machine 2 (asked first) ${answered["machine-2"]}, machine 1 ${answered["machine-1"]}, Varnish ${answered.varnish} (${seconds(picturesMs)} for all three); picture files in the machines' own folders: ${localFiles}${failures.length > 0 ? `; failed: ${failures.join(", ")}` : ""}${pageStatus.length > 0 ? `; pages not 200: ${pageStatus.join(", ")}` : ""}`,
  });
  rows.push([
    "picture addresses answered (machine 2, machine 1, Varnish)",
    `${answered["machine-2"]}, ${answered["machine-1"]}, ${answered.varnish} of ${list.length}`,
  ]);
  return hashes;
}

/** Staff: an editor added the way an operator does (`news staff add`). */
export function addEditor(databaseUrl: string): void {
  const added = spawnSync(
    process.execPath,
    [
      "--import",
      "tsx",
      "cli/news.ts",
      "staff",
      "add",
      EDITOR,
      "--role",
      "editor",
      "--password-stdin",
    ],
    { input: `${PASSWORD}\n`, encoding: "utf8", env: machineEnvFor(databaseUrl) },
  );
  if (added.status !== 0) throw new Error(`news staff add failed:\n${added.stderr}`);
}

/** 2. A take-down on machine 1: 410 on machine 2 and through Varnish within 2 s. */
export async function takeDown({ base, varnishUrl }: Cluster, { verdicts, rows }: Findings) {
  console.log("machines: a take-down on machine 1, seen on machine 2 and through Varnish…");
  const home = await get(`${varnishUrl}/`);
  const story = /href="\/article\/([^"#?]+)"/.exec(home.body)?.[1];
  if (!story) throw new Error("the home page links no article");
  const article = `/article/${story}`;
  // Both caches keep the story's page: machine 2's own page cache and Varnish.
  for (let i = 0; i < 2; i++) {
    await get(`${base("machine-2")}${article}`);
    await get(`${varnishUrl}${article}`);
  }
  const cachedBefore = `machine 2 ${String((await get(`${base("machine-2")}${article}`)).headers["x-cache"])}, Varnish ${varnishHit(await get(`${varnishUrl}${article}`)) ? "HIT" : "MISS"}`;
  const one = staffClient({ base: () => base("machine-1"), password: PASSWORD });
  const signedIn1 = await one.signedIn(EDITOR, `/newsroom/stories/${story}`);
  const down = await one.post(
    `/newsroom/stories/${story}`,
    { _csrf: signedIn1.csrf, intent: "take-down", reason: "Legal request" },
    signedIn1.cookie,
  );
  const downAt = Date.now();
  if (down.status !== 303) throw new Error(`the take-down answered ${down.status}`);
  const [goneOn2, goneVarnish] = await Promise.all([
    reached(
      () => get(`${base("machine-2")}${article}`),
      (a) => a.status === 410,
    ),
    reached(
      () => get(`${varnishUrl}${article}`),
      (a) => a.status === 410,
    ),
  ]);
  const homeAfter = await get(`${varnishUrl}/`);
  const offHome = !homeAfter.body.includes(`/article/${story}"`);
  const took = (at: number | null) =>
    at === null ? `not within ${seconds(10_000)}` : seconds(at - downAt);
  verdicts.push({
    pass:
      goneOn2 !== null &&
      goneVarnish !== null &&
      goneOn2 - downAt <= REACH_MS &&
      goneVarnish - downAt <= REACH_MS &&
      offHome,
    text: `a take-down posted to machine 1's newsroom (signed in as an editor added with \`news staff add\`) answers 410 on machine 2 after ${took(goneOn2)} and through Varnish after ${took(goneVarnish)} (at most ${seconds(REACH_MS)}; cached before: ${cachedBefore}); the home page through Varnish then ${offHome ? "no longer links it" : "STILL LINKS IT"}`,
  });
  rows.push(["take-down on machine 1 → 410 on machine 2", took(goneOn2)]);
  rows.push(["take-down on machine 1 → 410 through Varnish", took(goneVarnish)]);
}

/** 3. A banner set on machine 2 shows on machine 1 and through Varnish within 2 s. */
export async function banner({ base, varnishUrl }: Cluster, { verdicts, rows }: Findings) {
  console.log("machines: a banner set on machine 2, seen on machine 1 and through Varnish…");
  const text = `Machines check banner ${randomBytes(3).toString("hex")}`;
  for (let i = 0; i < 2; i++) {
    await get(`${base("machine-1")}/`);
    await get(`${varnishUrl}/`);
  }
  const homeCached = `machine 1 ${String((await get(`${base("machine-1")}/`)).headers["x-cache"])}, Varnish ${varnishHit(await get(`${varnishUrl}/`)) ? "HIT" : "MISS"}`;
  const two = staffClient({ base: () => base("machine-2"), password: PASSWORD });
  const signedIn2 = await two.signedIn(EDITOR, "/newsroom/banner");
  const set = await two.post(
    "/newsroom/banner",
    {
      _csrf: signedIn2.csrf,
      intent: "set",
      text,
      link: "",
      expires: dateToSanDiegoLocal(new Date(Date.now() + 3 * 3_600_000)),
    },
    signedIn2.cookie,
  );
  const setAt = Date.now();
  if (set.status !== 303) throw new Error(`setting the banner answered ${set.status}`);
  const [bannerOn1, bannerVarnish] = await Promise.all([
    reached(
      () => get(`${base("machine-1")}/`),
      (a) => bannerOf(a.body).includes(text),
    ),
    reached(
      () => get(`${varnishUrl}/`),
      (a) => bannerOf(a.body).includes(text),
    ),
  ]);
  const tookBanner = (at: number | null) =>
    at === null ? `not within ${seconds(10_000)}` : seconds(at - setAt);
  verdicts.push({
    pass:
      bannerOn1 !== null &&
      bannerVarnish !== null &&
      bannerOn1 - setAt <= REACH_MS &&
      bannerVarnish - setAt <= REACH_MS,
    text: `a banner set in machine 2's newsroom shows on machine 1's home page after ${tookBanner(bannerOn1)} and through Varnish after ${tookBanner(bannerVarnish)} (at most ${seconds(REACH_MS)}; cached before: ${homeCached})`,
  });
  rows.push(["banner on machine 2 → machine 1", tookBanner(bannerOn1)]);
  rows.push(["banner on machine 2 → Varnish", tookBanner(bannerVarnish)]);
}

/**
 * 4. Machine 1 killed while making copies of the pictures `hashes`: machine 2 answers them all,
 * and every object in the bucket decodes.
 */
export async function killMidCopy(
  cluster: Cluster,
  { verdicts, rows }: Findings,
  hashes: readonly string[],
) {
  const { base, machine1 } = cluster;
  console.log("machines: machine 1 asked for many new copies at once, then killed (SIGKILL)…");
  const killList = hashes.flatMap((hash) =>
    KILL_FOCI.map(([x, y], i) =>
      i % 2 === 0
        ? `/images/${hash}/wide-f${x}x${y}-1200.avif`
        : `/images/${hash}/og-f${x}x${y}.jpg`,
    ),
  );
  const outcome = new Map<string, number>();
  const asked = killList.map((address) =>
    getBytes(`${base("machine-1")}${address}`, 60_000).then((r) => {
      outcome.set(address, r.status);
      return r;
    }),
  );
  // Killed once a few copies are done and the rest are still being made.
  const enough = Math.max(2, Math.floor(killList.length / 5));
  await cluster.waitUntil(
    "machine 1 to have made a few of the copies",
    async () => [...outcome.values()].filter((s) => s === 200).length >= enough,
    60_000,
  );
  const doneAtKill = [...outcome.values()].filter((s) => s === 200).length;
  cluster.killed.add(machine1);
  const killedAt = Date.now();
  await stopChild(machine1, "SIGKILL");
  await Promise.all(asked);
  const cutShortList = killList.filter((a) => outcome.get(a) !== 200);
  const cutShort = cutShortList.length;
  // Which of those machine 1 had stored before it died (made, but never answered).
  const storedAtKill = new Set(await cluster.listKeys());
  const storedCutShort = cutShortList.filter((a) =>
    storedAtKill.has(`variants/${a.slice("/images/".length)}`),
  ).length;
  const after = await pool(killList, 4, async (address) => {
    const r = await getBytes(`${base("machine-2")}${address}`);
    return { address, ok: r.status === 200 && (await decodes(r.bytes)) };
  });
  const servedBy2 = after.filter((r) => r.ok).length;
  const afterKillMs = Date.now() - killedAt;

  // Every object in the bucket, read back and decoded.
  const keys = await cluster.listKeys();
  const pictureKeys = keys.filter((key) => /^(originals|variants)\//.test(key));
  const broken: string[] = [];
  await pool(pictureKeys, 2, async (key) => {
    if (!(await decodes(await cluster.readObject(key)))) broken.push(key);
  });
  const variants = pictureKeys.filter((key) => key.startsWith("variants/")).length;
  verdicts.push({
    pass:
      cutShort > 0 &&
      servedBy2 === killList.length &&
      broken.length === 0 &&
      pictureKeys.length > 0,
    text: `machine 1 killed (SIGKILL, with its picture maker) while making ${killList.length} new copies asked at once: ${doneAtKill} answered, ${cutShort} cut short (${storedCutShort} of them already in the bucket); machine 2 then answered all ${killList.length} with a picture that decodes: ${servedBy2} (${seconds(afterKillMs)} after the kill); every object in the bucket decodes with sharp: ${pictureKeys.length - broken.length} of ${pictureKeys.length} (${variants} copies, ${pictureKeys.length - variants} originals)${broken.length > 0 ? `; broken: ${broken.slice(0, 5).join(", ")}` : ""}`,
  });
  rows.push([
    "copies cut short by the kill, then answered by machine 2",
    `${servedBy2} of ${killList.length} (${cutShort} cut short)`,
  ]);
  rows.push([
    "objects in the bucket that decode",
    `${pictureKeys.length - broken.length} of ${pictureKeys.length}`,
  ]);
}

/** The environment `news staff add` runs with: the shared database, nothing of the shell's site. */
function machineEnvFor(databaseUrl: string): NodeJS.ProcessEnv {
  return sampleSiteEnv(0, path.join(os.tmpdir(), "machines-cli-unused"), {
    DATABASE_URL: databaseUrl,
    PORT: "3000",
  });
}

/** How many files there are under `dir` (0 when it does not exist). */
function filesUnder(dir: string): number {
  if (!fs.existsSync(dir)) return 0;
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile()).length;
}
