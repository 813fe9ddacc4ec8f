import { data, Link } from "react-router";
import { blogErrorMessage } from "../../server/blog/load";
import { withBlogPictures } from "../../server/blog/pictures";
import { BLOG_PAGE_SIZE } from "../../server/blog/source";
import { BlogPagination } from "../components/BlogPagination";
import { BlogPostCard } from "../components/BlogPostCard";
import { ErrorState } from "../components/ErrorState";
import { PageAds } from "../components/PageAds";
import { PageHeading } from "../components/PageHeading";
import { BLOG_DESCRIPTION, BLOG_FEED_PATH, pageNumber } from "../lib/blog";
import { pageHead } from "../../server/seo/head";
import { headHandle, headMeta } from "../../shared/head";
import { breadcrumbs } from "../../shared/structured-data";
import type { RouteKeysName } from "../../server/cache/route-keys";
import type { Route } from "./+types/blog";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { siteUrl } = context.config;
  const head = (page: number | null, indexable: boolean) => {
    const built = pageHead(
      request,
      context,
      {
        title: page && page > 1 ? `Blog, page ${page}` : "Blog",
        description: BLOG_DESCRIPTION,
        keepParams: ["page"],
        noindex: !indexable,
      },
      [breadcrumbs(siteUrl, [{ name: "Blog", path: "/blog" }])],
    );
    built.meta.push({
      tagName: "link",
      rel: "alternate",
      type: "application/rss+xml",
      title: "Blog posts",
      href: BLOG_FEED_PATH,
    });
    return built;
  };
  const page = pageNumber(new URL(request.url).searchParams.get("page"));
  if (page === null) {
    return data({ state: "not-found" as const, head: head(null, false) }, { status: 404 });
  }
  try {
    const { posts, total, failure } = await context.blog.list(page);
    const pages = Math.ceil(total / BLOG_PAGE_SIZE);
    // Page 1 of an empty blog is the spec's empty state; any other page past the end is not found.
    if (page > Math.max(pages, 1)) {
      return data({ state: "not-found" as const, head: head(page, false) }, { status: 404 });
    }
    return {
      state: "loaded" as const,
      page,
      pages,
      posts: await withBlogPictures(context.db, context.logger, posts),
      // Part of the blog could not be read (it is logged): the page lists the rest and says so.
      failure: failure ?? null,
      head: head(page, true),
    };
  } catch (error) {
    context.logger.error({ err: error, page }, "the blog list could not be read");
    return data(
      { state: "error" as const, message: blogErrorMessage(error), head: head(page, false) },
      { status: 503 },
    );
  }
}

export const meta = headMeta;
export const handle = { ...headHandle, cacheKeys: "blog" satisfies RouteKeysName };

export default function Blog({ loaderData }: Route.ComponentProps) {
  switch (loaderData.state) {
    case "error":
      return <ErrorState heading="Blog" message={`Error loading blogs: ${loaderData.message}`} />;
    case "not-found":
      return (
        <section className="mx-auto max-w-4xl">
          <PageHeading>Blog</PageHeading>
          <p className="text-lg">Oops! This page of the blog does not exist.</p>
          <Link
            to="/blog"
            className="mt-6 inline-block rounded bg-brand px-4 py-2 font-semibold text-white hover:bg-brand-dark"
          >
            Back to Blog
          </Link>
          <PageAds kind="page" at="end" className="mt-10" />
        </section>
      );
    case "loaded":
      return (
        <div className="mx-auto max-w-4xl">
          <PageHeading>Blog</PageHeading>
          {loaderData.failure ? (
            <p role="status" className="mb-6 rounded border-l-4 border-amber-500 bg-amber-50 p-4">
              {`Some posts could not be loaded: ${loaderData.failure}. Please try again later.`}
            </p>
          ) : null}
          {loaderData.posts.length === 0 ? (
            <p className="text-lg text-slate-700">No blog posts available at the moment.</p>
          ) : (
            <ul className="flex flex-col gap-4 sm:gap-6">
              {loaderData.posts.map((post) => (
                <li key={post.slug}>
                  <BlogPostCard post={post} />
                </li>
              ))}
            </ul>
          )}
          <BlogPagination page={loaderData.page} pages={loaderData.pages} />
          <PageAds kind="page" at="end" className="mt-10" />
        </div>
      );
  }
}
