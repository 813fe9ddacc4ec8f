import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

/**
 * The small modules every page's shell needs (header, menu, footer, error screen, the story card and
 * ad slot most pages show) go to the browser as one file instead of a dozen tiny ones: fewer
 * requests, and gzip works better on one file.
 */
const SHELL_MODULE =
  /\/(app\/lib\/(categories|nav|use-hydrated|embeds|title|head|dates)|app\/components\/(SearchForm|ErrorState|Icons|ArticleCard|ArticleImage|AdSlot)|content\/site)\.tsx?$/;

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [tailwindcss(), reactRouter()],
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
