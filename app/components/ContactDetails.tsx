import { site } from "../../content/site";

/** The office address, phone and e-mail from site settings. */
export function ContactDetails() {
  const { phone, email, address } = site.contact;
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
