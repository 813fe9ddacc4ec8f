/** nginx serving saved copies of the pages precompressed (`gzip_static`): bench:load's upper bound. */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/** nginx on 127.0.0.1:`port`, serving `dir`/www, its configuration and temporary files in `dir`. */
export function startNginx(dir: string, port: number): ChildProcess {
  const conf = path.join(dir, "nginx.conf");
  const temp = (name: string) => path.join(dir, name);
  fs.writeFileSync(
    conf,
    `worker_processes 2;
pid ${temp("nginx.pid")};
error_log ${temp("error.log")} warn;
events { worker_connections 1024; }
http {
  types { text/html html; }
  default_type application/octet-stream;
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  gzip_static on;
  client_body_temp_path ${temp("client_body")};
  proxy_temp_path ${temp("proxy")};
  fastcgi_temp_path ${temp("fastcgi")};
  uwsgi_temp_path ${temp("uwsgi")};
  scgi_temp_path ${temp("scgi")};
  server {
    listen 127.0.0.1:${port};
    root ${temp("www")};
  }
}
`,
  );
  return spawn("nginx", ["-c", conf, "-p", dir, "-g", "daemon off;"], {
    stdio: ["ignore", "inherit", "inherit"],
  });
}
