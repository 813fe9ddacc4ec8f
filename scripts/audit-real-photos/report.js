// The real-photos audit's report: its tables, its verdicts against issue 20's targets, its section.
import { formatMarkdownTable, machineLine, median, medianRun, score } from "../audit-common.js";
import { kb, ms, percent, sortedNumbers } from "./format.js";
import { lcpBreakdown, lighthouseImages, metric, observed } from "./lighthouse.js";
import { PHONE, phoneRequests } from "./phone.js";

const TARGETS = {
  performance: 95,
  /** Real photos' LCP at most this much above the same page's with the sample pictures. */
  lcpRatio: 1.2,
  home375Bytes: 250 * 1024,
  otherOriginImages: 0,
};

/**
 * The section of docs/AUDIT.md from every run's reports (`lhrs`, `appliedLhrs`: by site mode and
 * page name), with its main tables, its verdicts and the minutes the audit took.
 */
export function realPhotosReport({
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
}) {
  const [sample, real] = sites;
  const sizes = photos.photos.map((p) => p.bytes);
  const lighthouseVersion = lhrs.values().next().value[0].lighthouseVersion;
  const chromeVersion = lhrs
    .values()
    .next()
    .value[0].environment?.hostUserAgent?.match(/Chrome\/([\d.]+)/)?.[1];

  const rows = [];
  const pageResults = [];
  for (const page of pages) {
    const result = { page };
    for (const site of sites) {
      const all = lhrs.get(`${site.mode} ${page.name}`);
      const lhr = medianRun(all);
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
      const lhr = medianRun(all);
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
  return { body, table, phoneTable, verdicts, minutes };
}
