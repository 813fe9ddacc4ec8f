// The web process. Configuration is checked before anything heavy loads, so a bad variable fails in milliseconds.
import { register } from "node:module";
import { loadConfigOrExit } from "./config";

const config = loadConfigOrExit();
if (config.nodeEnv === "production") {
  // Before anything imports React Router: its production build instead of the development one.
  register(new URL("./runtime/production-react-router.js", import.meta.url));
}
const { startWebServer } = await import("./http/web-server");
await startWebServer(config);
