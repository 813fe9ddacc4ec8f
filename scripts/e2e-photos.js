// Photos for the browser tests' site, as real feeds link them: JPEGs on a publisher's own host.
// They are made with sharp when the site starts (no binaries in the repository), served from a
// second origin on the loopback address while ingest fetches them, and named by a copy of the
// Local News sample feed; the pages then show the copies our own origin serves (decision 022).
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import sharp from "sharp";

/** The sample feed whose pictures become photos: the same stories, so every count stays true. */
export const PHOTO_FEED = { category: "local-news", file: "fixtures/feeds/local-news.xml" };

/**
 * The photos by the name of the sample picture each replaces, with their sizes: mostly 3:2, as
 * cameras take them, some 16:9 and 4:3, one taller than wide, and one no wider than 900 px.
 */
export const PHOTOS = {
  harbor: { width: 1800, height: 1200, sky: "#7fb2d9", ground: "#1f4e6e", sun: "#f7d774" },
  "archive-columns": {
    width: 1600,
    height: 1067,
    sky: "#d9c7a7",
    ground: "#7a6a55",
    sun: "#fff4d6",
  },
  beach: { width: 1600, height: 900, sky: "#9fd3f0", ground: "#e3c98f", sun: "#ffe08a" },
  freeway: { width: 1600, height: 1200, sky: "#b7c4cf", ground: "#4a4f55", sun: "#ffd27a" },
  "city-hall": { width: 1600, height: 1067, sky: "#a9c9e8", ground: "#8c8f91", sun: "#fff1b8" },
  "farmers-market": {
    width: 1600,
    height: 1067,
    sky: "#f2c48d",
    ground: "#6b8e3a",
    sun: "#ffe6a6",
  },
  desert: { width: 1200, height: 1500, sky: "#f4b679", ground: "#c7844b", sun: "#fff0c2" },
  houses: { width: 1600, height: 1067, sky: "#bcd7ea", ground: "#5d7f4f", sun: "#ffeaa1" },
  ballpark: { width: 1600, height: 900, sky: "#6fa8dc", ground: "#3f8f3f", sun: "#fff6c9" },
  skyline: { width: 1600, height: 1067, sky: "#f29e6d", ground: "#2d3a4f", sun: "#ffd28a" },
  surf: { width: 900, height: 600, sky: "#8ec9ec", ground: "#1e6f9f", sun: "#fff3b0" },
  zoo: { width: 1600, height: 1067, sky: "#c4e1c1", ground: "#4f7a3a", sun: "#fff7c4" },
};

/** A landscape of sky, hills and sun in the photo's colours, drawn as SVG and encoded as JPEG. */
function photoJpeg({ width, height, sky, ground, sun }) {
  const horizon = Math.round(height * 0.62);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <defs><linearGradient id="s" x1="0" y1="0" x2="0" y2="1">
    <stop offset="0" stop-color="#ffffff"/><stop offset="1" stop-color="${sky}"/>
  </linearGradient></defs>
  <rect width="${width}" height="${height}" fill="url(#s)"/>
  <circle cx="${width * 0.72}" cy="${height * 0.3}" r="${Math.min(width, height) * 0.12}" fill="${sun}"/>
  <path d="M0 ${horizon} Q ${width * 0.25} ${horizon - height * 0.18} ${width * 0.5} ${horizon}
    T ${width} ${horizon - height * 0.05} V ${height} H 0 Z" fill="${ground}"/>
  <rect y="${height * 0.85}" width="${width}" height="${height * 0.15}" fill="${ground}" opacity="0.6"/>
</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 82 }).toBuffer();
}

/**
 * Starts the picture host on 127.0.0.1 (a port of its own: another origin than the site's) with
 * every photo made, and writes the feed copy naming its photos into `dir`. Answers the feed's
 * path, the host's origin, how many requests it answered so far, and a way to close it.
 */
export async function startPhotoHost(dir) {
  const files = new Map(
    await Promise.all(
      Object.entries(PHOTOS).map(async ([name, photo]) => [
        `/photos/${name}.jpg`,
        await photoJpeg(photo),
      ]),
    ),
  );
  let requests = 0;
  const server = http.createServer((req, res) => {
    requests += 1;
    const body = files.get(new URL(req.url ?? "/", "http://x").pathname);
    if (!body) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": "image/jpeg", "content-length": body.length });
    res.end(req.method === "HEAD" ? undefined : body);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port for the photos");
  const origin = `http://127.0.0.1:${address.port}`;

  const names = Object.keys(PHOTOS).join("|");
  const feed = fs
    .readFileSync(PHOTO_FEED.file, "utf8")
    .replace(new RegExp(`images/sample/(${names})\\.svg`, "g"), `${origin}/photos/$1.jpg`);
  const feedPath = path.join(dir, path.basename(PHOTO_FEED.file));
  fs.writeFileSync(feedPath, feed);
  return {
    feedPath,
    origin,
    requests: () => requests,
    close: () => new Promise((resolve) => server.close(() => resolve(undefined))),
  };
}
