import { LegalPage } from "../components/LegalPage";
import { basicMeta } from "../lib/meta";

export const meta = () => [
  ...basicMeta(
    "Privacy Policy",
    "How we collect, use and protect information about readers of our site.",
  ),
  { name: "robots", content: "noindex" },
];

export default function Page() {
  return (
    <LegalPage
      title="Privacy Policy"
      lastUpdated="April 26, 2025"
      sibling={{ label: "Terms of Service", to: "/terms-of-service" }}
    >
      <p>
        This policy explains what information we collect when you read our site, subscribe to our
        newsletter or write to us, and how we use and protect it.
      </p>
    </LegalPage>
  );
}
