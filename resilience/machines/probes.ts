/** How the machines check asks and waits: picture bytes, decoding, polling until a change shows. */
import sharp from "sharp";
import { sleep, type Answer } from "../processes";

/** Runs `task` over `items`, `width` at a time. */
export async function pool<T, R>(
  items: readonly T[],
  width: number,
  task: (item: T) => Promise<R>,
) {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await task(items[index] as T);
      }
    }),
  );
  return results;
}

/** A GET that answers its status (0 when no answer came) and its body's bytes. */
export async function getBytes(url: string, timeoutMs = 30_000) {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    const bytes = Buffer.from(await response.arrayBuffer());
    return { status: response.status, type: response.headers.get("content-type") ?? "", bytes };
  } catch {
    return { status: 0, type: "", bytes: Buffer.alloc(0) };
  }
}

/** Whether `bytes` decode to pixels with sharp (every pixel, not only the header). */
export async function decodes(bytes: Uint8Array): Promise<boolean> {
  try {
    const { info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
    return info.width > 0 && info.height > 0;
  } catch {
    return false;
  }
}

export const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** The Breaking banner's text on a home page, if any. */
export const bannerOf = (body: string) =>
  /<strong class="mr-2 uppercase">Breaking<\/strong>([\s\S]*?)<\/p>/.exec(body)?.[1] ?? "";

/** Polls `ask` every 50 ms until `seen` holds: the time it first did, or null after 10 s. */
export async function reached(
  ask: () => Promise<Answer>,
  seen: (answer: Answer) => boolean,
): Promise<number | null> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const answer = await ask().catch(() => null);
    if (answer && seen(answer)) return Date.now();
    await sleep(50);
  }
  return null;
}
