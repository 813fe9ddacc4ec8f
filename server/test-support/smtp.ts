import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

/**
 * A real SMTP server on 127.0.0.1 for tests and the benchmark: it takes every message (or refuses
 * the recipients `reject` names, as a mail server refuses an unknown mailbox) and keeps it raw.
 */
export interface TestSmtp {
  url: string;
  /** Every message taken, raw, in the order they arrived. */
  raw: Buffer[];
  /** Every message taken, parsed by mailparser. */
  parsed(): Promise<ParsedMail[]>;
  /** Resolves once `count` messages have been taken. */
  received(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startTestSmtp(
  options: {
    reject?: (address: string) => boolean;
    /** Milliseconds to wait before accepting each message (a slower server). */
    delayMs?: number;
    /** Keep no raw copies (the benchmark counts only). */
    countOnly?: boolean;
  } = {},
): Promise<TestSmtp & { count(): number }> {
  const raw: Buffer[] = [];
  let count = 0;
  const waiters: { count: number; resolve: () => void }[] = [];
  const server = new SMTPServer({
    // Plain SMTP on loopback: no TLS certificate, no login.
    disabledCommands: ["STARTTLS", "AUTH"],
    authOptional: true,
    logger: false,
    size: 10 * 1024 * 1024,
    onRcptTo(address, _session, callback) {
      if (options.reject?.(address.address)) {
        const error = Object.assign(new Error("5.1.1 No such mailbox here"), { responseCode: 550 });
        callback(error);
        return;
      }
      callback();
    },
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => {
        if (!options.countOnly) chunks.push(chunk);
      });
      stream.on("end", () => {
        const done = () => {
          if (!options.countOnly) raw.push(Buffer.concat(chunks));
          count++;
          for (const waiter of waiters.filter((w) => count >= w.count)) {
            waiters.splice(waiters.indexOf(waiter), 1);
            waiter.resolve();
          }
          callback();
        };
        if (options.delayMs) setTimeout(done, options.delayMs);
        else done();
      });
    },
  });
  // A sender killed mid-message resets its connection: that is the test, not a failure.
  server.on("error", () => undefined);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    raw,
    count: () => count,
    parsed: () => Promise.all(raw.map((message) => simpleParser(message))),
    received: (wanted, timeoutMs = 15_000) =>
      count >= wanted
        ? Promise.resolve()
        : new Promise<void>((resolve, reject) => {
            const timer = setTimeout(
              () => reject(new Error(`${count} of ${wanted} messages within ${timeoutMs} ms`)),
              timeoutMs,
            );
            waiters.push({
              count: wanted,
              resolve: () => {
                clearTimeout(timer);
                resolve();
              },
            });
          }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
