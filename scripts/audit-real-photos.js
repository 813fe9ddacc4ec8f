// `npm run audit -- --real-photos`: the demo site with feeds that link ordinary news photographs
// (JPEG, 1200–2000 px, 200 KB–1 MB: server/test-support/photos.ts) on another host
// (server/test-support/photo-host.ts), as real feeds do, measured side by side with the same site
// on the bundled sample pictures, in one run.
// For the home page, a category and an article, at Lighthouse mobile: performance, LCP, CLS, image
// bytes and image requests to other origins, each run once with Lighthouse's simulated throttling
// and once with the throttling applied to the browser (on this machine the simulation counts
// pictures as delaying the paint that did not: decision 022, "Measuring LCP"); then the home page's
// image bytes in a 375 px wide phone (device pixel ratio 2), scrolled to the bottom so that lazy
// pictures load. Targets of issue 20; --strict fails when one is missed. Writes its own section of
// docs/AUDIT.md. AUDIT_KEEP_REPORTS=<folder> keeps every Lighthouse report (JSON).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { tsImport } from "tsx/esm/api";
import {
  CHROME_FLAGS,
  REPORT_PATH,
  formatMarkdownTable,
  freePort,
  machineLine,
  median,
  score,
  startWebProcess,
  step,
  stopWebProcess,
  writeSection,
} from "./audit-common.js";
import { ingestFeedsAsync, sampleSiteEnv } from "./sample-site.js";

export const TARGETS = {
  performance: 95,
  /** Real photos' LCP at most this much above the same page's with the sample pictures. */
  lcpRatio: 1.2,
  home375Bytes: 250 * 1024,
  otherOriginImages: 0,
};
/** A common phone: 375 CSS pixels wide at twice as many device pixels. */
const PHONE = { width: 375, height: 812, deviceScaleFactor: 2 };
/** Copies made at once while warming a page's pictures (the web process makes one at a time). */
const WARM_CONCURRENCY = 2;

const kb = (bytes) => `${(bytes / 1024).toFixed(0)} KB`;
const ms = (value) => `${Math.round(value)} ms`;
const metric = (lhr, id) => lhr.audits[id]?.numericValue ?? 0;
/** A time the browser really took, unthrottled (Lighthouse simulates the slow phone from it). */
const observed = (lhr, key) => lhr.audits.metrics?.details?.items?.[0]?.[key] ?? 0;
const sortedNumbers = (values) => [...values].sort((a, b) => a - b);
/** A ratio as a signed percentage: 1.14 → "+14 %". */
const percent = (ratio) => `${ratio >= 1 ? "+" : "−"}${Math.abs((ratio - 1) * 100).toFixed(0)} %`;

/** Image requests Lighthouse saw: bytes transferred, and those to an origin other than the page's. */
function lighthouseImages(lhr, origin) {
  const items = lhr.audits["network-requests"]?.details?.items ?? [];
  const images = items.filter((item) => item.resourceType === "Image" && !/^data:/.test(item.url));
  const elsewhere = images.filter((item) => new URL(item.url).origin !== origin);
  return {
    count: images.length,
    bytes: images.reduce((sum, item) => sum + (item.transferSize ?? 0), 0),
    otherOrigins: elsewhere.map((item) => item.url),
  };
}

/**
 * One Lighthouse run of the mobile performance category. `simulate` is Lighthouse's default: the
 * page loads at full speed and the slow phone is simulated from that run; `devtools` slows the
 * browser's network and processor down while the page loads.
 */
async function lighthouseRun(url, port, throttlingMethod) {
  const result = await lighthouse(
    url,
    { port, output: "json", logLevel: "error", onlyCategories: ["performance"] },
    { extends: "lighthouse:default", settings: { throttlingMethod } },
  );
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError)
    throw new Error(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  if (!metric(lhr, "largest-contentful-paint"))
    throw new Error(`${url}: no LCP (${throttlingMethod})`);
  return lhr;
}

