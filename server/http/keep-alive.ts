import type { Server } from "node:http";

/**
 * How long an idle kept-alive connection stays open: longer than the upstream idle timeout of the
 * proxies a site runs behind (nginx's `keepalive_timeout` and a cloud load balancer's idle timeout
 * are 60 s by default), so that the proxy always closes an idle connection first. With Node's
 * default of 5 s the server could close one just as the proxy sent a request on it, which the
 * reader sees as a 502. Clients that keep a socket a second less than the server announces
 * (undici, browsers) are unaffected.
 */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

export function keepConnectionsAlive(server: Server): void {
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  // Node's guidance: the time allowed for a request's headers must exceed the idle timeout, or a
  // connection reused near its end could be cut while its headers arrive.
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
}
