import path from "node:path";
import { describe, expect, it } from "vitest";
import { serverFolderStaysOnTheServer } from "../../vite.config";

// The guard as Vite calls it: `load` with a plugin context whose `error` throws.
function loadInBrowserBuild(id: string): void {
  const plugin = serverFolderStaysOnTheServer();
  const load = plugin.load as (this: { error: (message: string) => never }, id: string) => void;
  load.call(
    {
      error: (message) => {
        throw new Error(message);
      },
    },
    id,
  );
}

describe("the browser's build", () => {
  it("refuses any module under server/", () => {
    expect(() => loadInBrowserBuild(path.resolve("server/db/client.ts"))).toThrow(
      "server/db/client.ts is server-only and was imported into browser code",
    );
  });

  it("takes the app's and the shared modules", () => {
    expect(() => loadInBrowserBuild(path.resolve("app/root.tsx"))).not.toThrow();
    expect(() => loadInBrowserBuild(path.resolve("shared/categories.ts"))).not.toThrow();
  });

  it("is applied to the browser's environment only", () => {
    const plugin = serverFolderStaysOnTheServer();
    const applies = plugin.applyToEnvironment as (environment: { name: string }) => boolean;
    expect(applies({ name: "client" })).toBe(true);
    expect(applies({ name: "ssr" })).toBe(false);
  });
});
