import js from "@eslint/js";
import boundaries from "eslint-plugin-boundaries";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/** The folders whose imports are checked, each an element of eslint-plugin-boundaries. */
const ELEMENTS = ["app", "server", "shared", "bench", "resilience"].map((folder) => ({
  type: folder,
  pattern: folder,
  partialMatch: false,
}));

/** Who may not import whom: every other import between the folders is allowed. */
const SERVER_NOT_APP = {
  from: { element: { type: "server" } },
  disallow: { to: { element: { type: "app" } } },
  message:
    "server/ must not import from app/: move what both need to shared/ (pure) or server/ (Node).",
};
const BOUNDARIES = [
  {
    from: { element: { type: "resilience" } },
    disallow: { to: { element: { type: "bench" } } },
    message:
      "resilience/ must not import from bench/: move what both need to server/test-support/.",
  },
  {
    from: { element: { type: "shared" } },
    disallow: { to: { element: { types: { anyOf: ["app", "server"] } } } },
    message: "shared/ must import neither app/ nor server/: it holds what both sides use.",
  },
];

export default tseslint.config(
  {
    ignores: [
      "build",
      "data",
      ".react-router",
      "node_modules",
      "test-results",
      "playwright-report",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    files: ["**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
    },
  },
  {
    files: ["app/**/*.tsx"],
    ...jsxA11y.flatConfigs.strict,
    rules: {
      ...jsxA11y.flatConfigs.strict.rules,
      // A region that scrolls must be reachable by keyboard (axe: scrollable-region-focusable),
      // so a labelled region may be focusable.
      "jsx-a11y/no-noninteractive-tabindex": ["error", { roles: ["tabpanel", "region"], tags: [] }],
    },
  },
  {
    files: ["**/*.js"],
    languageOptions: { globals: globals.node },
  },
  {
    files: ["**/*.{ts,tsx,js}"],
    plugins: { boundaries },
    settings: {
      "boundaries/elements": ELEMENTS,
      "import/resolver": { node: { extensions: [".ts", ".tsx", ".js", ".json"] } },
    },
    rules: {
      "boundaries/dependencies": [
        "error",
        { default: "allow", policies: [SERVER_NOT_APP, ...BOUNDARIES] },
      ],
    },
  },
);
