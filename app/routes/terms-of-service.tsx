import { LegalPage } from "../components/LegalPage";
import { basicMeta } from "../lib/meta";

export const meta = () => [
  ...basicMeta("Terms of Service", "The terms that apply when you use our website and newsletter."),
  { name: "robots", content: "noindex" },
];

export default function Page() {
  return (
    <LegalPage
      title="Terms of Service"
      lastUpdated="April 26, 2025"
      sibling={{ label: "Privacy Policy", to: "/privacy-policy" }}
    >
      <p>
        These terms apply to everyone who reads our site, subscribes to our newsletter or takes part
        in our polls and forms.
      </p>
    </LegalPage>
  );
}
