/**
 * The one line of `react-router build`'s and `typegen`'s output that is not ours to fix
 * (scripts/react-router.js): React Router 7.18.4 starts Vite with `envFile: false` in two places of
 * its own, and Vite 8.1+ warns about it every time. React Router fixed it in 8.x (remix-run/react-router#15229).
 */
export const UPSTREAM_DEPRECATION =
  "The `envFile` option is deprecated, please use `envDir: false` instead.";

/**
 * Whether a line of the build's output is that warning (Vite colours it; the text decides).
 *
 * @param {string} line
 * @returns {boolean}
 */
export function isUpstreamDeprecation(line) {
  // eslint-disable-next-line no-control-regex
  return line.replace(/\u001b\[[0-9;]*m/g, "").trim() === UPSTREAM_DEPRECATION;
}
