// A module resolution hook: React Router's package exports name only its development build
// (remix-run/react-router#14102), so a production server would run with its dev warnings and checks.
// In production every file of it resolves to the same file of dist/production instead. Registered
// by server/main.ts before anything imports React Router, so one copy of it is ever loaded.
const DEVELOPMENT = "/node_modules/react-router/dist/development/";
const PRODUCTION = "/node_modules/react-router/dist/production/";

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  if (resolved.url.includes(DEVELOPMENT)) {
    return { ...resolved, url: resolved.url.replace(DEVELOPMENT, PRODUCTION) };
  }
  return resolved;
}
