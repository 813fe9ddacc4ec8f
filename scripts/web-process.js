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

/** The arguments after `node`: the flags, then the compiled web process. */
export const WEB_PROCESS_ARGS = [...WEB_PROCESS_FLAGS, "build/web/main.js"];
