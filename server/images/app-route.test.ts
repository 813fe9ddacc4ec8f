import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabases } from "../db/test-databases";
import { startTestApp } from "../http/test-app";
import { folderPictureStore } from "./store";

const database = testDatabases()[0];
if (!database) throw new Error("no test database");
let handle: Awaited<ReturnType<typeof database.open>>;
let app: Awaited<ReturnType<typeof startTestApp>>;
let dir: string;
let hash: string;

beforeAll(async () => {
  handle = await database.open();
  await handle.migrate();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "app-pictures-"));
  const photo = sharp({ create: { width: 400, height: 300, channels: 3, background: "#246" } });
  hash = await folderPictureStore({ dir, maxBytes: 1024 * 1024 * 1024 }).putOriginal(
    await photo.jpeg().toBuffer(),
  );
  app = await startTestApp(handle, { PICTURES_DIR: dir });
});

afterAll(async () => {
  await app.close();
  await handle.dispose();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("pictures in the site's app", () => {
  it("are served from PICTURES_DIR before the pages, uncompressed", async () => {
    const response = await fetch(`${app.base}/images/${hash}/320.webp`, {
      headers: { "accept-encoding": "gzip, br" },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/webp");
    expect(response.headers.get("content-encoding")).toBeNull();
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(fs.existsSync(path.join(dir, hash, "320.webp"))).toBe(true);
  });

  it.each([`${"0".repeat(64)}/320.webp`, `${"0".repeat(64)}/500.webp`, "sample/none.jpg"])(
    "are 404 when not in the store (%s)",
    async (address) => {
      const response = await fetch(`${app.base}/images/${address}`);
      expect(response.status).toBe(404);
    },
  );

  it("leave the site's own files under /images alone", async () => {
    const response = await fetch(`${app.base}/images/sample/surf.svg`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
  });
});
