import { afterEach, describe, expect, it, vi } from "vitest";
import { loadContent } from "../../server/content/load";
import { renderInRouter } from "../lib/test-render";
import { Footer } from "./Footer";

const serverZone = process.env.TZ;
afterEach(() => {
  vi.useRealTimers();
  if (serverZone === undefined) delete process.env.TZ;
  else process.env.TZ = serverZone;
});

describe("Footer", () => {
  it("dates its copyright by San Diego's year, whatever the server's time zone", async () => {
    // 8 p.m. on New Year's Eve in San Diego: already 2027 in UTC, where servers usually run.
    process.env.TZ = "UTC";
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2027-01-01T04:00:00Z"));
    const html = await renderInRouter("/", <Footer site={loadContent("content").site} />);
    expect(html).toMatch(/© (<!-- -->)?2026/);
  });
});
