// Lighthouse in the real-photos audit: one run of a page, and the figures read from its report.
import lighthouse from "lighthouse";

export const metric = (lhr, id) => lhr.audits[id]?.numericValue ?? 0;
/** A time the browser really took, unthrottled (Lighthouse simulates the slow phone from it). */
export const observed = (lhr, key) => lhr.audits.metrics?.details?.items?.[0]?.[key] ?? 0;

/** Image requests Lighthouse saw: bytes transferred, and those to an origin other than the page's. */
export function lighthouseImages(lhr, origin) {
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
export async function lighthouseRun(url, port, throttlingMethod) {
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

/** The LCP element (its label or snippet) and its phases in milliseconds, by phase name. */
export function lcpBreakdown(lhr) {
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
