import { LegalPage } from "../components/LegalPage";
import { basicMeta } from "../lib/meta";

export const meta = () => [
  ...basicMeta("Terms", "A short summary of the terms for using this site."),
];

export default function Page() {
  return (
    <LegalPage title="Terms">
      <p>
        Our articles are for your personal reading. Listings we publish, such as electric vehicle
        charging stations, are provided as they are; check with the operator before you travel.
      </p>
    </LegalPage>
  );
}
