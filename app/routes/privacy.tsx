import { LegalPage } from "../components/LegalPage";
import { basicMeta } from "../lib/meta";

export const meta = () => [
  ...basicMeta("Privacy", "A short summary of how we treat your information."),
];

export default function Page() {
  return (
    <LegalPage title="Privacy">
      <p>
        We collect as little as we can, never sell it, and use it only to run this site and our
        newsletter. This also covers the charging station listings we publish.
      </p>
    </LegalPage>
  );
}
