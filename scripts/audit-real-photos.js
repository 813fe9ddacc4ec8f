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
import { tsImport } from "tsx/esm/api";
import {
  CHROME_FLAGS,
  REPORT_PATH,
  freePort,
  score,
  startWebProcess,
  step,
  stopWebProcess,
  writeSection,
} from "./audit-common.js";
import { kb, ms } from "./audit-real-photos/format.js";
import { lighthouseImages, lighthouseRun, metric } from "./audit-real-photos/lighthouse.js";
import { PHONE, phoneImageBytes } from "./audit-real-photos/phone.js";
import { realPhotosReport } from "./audit-real-photos/report.js";
import { ingestFeedsAsync, sampleSiteEnv } from "./sample-site.js";

/** Copies made at once while warming a page's pictures (the web process makes one at a time). */
const WARM_CONCURRENCY = 2;

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

    const { body, table, phoneTable, verdicts, minutes } = realPhotosReport({
      pages,
      sites,
      lhrs,
      appliedLhrs,
      appliedThrottling,
      phone,
      photos,
      hostByBrowsers,
      runs: RUNS,
      started,
    });
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

function totalRequests(host) {
  return [...host.requests.values()].reduce((sum, n) => sum + n, 0);
}
