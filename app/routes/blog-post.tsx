import { data, Link } from "react-router";
import { basicMeta } from "../lib/meta";
import type { Route } from "./+types/blog-post";

export function loader({ params }: Route.LoaderArgs) {
  // No post source is configured yet, so every slug is unknown.
  return data({ slug: params.slug, error: "Blog not found" }, { status: 404 });
}

export const meta: Route.MetaFunction = () => [
  ...basicMeta("Blog post not found", "This blog post could not be found."),
  { name: "robots", content: "noindex" },
];

export default function BlogPost({ loaderData }: Route.ComponentProps) {
  return (
    <section className="py-10">
      <h1 className="text-2xl font-bold">Error loading blog: {loaderData.error}</h1>
      <Link to="/blog" className="mt-6 inline-block rounded bg-brand px-4 py-2 text-white">
        Back to Blog
      </Link>
    </section>
  );
}
