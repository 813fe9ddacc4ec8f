/**
 * Site settings: the publication's name, contact details, social accounts and sister sites.
 * Contact details, social handles and partner addresses here are SAMPLE values for the demo;
 * an operator replaces them with the publication's own.
 */

export interface SiteSettings {
  name: string;
  tagline: string;
  foundingYear: number;
  contact: {
    phone: string;
    email: string;
    address: {
      street: string;
      locality: string;
      region: string;
      postalCode: string;
      country: string;
    };
  };
  social: { label: string; url: string }[];
  partnerSites: { name: string; url: string }[];
  /** Text of the Breaking banner on the home page; empty hides the banner. */
  breaking: string;
}

export const site: SiteSettings = {
  name: "San Diego Local Ledger",
  tagline: "Independent news for San Diego County",
  foundingYear: 2020,
  contact: {
    // Sample details: 555-01xx numbers are reserved for fiction.
    phone: "+1 (619) 555-0142",
    email: "newsroom@example.com",
    address: {
      street: "1010 Second Avenue, Suite 1500 (sample address)",
      locality: "San Diego",
      region: "CA",
      postalCode: "92101",
      country: "US",
    },
  },
  social: [
    { label: "Facebook", url: "https://www.facebook.com/example" },
    { label: "X", url: "https://x.com/example" },
    { label: "Instagram", url: "https://www.instagram.com/example" },
    { label: "YouTube", url: "https://www.youtube.com/@example" },
  ],
  partnerSites: [
    { name: "North County Ledger (sample partner)", url: "https://north-county.example.org/" },
    { name: "East County Ledger (sample partner)", url: "https://east-county.example.org/" },
    { name: "South Bay Ledger (sample partner)", url: "https://south-bay.example.org/" },
  ],
  breaking: "City Council meets Tuesday to vote on the downtown housing plan (sample headline)",
};