/** Runs `task` over `items`, at most `limit` at once. */
async function eachLimited(items, limit, task) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next];
      next += 1;
      await task(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * The page in a phone's browser: image bytes transferred once loaded (the first screen), then
 * after scrolling to the bottom and waiting for the network to settle, and every image request
 * to another origin (blocked ones included: the page asked for them).
 */
async function phoneImageBytes(browser, url) {
  const context = await browser.newContext({
    viewport: { width: PHONE.width, height: PHONE.height },
    deviceScaleFactor: PHONE.deviceScaleFactor,
    isMobile: true,
    hasTouch: true,
  });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
    const requests = new Map();
    cdp.on("Network.requestWillBeSent", (event) => {
      if (event.type === "Image" && !event.request.url.startsWith("data:")) {
        requests.set(event.requestId, { url: event.request.url, bytes: 0 });
      }
    });
    cdp.on("Network.loadingFinished", (event) => {
      const request = requests.get(event.requestId);
      if (request) request.bytes = event.encodedDataLength;
    });
    const sum = () => [...requests.values()].reduce((total, r) => total + r.bytes, 0);
    await page.goto(url, { waitUntil: "load" });
    await page.waitForLoadState("networkidle");
    const firstScreen = sum();
    // Down a screen at a time, as a reader scrolls, so that each lazy picture comes near the viewport.
    for (let y = 0; ; y += PHONE.height * 0.8) {
      const height = await page.evaluate(() => globalThis.document.documentElement.scrollHeight);
      if (y > height) break;
      await page.evaluate((top) => globalThis.scrollTo(0, top), y);
      await page.waitForTimeout(150);
    }
    await page.waitForLoadState("networkidle");
    await page.waitForTimeout(500);
    const origin = new URL(url).origin;
    return {
      firstScreen,
      scrolled: sum(),
      requests: requests.size,
      list: [...requests.values()],
      otherOrigins: [...requests.values()]
        .filter((r) => new URL(r.url).origin !== origin)
        .map((r) => r.url),
    };
  } finally {
    await context.close();
  }
}

/**
 * The real-photos audit: answers the exit code (1 when --strict and a target is missed, or when
 * the run could not be made).
 */
