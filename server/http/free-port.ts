import net from "node:net";

/**
 * A port on 127.0.0.1 that nothing listens on, as the operating system picks one: for a site that a
 * test starts in another process. Fixed or random ranges collide when test files run side by side,
 * and a site refused its port leaves the test talking to another test's site.
 */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
