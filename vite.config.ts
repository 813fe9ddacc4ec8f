import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import path from "node:path";
import { defineConfig, type Plugin } from "vite";

const SERVER_FOLDER = path.resolve("server") + path.sep;

/**
 * React Router refuses `*.server.ts` modules in the browser's build; the same for everything
 * under `server/`, so a value import that survives a route's loader removal fails the build
 * instead of shipping the database client to readers.
 */
export function serverFolderStaysOnTheServer(): Plugin {
  return {
    name: "server-folder-stays-on-the-server",
    applyToEnvironment: (environment) => environment.name === "client",
    load(id) {
      if (id.startsWith(SERVER_FOLDER)) {
        this.error(`${path.relative(".", id)} is server-only and was imported into browser code`);
      }
    },
  };
}

/**
 * The small modules every page's shell needs (header, menu, footer, error screen, the story card
 * and its picture slots most pages show, the ad slots and sponsor cards every page shows) go to the
 * browser as one file instead of a dozen tiny ones: fewer requests, and gzip works better on one.
 */
const SHELL_MODULE =
  /\/(app\/lib\/(nav|use-hydrated|embeds|dates|ads|ad-plan)|shared\/(categories|title|head|picture)|app\/components\/(SearchForm|ErrorState|Icons|ArticleCard|ArticleImage|picture-slots|AdSlot|PageAds|SponsorAd)|content\/site)\.tsx?$/;

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [tailwindcss(), reactRouter(), serverFolderStaysOnTheServer()],
  build: isSsrBuild
    ? {}
    : {
        rollupOptions: {
          output: {
            manualChunks: (id: string) => (SHELL_MODULE.test(id) ? "shell" : undefined),
          },
        },
      },
}));
