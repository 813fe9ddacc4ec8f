import { PageHeading } from "../components/PageHeading";
import { basicMeta } from "../lib/meta";

export const meta = () =>
  basicMeta("Blog", "Guides, explainers and notes from our newsroom about life in San Diego.");

export default function Blog() {
  return (
    <>
      <PageHeading>Blog</PageHeading>
      <p>No blog posts available at the moment.</p>
    </>
  );
}
