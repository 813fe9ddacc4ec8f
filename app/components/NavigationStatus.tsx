import { useNavigation } from "react-router";
import { categoryByPath, loadingText } from "../../shared/categories";

/** The spec's loading text for where the reader is going. */
function loadingMessage(pathname: string): string {
  if (pathname === "/") return "Loading latest news...";
  if (pathname.startsWith("/article/")) return "Loading article...";
  // The spec's blog pages show a bare spinner; a word says what it is for.
  if (pathname === "/blog") return "Loading blog posts...";
  if (pathname.startsWith("/blog/")) return "Loading blog post...";
  const category = categoryByPath(pathname);
  if (category) return loadingText(category.name);
  return "Loading...";
}

/** During client-side navigation: a spinner and the loading text, announced politely. */
export function NavigationStatus() {
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location !== undefined;
  return (
    <div
      aria-live="polite"
      className="pointer-events-none fixed inset-x-0 top-0 z-40 flex justify-center"
    >
      {loading ? (
        <p
          role="status"
          className="mt-2 flex items-center gap-3 rounded-full bg-white px-4 py-2 text-sm font-semibold text-slate-900 shadow-lg ring-1 ring-slate-200"
        >
          <span
            aria-hidden="true"
            className="h-4 w-4 animate-spin rounded-full border-2 border-brand border-t-transparent"
          />
          {loadingMessage(navigation.location.pathname)}
        </p>
      ) : null}
    </div>
  );
}
