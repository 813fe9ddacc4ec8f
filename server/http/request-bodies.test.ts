import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabases } from "../db/test-databases";
import { startTestApp } from "./test-app";

/**
 * Every route that reads a body stops at its limit while reading, whatever the headers say: a
 * body sent chunked (no length declared) is counted as it arrives, and the answer comes long before
 * a large one is over. Sent with Node's own client, writing as fast as the server reads.
 */

const database = testDatabases()[0];
if (!database) throw new Error("no test database");
let handle: Awaited<ReturnType<typeof database.open>>;
let app: Awaited<ReturnType<typeof startTestApp>>;

beforeAll(async () => {
  handle = await database.open();
  await handle.migrate();
  app = await startTestApp(handle);
}, 120_000);

afterAll(async () => {
  await app?.close();
  await handle?.dispose();
});

const MB = 1024 * 1024;
/** What the attack sent: 256 MB. Loopback sockets buffer a few MB at most. */
const OFFERED = 256 * MB;

/**
 * POSTs up to `OFFERED` bytes of form, chunked, and says what the server answered and how many
 * bytes had been written when it did.
 */
function postChunked(
  path: string,
  headers: http.OutgoingHttpHeaders = {},
): Promise<{ status: number; text: string; writtenBeforeAnswer: number }> {
  return new Promise((resolve, reject) => {
    let written = 0;
    let answered = false;
    const request = http.request(
      `${app.base}${path}`,
      {
        method: "POST",
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          "Transfer-Encoding": "chunked",
          ...headers,
        },
      },
      (response) => {
        answered = true;
        const writtenBeforeAnswer = written;
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          resolve({
            status: response.statusCode ?? 0,
            text: Buffer.concat(chunks).toString(),
            writtenBeforeAnswer,
          });
          request.destroy();
        });
      },
    );
    // The server closing mid-body is what it should do; only a missing answer is a failure.
    request.on("error", (error) => {
      if (!answered) reject(error);
    });
    const chunk = Buffer.alloc(64 * 1024, "a");
    request.write("List-Unsubscribe=One-Click&padding=");
    const pump = () => {
      while (!answered && written < OFFERED) {
        written += chunk.length;
        if (!request.write(chunk)) {
          request.once("drain", pump);
          return;
        }
      }
      if (!answered) request.end();
    };
    pump();
  });
}

describe("request bodies", () => {
  it("the one-click unsubscribe refuses a chunked body at 4 KB, not after 256 MB", async () => {
    const answer = await postChunked("/newsletter/unsubscribe?token=x");
    expect(answer.status).toBe(413);
    expect(answer.text).toBe("Too large for a one-click unsubscribe.");
    expect(answer.writtenBeforeAnswer).toBeLessThan(32 * MB);
    // The site is still up and still answers a one-click request of the usual size.
    const usual = await fetch(`${app.base}/newsletter/unsubscribe?token=x`, {
      method: "POST",
      body: new URLSearchParams({ "List-Unsubscribe": "One-Click" }),
    });
    expect(usual.status).toBe(400);
    expect(await usual.text()).toBe("This unsubscribe link is not one of ours.");
  });

  it("the one-click unsubscribe refuses a declared length over 4 KB before reading it", async () => {
    const answer = await fetch(`${app.base}/newsletter/unsubscribe?token=x`, {
      method: "POST",
      body: new URLSearchParams({ "List-Unsubscribe": "One-Click", pad: "a".repeat(5000) }),
    });
    expect(answer.status).toBe(413);
  });

  it("a page's form refuses a chunked body before its end", async () => {
    const answer = await postChunked("/newsletter", { Origin: app.base });
    expect([411, 413]).toContain(answer.status);
    expect(answer.writtenBeforeAnswer).toBeLessThan(32 * MB);
  });
});
