import cluster, { type Worker } from "node:cluster";
import { AggregatorRegistry } from "prom-client";
import type { Config } from "../config";
import { createLogger } from "../logger";
import type { Metrics } from "./metrics";

/**
 * Several web processes on one port (WEB_CONCURRENCY, PostgreSQL only): a supervisor forks them,
 * replaces one that dies, answers `/metrics` for all of them together, and on SIGTERM or SIGINT
 * lets each finish its requests and exits when they have. The processes share nothing else: each
 * has its own page cache, emptied through PostgreSQL when any process stores articles, counts form
 * submissions in PostgreSQL (server/lib/rate-limit.ts), and only
 * the first runs the ingest schedule (ingest takes a database lock, so two could not overlap anyway).
 */

/** Set by the supervisor on each web process it forks: its place, 0 to WEB_CONCURRENCY - 1. */
const INDEX_VARIABLE = "WEB_PROCESS_INDEX";
const METRICS_REQUEST = "news:metrics-request";
const METRICS_RESPONSE = "news:metrics-response";
/** More restarts than this within RESTART_WINDOW_MS and the supervisor gives up (exit 1). */
const MAX_RESTARTS = 5;
const RESTART_WINDOW_MS = 60_000;
/** A web process's own shutdown takes at most 10 s; past this one it is killed. */
const STOP_GRACE_MS = 15_000;

interface MetricsRequest {
  type: typeof METRICS_REQUEST;
  id: number;
}

interface MetricsResponse {
  type: typeof METRICS_RESPONSE;
  id: number;
  text?: string;
  error?: string;
}

const isMessage = <T extends { type: string }>(message: unknown, type: T["type"]): message is T =>
  typeof message === "object" && message !== null && (message as { type?: unknown }).type === type;

/** Whether this process runs the ingest schedule: a lone process does, and the first of several. */
export function holdsSchedule(): boolean {
  return !cluster.isWorker || process.env[INDEX_VARIABLE] === "0";
}

/**
 * In a web process behind the supervisor, `/metrics` answers every process's metrics summed (the
 * article count is the same for all and taken once); on its own, its own.
 */
export function metricsForProcess(metrics: Metrics): Metrics {
  if (!cluster.isWorker) return metrics;
  // Answers the supervisor's requests for this process's metrics.
  new AggregatorRegistry();
  AggregatorRegistry.setRegistries([metrics.registry]);
  let next = 0;
  const waiting = new Map<number, (response: MetricsResponse) => void>();
  process.on("message", (message: unknown) => {
    if (!isMessage<MetricsResponse>(message, METRICS_RESPONSE)) return;
    waiting.get(message.id)?.(message);
    waiting.delete(message.id);
  });
  return {
    ...metrics,
    render: () =>
      new Promise((resolve, reject) => {
        if (!process.connected || !process.send) {
          reject(new Error("the supervisor is gone"));
          return;
        }
        const id = next++;
        // The supervisor gives up on a silent process after 5 s; this waits a little longer.
        const timer = setTimeout(() => {
          waiting.delete(id);
          reject(new Error("no metrics from the supervisor within 10 s"));
        }, 10_000);
        waiting.set(id, (response) => {
          clearTimeout(timer);
          if (response.text === undefined) {
            reject(new Error(response.error ?? "no metrics from the supervisor"));
          } else resolve(response.text);
        });
        // With a callback a channel that closed meanwhile is reported here, not as a process 'error'.
        process.send(
          { type: METRICS_REQUEST, id } satisfies MetricsRequest,
          undefined,
          {},
          (error) => {
            if (!error) return;
            clearTimeout(timer);
            waiting.delete(id);
            reject(new Error("the supervisor is gone"));
          },
        );
      }),
  };
}

/** Runs the supervisor in this process until it is told to stop; never returns to serve itself. */
export function superviseWebProcesses(config: Config): void {
  const logger = createLogger(config.logLevel).child({ role: "supervisor" });
  const aggregator = new AggregatorRegistry();
  const places = new Map<Worker, number>();
  const restarts: number[] = [];
  let stopping = false;
  let failed = false;

  const fork = (index: number) => {
    const worker = cluster.fork({ [INDEX_VARIABLE]: String(index) });
    places.set(worker, index);
    worker.on("message", (message: unknown) => {
      if (!isMessage<MetricsRequest>(message, METRICS_REQUEST)) return;
      aggregator.clusterMetrics().then(
        (text) => worker.send({ type: METRICS_RESPONSE, id: message.id, text }),
        (error: Error) =>
          worker.send({ type: METRICS_RESPONSE, id: message.id, error: error.message }),
      );
    });
  };

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "stopping the web processes");
    for (const worker of places.keys()) worker.process.kill("SIGTERM");
    setTimeout(() => {
      for (const worker of places.keys()) worker.process.kill("SIGKILL");
    }, STOP_GRACE_MS).unref();
  };

  cluster.on("exit", (worker, code, signal) => {
    const index = places.get(worker) ?? 0;
    places.delete(worker);
    if (stopping) {
      if (code !== 0) failed = true;
      if (places.size === 0) {
        logger.info("stopped");
        process.exit(failed ? 1 : 0);
      }
      return;
    }
    const now = Date.now();
    restarts.push(now);
    while ((restarts[0] ?? now) < now - RESTART_WINDOW_MS) restarts.shift();
    if (restarts.length > MAX_RESTARTS) {
      logger.fatal(
        { pid: worker.process.pid, code, signal },
        `web processes exited ${restarts.length} times within a minute: giving up`,
      );
      failed = true;
      stop("SIGTERM");
      if (places.size === 0) process.exit(1);
      return;
    }
    logger.error(
      { pid: worker.process.pid, code, signal },
      "a web process exited: starting another",
    );
    fork(index);
  });

  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
  logger.info({ processes: config.webProcesses }, "starting web processes");
  for (let index = 0; index < config.webProcesses; index++) fork(index);
}
