// The web process. Configuration and content are checked before anything heavy loads, so a bad
// variable or content file fails in milliseconds.
import cluster from "node:cluster";
import { register } from "node:module";
import { loadConfigOrExit } from "./config";
import { loadContentOrExit } from "./content/load";

const config = loadConfigOrExit();
const content = loadContentOrExit(config.contentDir);
if (config.webProcesses > 1 && cluster.isPrimary) {
  // WEB_CONCURRENCY: this process only supervises the web processes it forks.
  const { superviseWebProcesses } = await import("./http/cluster");
  superviseWebProcesses(config);
} else {
  if (config.nodeEnv === "production") {
    // Before anything imports React Router: its production build instead of the development one.
    register(new URL("./runtime/production-react-router.js", import.meta.url));
  }
  const { startWebServer } = await import("./http/web-server");
  await startWebServer(config, content);
}
