import { useRouteLoaderData } from "react-router";
import type { loader as rootLoader } from "../root";

/** The office address, phone and e-mail from site settings. */
export function ContactDetails() {
  const contact = useRouteLoaderData<typeof rootLoader>("root")?.site.contact;
  if (!contact) return null;
  const { phone, email, address } = contact;
  return (
    <address className="not-italic">
      <p>
        {address.street}
        <br />
        {address.locality}, {address.region} {address.postalCode}
      </p>
      <p className="mt-2">
        Phone: <a href={`tel:${phone.replace(/[^+\d]/g, "")}`}>{phone}</a>
      </p>
      <p>
        E-mail: <a href={`mailto:${email}`}>{email}</a>
      </p>
    </address>
  );
}
