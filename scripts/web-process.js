// How the production web process is started, in one place: `npm start` (package.json, checked
// against this list by a test), the demo, the browser tests' server, the audit and the benchmarks.
//
// Node's defaults suit a machine of its own with memory to spare; the web process shares one with
// its database and answers small requests. A young generation of at most 2 × 8 MB instead of
// 2 × 16 MB, and two V8 helper threads instead of four (each keeps its own malloc arena), hold a
// process on the embedded database under 250 MB after load (docs/BENCHMARKS.md). 2 × 2 MB held no
// less after load and cost uncached renders about 15 % in garbage collection (decision 013). Workers
// forked with WEB_CONCURRENCY inherit the same flags.
export const WEB_PROCESS_FLAGS = ["--max-semi-space-size=8", "--v8-pool-size=2"];

// glibc's malloc raises the size from which a block gets a mapping of its own (given back when
// freed) to that of the largest block freed so far, up to 32 MB, and lets twice that stay free at
// an arena's top. After start-up has freed a few large blocks, the 0.1-32 MB blocks that
// compression and V8's compilers ask for come from the arenas, which keep them once freed. A fixed
// trim threshold switches that off, so blocks of 128 KB (its starting value) or more are mapped on
// their own again: about 40 MB less resident after the load benchmark, no slower (decision 013).
// The C library reads it when the process starts, so it is passed like the flags; other C
// libraries ignore it. Workers forked with WEB_CONCURRENCY inherit it.
export const WEB_PROCESS_ENV = { MALLOC_TRIM_THRESHOLD_: "131072" };

/** The same settings as a command line names them before `node` (as `npm start` does). */
export const WEB_PROCESS_ENV_LINE = Object.entries(WEB_PROCESS_ENV)
  .map(([name, value]) => `${name}=${value}`)
  .join(" ");

/** A web process's environment: `env`, with the malloc setting above unless `env` sets its own. */
export function webProcessEnv(env) {
  return { ...WEB_PROCESS_ENV, ...env };
}

/** The arguments after `node`: the flags, then the compiled web process. */
export const WEB_PROCESS_ARGS = [...WEB_PROCESS_FLAGS, "build/web/main.js"];
