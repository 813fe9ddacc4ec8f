// The web process. Configuration is checked before anything heavy loads, so a bad variable fails in milliseconds.
import { loadConfigOrExit } from "./config";

const config = loadConfigOrExit();
const { startWebServer } = await import("./http/web-server");
await startWebServer(config);