export async function realPhotosAudit({ chromePath, runs: RUNS, strict, started }) {
  const { startRealPhotos } = await tsImport(
    "../server/test-support/photo-feeds.ts",
    import.meta.url,
  );
  const { pagePictures } = await tsImport(
    "../server/test-support/page-pictures.ts",
    import.meta.url,
  );
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "news-audit-photos-"));
  const logLevel = process.env.LOG_LEVEL ?? "warn";
  let photos;
  let chrome;
  let browser;
  const sites = [];
  const cleanUp = async () => {
    await chrome?.kill();
    await browser?.close();
    for (const site of sites) await stopWebProcess(site.server);
    await photos?.close();
    fs.rmSync(work, { recursive: true, force: true });
  };
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.on(signal, async () => {
      await cleanUp();
      process.exit(130);
    });
  }

  try {
    step("Drawing the photos (or reading them from the cache) and starting their host");
    photos = await startRealPhotos({ outDir: path.join(work, "feeds") });
    const sizes = photos.photos.map((p) => p.bytes);
    console.log(
      `  ${photos.photos.length} photos, ${kb(Math.min(...sizes))}–${kb(Math.max(...sizes))}, on ${photos.host.origin}`,
    );

    const samplePort = await freePort(Number(process.env.AUDIT_PORT ?? 3400));
    const photosPort = await freePort(samplePort + 1);
    sites.push(
      {
        mode: "sample",
        label: "sample pictures",
        origin: `http://127.0.0.1:${samplePort}`,
        env: sampleSiteEnv(samplePort, path.join(work, "sample"), { LOG_LEVEL: logLevel }),
      },
      {
        mode: "photos",
        label: "real photos",
        origin: `http://127.0.0.1:${photosPort}`,
        env: sampleSiteEnv(photosPort, path.join(work, "photos"), {
          LOG_LEVEL: logLevel,
          ...photos.env,
        }),
      },
    );

    for (const site of sites) {
      step(`Loading the feeds with ${site.label} into a fresh embedded database`);
      const before = totalRequests(photos.host);
      const ingestStarted = Date.now();
      if (!(await ingestFeedsAsync(site.env))) throw new Error(`Loading the ${site.label} failed.`);
      site.ingestSeconds = (Date.now() - ingestStarted) / 1000;
      site.hostRequestsByIngest = totalRequests(photos.host) - before;
      step(`Serving the site with ${site.label} on ${site.origin}`);
      site.server = await startWebProcess(site.env, site.origin);
    }
    console.log(
      `  Ingest asked the photo host ${sites[1].hostRequestsByIngest} time(s) for its ${photos.photos.length} photos.`,
    );

    const [sample, real] = sites;
    // The same article on both sites: its address ends with a hash of where its feed was read from.
    const articlePaths = {};
    const sampleHome = await (await fetch(`${sample.origin}/`)).text();
    const sampleArticle = sampleHome.match(/href="(\/article\/[^"#?]+)"/)?.[1];
    if (!sampleArticle) throw new Error("No /article/... link found on the home page.");
    articlePaths.sample = sampleArticle;
    const slug = sampleArticle.replace(/-[0-9a-f]+$/, "");
    const realHome = await (await fetch(`${real.origin}/`)).text();
    articlePaths.photos = realHome.match(new RegExp(`href="(${slug}-[0-9a-f]+)"`))?.[1];
    if (!articlePaths.photos) throw new Error(`No ${slug}-… link on the real photos' home page.`);
    const pages = [
      { name: "home", path: () => "/" },
      { name: "category", path: () => "/local-news" },
      { name: "article", path: (site) => articlePaths[site.mode] },
    ];

    // One request each first, so that neither the first render nor the first making of a
    // picture's copies is measured: every copy a page names is asked for once.
    step("Rendering each page once and making the copies of the pictures it names");
    for (const site of sites) {
      site.named = {};
      for (const page of pages) {
        const response = await fetch(`${site.origin}${page.path(site)}`);
        if (!response.ok)
          throw new Error(`${site.label}: ${page.path(site)} answered ${response.status}.`);
        const pictures = pagePictures(await response.text(), site.origin);
        site.named[page.name] = pictures;
        const warmStarted = Date.now();
        await eachLimited(pictures.stored, WARM_CONCURRENCY, async (picturePath) => {
          const copy = await fetch(`${site.origin}${picturePath}`);
          await copy.arrayBuffer();
          if (!copy.ok) throw new Error(`${site.label}: ${picturePath} answered ${copy.status}.`);
        });
        console.log(
          `  ${site.label}, ${page.name}: names ${pictures.stored.length} stored copies (made in ${((Date.now() - warmStarted) / 1000).toFixed(1)} s), ${pictures.site.length} site pictures, ${pictures.otherOrigins.length} on other origins`,
        );
      }
    }

    step(`Lighthouse, ${RUNS} run(s) per page and picture set, Chromium at ${chromePath}`);
    const hostBeforeBrowsers = totalRequests(photos.host);
    chrome = await chromeLauncher.launch({ chromePath, chromeFlags: CHROME_FLAGS });
    const lhrs = new Map();
    /** The reports of the runs with the throttling applied, by site and page. */
    const appliedLhrs = new Map();
    let appliedThrottling;
    // Alternating the two sites, so that a busy moment on the machine falls on both alike.
    for (let run = 1; run <= RUNS; run += 1) {
      for (const page of pages) {
        for (const site of sites) {
          const url = `${site.origin}${page.path(site)}`;
          const lhr = await lighthouseRun(url, chrome.port, "simulate");
          // The same phone with the throttling applied to the browser: its LCP is the paint the
          // browser really made on the slow line, with no simulation built on the fast run.
          const applied = await lighthouseRun(url, chrome.port, "devtools");
          appliedThrottling = applied.configSettings.throttling;
          const appliedLcp = metric(applied, "largest-contentful-paint");
          const key = `${site.mode} ${page.name}`;
          lhrs.set(key, [...(lhrs.get(key) ?? []), lhr]);
          appliedLhrs.set(key, [...(appliedLhrs.get(key) ?? []), applied]);
          // AUDIT_KEEP_REPORTS=<folder> keeps every Lighthouse report, to see what a page asked for when.
          const folder = process.env.AUDIT_KEEP_REPORTS;
          if (folder) {
            fs.mkdirSync(folder, { recursive: true });
            const name = `${site.mode}-${page.name}-${run}`;
            fs.writeFileSync(path.join(folder, `${name}.json`), JSON.stringify(lhr));
            fs.writeFileSync(path.join(folder, `${name}-applied.json`), JSON.stringify(applied));
          }
          const images = lighthouseImages(lhr, site.origin);
          console.log(
            `  ${page.name}, ${site.label} ${run}/${RUNS}: performance ${score(lhr, "performance")}, LCP ${ms(metric(lhr, "largest-contentful-paint"))} (applied throttling ${ms(appliedLcp)}), images ${kb(images.bytes)}`,
          );
        }
      }
    }
    await chrome.kill();
    chrome = undefined;

    step(`The home page at ${PHONE.width} px (device pixel ratio ${PHONE.deviceScaleFactor})`);
    browser = await chromium.launch({
      executablePath: chromePath,
      args: ["--disable-background-networking", "--disable-component-update", "--no-first-run"],
    });
    const phone = {};
    for (const site of sites) {
      phone[site.mode] = await phoneImageBytes(browser, `${site.origin}/`);
      console.log(
        `  ${site.label}: ${kb(phone[site.mode].firstScreen)} on load, ${kb(phone[site.mode].scrolled)} scrolled to the bottom (${phone[site.mode].requests} image requests)`,
      );
    }
    const hostByBrowsers = totalRequests(photos.host) - hostBeforeBrowsers;
    const lighthouseVersion = lhrs.values().next().value[0].lighthouseVersion;
    const chromeVersion = lhrs
      .values()
      .next()
      .value[0].environment?.hostUserAgent?.match(/Chrome\/([\d.]+)/)?.[1];

    // --- Report ------------------------------------------------------------------------------------

    const rows = [];
    const pageResults = [];
    for (const page of pages) {
      const result = { page };
      for (const site of sites) {
        const all = lhrs.get(`${site.mode} ${page.name}`);
        const lhr = median(
          [...all].sort((a, b) => score(a, "performance") - score(b, "performance")),
        );
        const lcps = sortedNumbers(all.map((r) => metric(r, "largest-contentful-paint")));
        const images = lighthouseImages(lhr, site.origin);
        const otherOrigins = new Set(
          all.flatMap((r) => lighthouseImages(r, site.origin).otherOrigins),
        );
        const appliedAll = appliedLhrs.get(`${site.mode} ${page.name}`);
        const applied = sortedNumbers(appliedAll.map((r) => metric(r, "largest-contentful-paint")));
        result[site.mode] = {
          performance: score(lhr, "performance"),
          lcp: median(lcps),
          appliedLcp: median(applied),
          appliedLcps: applied,
          appliedPerformance: appliedAll.map((r) => score(r, "performance")),
          appliedElement: lcpBreakdown(appliedAll[0]).element,
          cls: metric(lhr, "cumulative-layout-shift"),
          images,
          otherOrigins: otherOrigins.size,
        };
        rows.push([
          site === sample ? `${page.name} (\`${page.path(site)}\`)` : "",
          site.label,
          RUNS > 1
            ? `${score(lhr, "performance")} (${all.map((r) => score(r, "performance")).join(", ")})`
            : score(lhr, "performance"),
          RUNS > 1 ? `${ms(median(lcps))} (${lcps.map(ms).join(", ")})` : ms(lcps[0]),
          metric(lhr, "cumulative-layout-shift").toFixed(3),
          `${kb(images.bytes)} (${images.count})`,
          otherOrigins.size,
        ]);
      }
      pageResults.push(result);
    }
    const table = formatMarkdownTable(
      [
        "page",
        "pictures",
        "performance",
        "LCP",
        "CLS",
        "image bytes (requests)",
        "image addresses on other origins",
      ],
      rows,
    );
    // Where each page's LCP time goes, in the median run of each site (Lighthouse's LCP element audit).
    const lcpRows = [];
    for (const page of pages) {
      for (const site of sites) {
        const all = lhrs.get(`${site.mode} ${page.name}`);
        const lhr = median(
          [...all].sort((a, b) => score(a, "performance") - score(b, "performance")),
        );
        const { element, phases } = lcpBreakdown(lhr);
        lcpRows.push([
          site === sample ? page.name : "",
          site.label,
          element,
          ...["TTFB", "Load Delay", "Load Time", "Render Delay"].map((phase) =>
            phases.has(phase) ? ms(phases.get(phase)) : "–",
          ),
          `${ms(observed(lhr, "observedLoad"))} / ${ms(observed(lhr, "observedFirstContentfulPaint"))}`,
        ]);
      }
    }
    const lcpTable = formatMarkdownTable(
      [
        "page",
        "pictures",
        "LCP element",
        "TTFB",
        "load delay",
        "load time",
        "render delay",
        "seen: load / first paint",
      ],
      lcpRows,
    );
    const appliedTable = formatMarkdownTable(
      [
        "page",
        "LCP, sample pictures",
        "LCP, real photos",
        "real photos against sample",
        "performance, sample / real",
        "LCP element, real photos",
      ],
      pageResults.map(({ page, sample: s, photos: p }) => [
        page.name,
        `${ms(s.appliedLcp)} (${s.appliedLcps.map(ms).join(", ")})`,
        `${ms(p.appliedLcp)} (${p.appliedLcps.map(ms).join(", ")})`,
        percent(p.appliedLcp / s.appliedLcp),
        `${s.appliedPerformance.join(", ")} / ${p.appliedPerformance.join(", ")}`,
        p.appliedElement,
      ]),
    );
    const phoneTable = formatMarkdownTable(
      [
        "home (`/`)",
        "image bytes on load",
        "scrolled to the bottom",
        "image requests",
        "to other origins",
      ],
      sites.map((site) => [
        site.label,
        kb(phone[site.mode].firstScreen),
        kb(phone[site.mode].scrolled),
        phone[site.mode].requests,
        phone[site.mode].otherOrigins.length,
      ]),
    );

    const verdicts = [];
    const verdict = (pass, text) =>
      verdicts.push({ pass, text: `${pass ? "PASS" : "MISS"}: ${text}` });
    for (const { page, photos: p, sample: s } of pageResults) {
      const appliedScore = median(sortedNumbers(p.appliedPerformance));
      verdict(
        p.performance >= TARGETS.performance,
        `${page.name}, real photos: performance simulated ${p.performance} (target ≥ ${TARGETS.performance})`,
      );
      verdict(
        appliedScore >= TARGETS.performance,
        `${page.name}, real photos: performance under applied throttling ${appliedScore} (target ≥ ${TARGETS.performance})`,
      );
      const limit = `target ≤ +${Math.round((TARGETS.lcpRatio - 1) * 100)} %`;
      verdict(
        p.lcp / s.lcp <= TARGETS.lcpRatio,
        `${page.name}, real photos: LCP simulated ${ms(p.lcp)}, ${percent(p.lcp / s.lcp)} from the sample pictures' ${ms(s.lcp)} (${limit})`,
      );
      verdict(
        p.appliedLcp / s.appliedLcp <= TARGETS.lcpRatio,
        `${page.name}, real photos: LCP under applied throttling ${ms(p.appliedLcp)}, ${percent(p.appliedLcp / s.appliedLcp)} from the sample pictures' ${ms(s.appliedLcp)} (${limit})`,
      );
      verdict(
        p.cls.toFixed(3) === "0.000",
        `${page.name}, real photos: CLS ${p.cls.toFixed(3)} (target 0)`,
      );
      verdict(
        p.otherOrigins === TARGETS.otherOriginImages,
        `${page.name}, real photos: ${p.otherOrigins} image address(es) on other origins under Lighthouse (target 0)`,
      );
    }
    verdict(
      phone.photos.scrolled <= TARGETS.home375Bytes,
      `home, real photos, ${PHONE.width} px scrolled to the bottom: ${kb(phone.photos.scrolled)} of images (target ≤ ${kb(TARGETS.home375Bytes)})`,
    );
    verdict(
      phone.photos.otherOrigins.length === 0,
      `home, real photos, ${PHONE.width} px: ${phone.photos.otherOrigins.length} image request(s) to other origins (target 0)`,
    );

    const noneStored = pages.every((page) => real.named[page.name].stored.length === 0);
    const storedNamed = pages.map((page) => `${page.name} ${real.named[page.name].stored.length}`);
    const minutes = ((Date.now() - started) / 60_000).toFixed(1);
    const body = [
      `${machineLine()}; Lighthouse ${lighthouseVersion}, Chromium ${chromeVersion ?? "unknown"}; mobile form factor, performance only, each run twice: with simulated throttling (Lighthouse's default, the first table) and with the throttling applied to the browser. Two copies of the demo site side by side in one run: one on the bundled sample feeds (their pictures are small SVGs on our origin), one on the same feeds with every picture replaced by a link to one of ${photos.photos.length} news photographs (JPEG, ${Math.min(...photos.photos.map((p) => p.width))}–${Math.max(...photos.photos.map((p) => p.width))} px wide, ${kb(Math.min(...sizes))}–${kb(Math.max(...sizes))}, one from a phone with EXIF orientation and GPS: \`server/test-support/photos.ts\`) on another host, ${new URL(photos.host.origin).hostname} (\`server/test-support/photo-host.ts\`: ETag, Last-Modified, \`image/jpeg\`), round-robin, one photo per item, ingested with \`IMAGE_FETCH_ALLOW_PRIVATE=true\`. ${RUNS} run(s) per page and site, alternating; the run with the median performance score is shown (all scores in brackets), and the median LCP of all runs (all in brackets). Before measuring, each page was rendered once and every stored copy of a picture it names was asked for once (${storedNamed.join(", ")} copies with real photos${noneStored ? "; the pages name no stored pictures yet but link the photo host's" : ""}), so that the figures are those of a reader after the first. The whole run took ${minutes} min.`,
      table,
      `Image bytes: transferred, as Lighthouse's 412 px wide phone loaded the page without scrolling. Addresses on other origins: distinct image requests to any origin but the page's over all runs.`,
      `Where the LCP time goes, in the run shown above (Lighthouse's phases of the largest contentful paint: time to first byte, then until the LCP resource is asked for, while it loads, and until it is painted; last, what the browser really took, unthrottled, from which Lighthouse simulates the phone: a first paint long after the load event means the browser held its frames back, and then every request finished before that paint is counted as delaying it):`,
      lcpTable,
      `LCP with the throttling applied to the browser (Lighthouse's \`throttlingMethod: "devtools"\`: the same phone, its processor ${appliedThrottling.cpuSlowdownMultiplier}× slower, ${(appliedThrottling.downloadThroughputKbps / 1024).toFixed(2)} Mbit/s down and ${Math.round(appliedThrottling.requestLatencyMs)} ms added to every request while the page loads, so the paint measured is the one the browser made), in the same runs, median (all runs in brackets):`,
      appliedTable,
      `### The home page on a ${PHONE.width} px phone`,
      `Chromium through Playwright, ${PHONE.width} × ${PHONE.height} CSS px at a device pixel ratio of ${PHONE.deviceScaleFactor}, cache off: image bytes transferred once the page loaded, then after scrolling to the bottom a screen at a time and waiting for the network to settle (lazy pictures included).`,
      phoneTable,
      `Real photos at ${PHONE.width} px, each image request: ${phoneRequests(phone.photos, real.origin)}.`,
      `Ingest asked the photo host for photos ${sites[1].hostRequestsByIngest} time(s) (in ${sites[1].ingestSeconds.toFixed(1)} s); the readers' browsers of this run (Lighthouse and the ${PHONE.width} px phone), ${hostByBrowsers} time(s).`,
      `### Targets (issue 20)`,
      verdicts.map((v) => `- ${v.text}`).join("\n"),
    ].join("\n\n");
    await writeSection("real-photos", "Real photos, mobile", body);

    console.log(`\n${table}\n\n${phoneTable}\n`);
    for (const v of verdicts) console.log(`${v.pass ? "✓" : strict ? "✖" : "!"} ${v.text}`);
    console.log(`Results written to ${REPORT_PATH} (${minutes} min).`);
    return strict && verdicts.some((v) => !v.pass) ? 1 : 0;
  } catch (error) {
    console.error(`✖ ${error.message}`);
    return 1;
  } finally {
    await cleanUp();
  }
}

