import { jsonLdText } from "../../shared/json-ld";

/** Structured data for search engines, escaped so that no value can break out of the script. */
export function JsonLd({ data }: { data: object }) {
  return (
    <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonLdText(data) }} />
  );
}