/** The LCP element (its label or snippet) and its phases in milliseconds, by phase name. */
function lcpBreakdown(lhr) {
  const phases = new Map();
  let element = "–";
  const items = lhr.audits["largest-contentful-paint-element"]?.details?.items ?? [];
  for (const table of items) {
    for (const row of table.items ?? []) {
      if (row.node) {
        const tag = /^<([a-z0-9-]+)/i.exec(row.node.snippet ?? "")?.[1] ?? "?";
        const label = (row.node.nodeLabel || "").replace(/\s+/g, " ").replace(/`/g, "'");
        element = `\`<${tag}>\` ${label.slice(0, 50)}`;
      }
      if (row.phase && typeof row.timing === "number") phases.set(row.phase, row.timing);
    }
  }
  return { element, phases };
}

/** A phone run's image requests, largest first: address (hashes shortened) and bytes. */
function phoneRequests(run, origin) {
  return [...run.list]
    .sort((a, b) => b.bytes - a.bytes)
    .map((r) => {
      const address = r.url.startsWith(origin) ? r.url.slice(origin.length) : r.url;
      return `\`${address.replace(/[0-9a-f]{64}/, (hash) => `${hash.slice(0, 8)}…`)}\` ${kb(r.bytes)}`;
    })
    .join(", ");
}

function totalRequests(host) {
  return [...host.requests.values()].reduce((sum, n) => sum + n, 0);
}
