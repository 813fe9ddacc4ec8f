/**
 * Texts of the legal pages: the full Privacy Policy (/privacy-policy) and Terms of Service
 * (/terms-of-service), and the short Privacy (/privacy) and Terms (/terms) summaries.
 * These are SAMPLE texts written for the demo; an operator should have them reviewed by counsel
 * and adapted to the publication's actual practices before relying on them.
 */

import { site } from "./site";

export interface LegalSection {
  heading: string;
  /** Plain-text paragraphs; no HTML or Markdown. */
  paragraphs: readonly string[];
  /** Optional bullet list shown after the paragraphs. */
  list?: readonly string[];
}

export interface LegalText {
  title: string;
  /** One-sentence summary used as the page's meta description (max ~155 characters). */
  description: string;
  /** "April 26, 2025" on the long pages; absent on the short ones. */
  lastUpdated?: string;
  intro: string;
  sections: readonly LegalSection[];
}

const LAST_UPDATED = "April 26, 2025";

export const PRIVACY_POLICY: LegalText = {
  title: "Privacy Policy",
  description:
    "How we collect, use and protect information about readers, newsletter subscribers and people who contact us.",
  lastUpdated: LAST_UPDATED,
  intro: `This policy explains what information ${site.name} ("we", "us", "our") collects when you read our website, subscribe to our newsletter, vote in our community poll or write to us, how we use it, and the choices you have. The short version: you never need an account to read our site, we collect very little, and we do not sell what we collect.`,
  sections: [
    {
      heading: "Information we collect",
      paragraphs: [
        "We collect only what we need to publish the site and to respond to readers. Readers never sign in and there are no user accounts, so we do not keep profiles, passwords or reading histories tied to a person.",
        "Depending on how you use the site, we may handle the following kinds of information:",
      ],
      list: [
        "Your email address, if you subscribe to our newsletter.",
        "Your name, email address, the category you choose and your message, if you use our contact form.",
        "A random identifier stored in a cookie, if you vote in our community poll.",
        "Technical information that every web server receives, such as the page requested, the time of the request and your browser type, kept in our server logs without full IP addresses.",
        "Information that other companies collect directly when their advertising or embedded content loads on our pages, as described below.",
      ],
    },
    {
      heading: "Newsletter",
      paragraphs: [
        "To subscribe to our newsletter you give us an email address and nothing else. We store it so we can send you the newsletter and, now and then, a short notice about the newsletter itself, such as a change in schedule.",
        "You can unsubscribe at any time by following the unsubscribe instructions in any issue or by asking us through our Contact Us page. When you unsubscribe, we stop sending to your address and remove it from our mailing list.",
        "We do not use subscriber addresses for any other purpose, and we do not sell, rent or give our list to anyone else. If we use an email delivery service to send the newsletter, that service handles addresses only on our behalf and under our instructions.",
      ],
    },
    {
      heading: "Contact form",
      paragraphs: [
        "When you write to us through the contact form, we ask for your name, your email address, a category for your message and the message itself. We store what you send so that our newsroom can read it, reply to you and keep track of the conversation.",
        "Please do not send more personal information than you need to, particularly sensitive information about yourself or other people. If you send us a news tip and ask us to keep your identity confidential, we will not publish your name or contact details as a source without your agreement, and we will not share them outside the newsroom except where the law requires it.",
      ],
    },
    {
      heading: "Community poll",
      paragraphs: [
        "Our community poll allows one vote per browser. To make that work, the first time you vote we place a cookie in your browser containing a randomly generated identifier. The identifier is not derived from your name, email address, IP address or device, and we do not link it to any other information about you.",
        "We store the identifier with your answer so we can count votes and recognize that your browser has already voted. Poll results are published only as totals and percentages. If you delete the cookie, our site can no longer tell that your browser has voted.",
      ],
    },
    {
      heading: "Cookies and local storage",
      paragraphs: [
        "Our own site uses a single cookie: the poll cookie described above. It is set only when you vote, it expires after one year, it cannot be read by scripts running on the page, and browsers do not send it with requests started by other websites. We do not use cookies of our own for analytics, tracking or advertising, and our site does not store information in your browser's local storage.",
        'Companies whose advertising or embedded content appears on our pages may set their own cookies or use similar technologies when that content loads. Those are governed by the companies\' own policies; see "Advertising and third-party content" below.',
        "You can block or delete cookies in your browser's settings. Everything on our site can be read without cookies; if you block them, the poll simply cannot recognize that your browser has already voted.",
      ],
    },
    {
      heading: "Server logs and rate limiting",
      paragraphs: [
        "Like every website, our servers receive technical information with each request, including the address of the page requested, the time, the response we sent and the browser's user-agent string. We keep server logs to run the site, find and fix errors, and protect the site against abuse. Our logs do not keep full IP addresses.",
        "To protect our forms from spam and automated abuse, we limit how many times forms can be submitted from a single IP address in a short period. That count is kept only in the server's memory. It is never written to our logs, to disk or to our database, and it is discarded when the time window passes or the server restarts.",
      ],
    },
    {
      heading: "Advertising and third-party content",
      paragraphs: [
        "Advertising. Some pages have spaces for advertising. When a space shows a sponsor message that we serve ourselves, nothing is loaded from another company. Only when we configure an advertising provider for a space does that provider's script load in your browser; the provider may then receive your IP address and browser information and may set or read cookies, for example to measure or personalize ads.",
        "News from other publishers. Our news pages show headlines, excerpts and images from the public news feeds of other publishers, with a \"Read full article\" link to the original. Images shown with those headlines may be loaded from the publisher's own servers, which then receive the information your browser normally sends. When you follow a link to the original article, you leave our site and the publisher's privacy policy applies.",
        "Embedded content. Some pages include content hosted by other services. When it loads, the provider receives the information your browser normally sends, such as your IP address, and may set cookies or record your interaction under its own privacy policy. We do not control what these providers collect, and we encourage you to read their policies. Our embedded content includes:",
      ],
      list: [
        "A video player in the provider's privacy-enhanced mode, which loads nothing from the provider until you click to play.",
        "Event calendars provided by a calendar service.",
        "A social media wall showing public posts from social networks.",
        "An image feed from an image-sharing board.",
      ],
    },
    {
      heading: "How we use information",
      paragraphs: [
        "We use the information described in this policy only for the purposes for which it was given or collected. We do not build profiles of readers, and we do not make decisions about anyone by automated means that have legal or similarly significant effects. We use information:",
      ],
      list: [
        "to send the newsletter to people who asked for it;",
        "to read and answer messages, follow up on tips and corrections, and consider event listings;",
        "to count poll votes and show the results;",
        "to operate, secure and fix the site, and to prevent spam and abuse;",
        "to understand in general terms how the site is used, from logs that do not identify individual readers;",
        "to comply with the law and to protect our rights and the rights and safety of others.",
      ],
    },
    {
      heading: "How we share information",
      paragraphs: [
        "We do not sell personal information, and we do not give or rent our newsletter list or the messages readers send us to advertisers, data brokers or other publications. We share personal information only in these limited cases:",
      ],
      list: [
        "With service providers that host our site, store our data or deliver email for us, who may use it only to provide those services to us.",
        "When the law requires it, for example in response to a valid subpoena or court order. As a news organization, we protect our sources and will resist demands for information about them to the extent the law allows.",
        "When it is reasonably necessary to protect the safety of any person, or to investigate fraud, security problems or abuse of the site.",
        "If the publication is reorganized, merged or sold, in which case the information remains subject to the promises in this policy.",
        "With your permission.",
      ],
    },
    {
      heading: "How long we keep information",
      paragraphs: [
        "We keep personal information only as long as we need it for the purpose we collected it for, or as long as the law requires. In practice:",
      ],
      list: [
        "Newsletter addresses: until you unsubscribe, or until we stop publishing the newsletter.",
        "Contact messages: as long as we need them to respond and to keep a reasonable record of our correspondence, after which we delete them. Tips and messages connected with published reporting may be kept longer as part of our editorial records.",
        "Poll votes: the random identifier and your answer for as long as we keep that poll's results. The cookie in your browser expires after one year.",
        "Server logs: for a limited period for security and troubleshooting, and then deleted.",
        "Form rate-limit counts: in memory only, for the length of the time window.",
      ],
    },
    {
      heading: "Your rights and choices",
      paragraphs: [
        "You can unsubscribe from the newsletter at any time, delete the poll cookie from your browser, and block cookies and third-party scripts with your browser's settings or extensions.",
        "Wherever you live, you may ask us what personal information we hold about you, ask us to correct it, or ask us to delete it. Because we have no accounts, we can usually find information only by the email address you used to subscribe or to write to us, and we may ask you to confirm that you control that address before we act on a request. We will not treat you differently for making a request.",
        'California residents. The California Consumer Privacy Act, as amended by the California Privacy Rights Act (CCPA/CPRA), gives California residents specific rights. In the past 12 months we have collected the categories of personal information described in this policy: identifiers (such as email addresses, names and the random poll identifier), internet activity information (such as server log entries) and the contents of messages you send us. We collected them from you directly or from your browser, for the purposes described in "How we use information".',
        'We do not sell personal information for money, and we do not knowingly sell or share the personal information of consumers under 16. If we enable advertising that personalizes ads, the collection of identifiers by advertising providers through their scripts may count as "sharing" under California law. In that case we will offer a way to opt out, and we will treat a Global Privacy Control signal from your browser as a valid request to opt out. We do not disclose personal information to third parties for their own direct marketing purposes, as described in California Civil Code section 1798.83.',
        "To exercise your rights, contact us through our Contact Us page. You may use an authorized agent, in which case we may ask for proof of the agent's authority and may need to verify your identity. We will respond within the time the law allows, normally 45 days. Under the CCPA, California residents have the right to:",
      ],
      list: [
        "know the categories and specific pieces of personal information we have collected about them, the sources, the purposes, and the categories of third parties to whom we disclose it;",
        "delete personal information we collected from them, subject to exceptions in the law;",
        "correct inaccurate personal information;",
        "opt out of the sale of their personal information or its sharing for cross-context behavioral advertising;",
        "limit the use of sensitive personal information (we do not collect sensitive personal information to infer characteristics about anyone);",
        "not be discriminated against for exercising any of these rights.",
      ],
    },
    {
      heading: "Children's privacy",
      paragraphs: [
        "Our site is a general-audience news site and is not directed to children under 13. We do not knowingly collect personal information from children under 13. If you believe a child has given us personal information, for example by subscribing to the newsletter, please contact us and we will delete it.",
        "Students and young readers are welcome to read our reporting, which requires no sign-in and no personal information.",
      ],
    },
    {
      heading: "Security",
      paragraphs: [
        "We protect the information we hold with safeguards that are reasonable for a publication of our size. These include encrypted connections to our site, access to subscriber addresses and messages only for the staff who need it, and keeping as little information as we can in the first place. The poll cookie is protected from scripts on the page and from being sent with other sites' requests.",
        "No website or system is perfectly secure. If we learn of a security incident affecting your personal information, we will notify you and the authorities as the law requires.",
      ],
    },
    {
      heading: "International readers",
      paragraphs: [
        "We are based in San Diego, California. If you read our site from outside the United States, the information you send us will be processed in the United States or wherever our service providers operate, where data protection laws may differ from those where you live.",
        "If you live in the European Economic Area, the United Kingdom or another place with similar laws, you may have rights to access, correct or delete your information, to restrict or object to its processing, and to complain to your local data protection authority. We rely on your consent for the newsletter and the poll cookie, and on our legitimate interests in running a secure news site and answering readers for the contact form and server logs. You can withdraw your consent at any time by unsubscribing or deleting the cookie, and you can exercise your other rights by contacting us.",
      ],
    },
    {
      heading: "Changes to this policy",
      paragraphs: [
        'We may update this policy when our practices change or when the law requires it. We will post the new version on this page and change the "Last updated" date at the top. If we make a significant change to how we use information we already hold, such as newsletter addresses, we will tell subscribers by email before the change takes effect.',
      ],
    },
    {
      heading: "Contact us",
      paragraphs: [
        "If you have a question about this policy, or want to make a request about your personal information, please reach us through our Contact Us page and choose the category that fits your message best. A person reads every message, and we will reply as soon as we can.",
      ],
    },
  ],
};

export const TERMS_OF_SERVICE: LegalText = {
  title: "Terms of Service",
  description:
    "The terms that apply when you read our site, subscribe to our newsletter, send us tips or events, or use our community features.",
  lastUpdated: LAST_UPDATED,
  intro: `These terms govern your use of the ${site.name} website and the services we offer through it, including our newsletter, community poll and contact form. We have tried to write them plainly, but they are a legal agreement between you and us, and they include the limits on our responsibility that any publisher needs. Please read them carefully.`,
  sections: [
    {
      heading: "Accepting these terms",
      paragraphs: [
        "By visiting or using our site, you agree to these terms and to our Privacy Policy, which explains how we handle personal information. If you do not agree, please do not use the site.",
        `In these terms, "we", "us" and "our" mean ${site.name}, and "you" means anyone who uses the site. If you use the site on behalf of an organization, you accept these terms for that organization as well.`,
        "You must be at least 13 years old to subscribe to our newsletter or to send us submissions. If you are under 18, please review these terms with a parent or guardian.",
      ],
    },
    {
      heading: "The service",
      paragraphs: [
        `${site.name} is an independent local news publication covering San Diego County. Our site brings together our own blog posts and guides; headlines from other news publishers; community event listings; practical information such as listings of electric-vehicle charging stations, published as part of our automotive and energy coverage; a newsletter; a community poll; and a contact form for questions, tips and corrections.`,
        "Reading the site is free, and you do not need an account; we do not offer accounts. We may add, change, suspend or discontinue any part of the service at any time, and we do not promise that the site or any feature will always be available or free of errors.",
      ],
    },
    {
      heading: "News from other publishers and links",
      paragraphs: [
        "Part of our news coverage is gathered automatically from public RSS and Atom feeds that other news publishers make available. For each item we show the headline, a short excerpt and an image as provided in the feed, with a \"Read full article\" link to the original on the publisher's own site. We do not republish the full text of other publishers' articles.",
        "Those headlines, excerpts and images belong to their publishers or their publishers' licensors, who remain responsible for them. We do not write, edit or verify them, and their appearance on our site does not mean we endorse them. Links take you to sites we do not control, whose own terms and privacy policies apply.",
        "Publishers who would prefer that we not include their feed, or who want an item corrected or removed, can tell us through our Contact Us page, and we will act promptly.",
        "If you believe anything on our site infringes your copyright, please send us a notice through our Contact Us page that identifies the work, the material you believe infringes it and where it appears on our site, gives your contact details, and states that you are the owner or are authorized to act for the owner and that the notice is accurate to the best of your knowledge. We respond to notices that meet the requirements of the Digital Millennium Copyright Act.",
      ],
    },
    {
      heading: "Our content and your license to use it",
      paragraphs: [
        "Our own articles, blog posts, guides, photographs, graphics and listings, and our name and logo, are owned by us or our contributors and are protected by copyright and trademark law. The software that runs this site is published separately under its own open-source license, and these terms do not change that license.",
        "We give you a personal, non-exclusive, non-transferable and revocable license to read our content and to print or save single copies for your own non-commercial use. You are welcome to share links to our stories and to quote brief excerpts with credit and a link to the original, as fair use allows.",
        "Unless we agree in writing, you may not republish, sell, license or redistribute our content, frame it on another site, remove copyright notices, or use our name or logo in a way that suggests we endorse you or your organization. If you would like to republish one of our stories, ask us through our Contact Us page.",
      ],
    },
    {
      heading: "Acceptable use",
      paragraphs: [
        "Please use the site lawfully and with respect for others. We may block access, remove submissions or take other reasonable steps to stop misuse, and we may report illegal activity to the authorities. In particular, you agree not to:",
      ],
      list: [
        "break any law or infringe the rights of others, including their privacy and intellectual property;",
        "submit anything false, defamatory, harassing, threatening, hateful or obscene, or impersonate another person or organization;",
        "send spam, advertising or chain messages through our forms;",
        "try to get around the one-vote-per-browser limit on our poll or the limits we place on form submissions;",
        "upload viruses or other harmful code, or probe, scan or test the security of the site without our permission;",
        "scrape, crawl or copy the site in bulk in a way that places an unreasonable load on our servers or ignores our robots.txt instructions;",
        "interfere with the site's operation or with other people's use of it.",
      ],
    },
    {
      heading: "Tips, event listings and messages you send us",
      paragraphs: [
        "You can send us news tips, corrections, event listings for our calendars and other messages through our contact form. You are responsible for what you send. Please send only information that is accurate to the best of your knowledge and that you have the right to share.",
        "You keep ownership of what you send. By sending it, you give us a non-exclusive, royalty-free, worldwide and perpetual license to use, edit, publish and distribute it in connection with our journalism and the site, in any medium. For event listings, this means we may shorten or edit the description and decide whether and where to publish it.",
        "Sending us something does not oblige us to publish it, to reply, or to keep it. We decide independently what we report. A tip is a starting point: we check information before we publish it and may contact you with questions. If you want your identity kept confidential, say so clearly at the start of your message, before you share details. Suggestions about the site itself may be used without any obligation to you.",
      ],
    },
    {
      heading: "Newsletter and community poll",
      paragraphs: [
        "If you subscribe to our newsletter, we will send it to the email address you give us until you unsubscribe, which you can do at any time. Please subscribe only an address you control. We may change the newsletter's content, frequency or format, or stop publishing it.",
        "Our community poll is an informal way to hear from readers. It allows one vote per browser and is not a scientific survey: the results reflect only the people who chose to vote and should not be read as the views of San Diegans as a whole. We may close, reset or remove a poll at any time.",
      ],
    },
    {
      heading: "Advertising and embedded content",
      paragraphs: [
        "The site may show advertising and sponsor messages, which help pay for our journalism. Advertisers are responsible for their ads, and an ad's appearance on our site is not an endorsement of the advertiser or its products. Any dealings you have with an advertiser are between you and the advertiser.",
        "Advertising is kept separate from our newsroom. Advertisers do not decide what we cover or how, and we label sponsored material clearly. Where ads are delivered by an advertising provider, that provider's own terms and privacy policy also apply; our Privacy Policy explains what it may collect.",
        "Some pages include content from other services, such as videos, calendars, social media posts and image feeds. That content is provided by those services under their own terms, and we are not responsible for it.",
      ],
    },
    {
      heading: "Events, listings and practical information",
      paragraphs: [
        "We publish practical information such as community event listings, resource links and listings of electric-vehicle charging stations. We gather it from organizers, operators and public sources and try to keep it current, but details change without notice: event times move, charging stations go out of service, and prices and access rules are set by their operators.",
        "Please confirm details directly with the organizer or operator before you rely on them, especially before you travel. If you notice an error in one of our listings, tell us through our Contact Us page and we will correct it.",
      ],
    },
    {
      heading: "Disclaimers",
      paragraphs: [
        'We work hard to be accurate, and we correct errors when we find them. But the site and everything on it are provided "as is" and "as available". To the fullest extent the law allows, we make no warranties of any kind, express or implied, including warranties of merchantability, fitness for a particular purpose, accuracy, completeness, timeliness and non-infringement.',
        "Our reporting and guides are general information. They are not legal, financial, medical, tax or other professional advice and are no substitute for advice from a qualified professional about your own situation. Weather, traffic, public-safety and emergency information on the site may be out of date; in an emergency, call 911 and follow instructions from official sources.",
        "We do not warrant that the site will be uninterrupted, secure or free of viruses, or that content from other publishers, advertisers or embedded services is accurate or safe.",
      ],
    },
    {
      heading: "Limitation of liability",
      paragraphs: [
        `To the fullest extent the law allows, ${site.name} and its owners, staff, contributors and service providers will not be liable for any indirect, incidental, special, consequential, exemplary or punitive damages, or for any loss of profits, data, goodwill or opportunity, arising out of or related to your use of, or inability to use, the site, even if we have been told that such damages were possible.`,
        "Our total liability for any claim relating to the site or these terms is limited to one hundred U.S. dollars (US$100). Reading our site is free, and these limits are a reasonable allocation of risk for a free service.",
        "Some jurisdictions do not allow certain warranties to be excluded or certain liabilities to be limited, so some of the limits above may not apply to you. Nothing in these terms limits liability that cannot be limited by law.",
      ],
    },
    {
      heading: "Indemnity",
      paragraphs: [
        `If you break these terms, misuse the site, or send us a submission that infringes someone else's rights or breaks the law, you agree to defend and indemnify ${site.name} and its owners, staff and contributors against the resulting claims, losses, liabilities and costs, including reasonable attorneys' fees. We will tell you about any such claim and may take part in the defense with counsel of our choice.`,
      ],
    },
    {
      heading: "Governing law and disputes",
      paragraphs: [
        "These terms are governed by the laws of the State of California and by applicable federal law of the United States, without regard to conflict-of-laws rules. Any dispute arising out of or relating to these terms or the site will be brought only in the state or federal courts located in San Diego County, California, and you and we consent to the personal jurisdiction of those courts.",
        "Before filing a claim, please contact us and give us a chance to resolve the issue informally; most concerns can be settled with a conversation. If you live outside the United States, mandatory consumer protection laws of your country may give you rights that these terms cannot take away.",
      ],
    },
    {
      heading: "Changes to these terms",
      paragraphs: [
        'We may revise these terms from time to time, for example when we add features or when the law changes. We will post the revised terms on this page and update the "Last updated" date at the top. Changes apply from the date they are posted and do not apply to disputes that arose before then. If you keep using the site after a change, you accept the revised terms.',
      ],
    },
    {
      heading: "General",
      paragraphs: [
        "These terms and our Privacy Policy are the whole agreement between you and us about the site. If any part of these terms is found unenforceable, the rest remains in effect. If we do not enforce a provision right away, we have not given up the right to enforce it later. You may not transfer your rights under these terms; we may transfer ours to a successor publisher. Headings are for convenience only.",
      ],
    },
    {
      heading: "Contact us",
      paragraphs: [
        "Questions about these terms, permission requests, copyright notices and corrections can all reach us through our Contact Us page. Please choose the category that best fits your message so that it reaches the right person.",
      ],
    },
  ],
};

export const PRIVACY_SHORT: LegalText = {
  title: "Privacy",
  description:
    "A short summary of how we treat your information, including on the charging station listings we publish.",
  intro:
    "We collect as little as we can, never sell it, and use it only to run this site and our newsletter. This page is a plain-language summary; our full Privacy Policy gives the details and applies where the two differ.",
  sections: [
    {
      heading: "What we collect",
      paragraphs: [
        "You can read everything on our site without an account or sign-in. We collect personal information only when you give it to us: your email address if you subscribe to the newsletter, and your name, email address and message if you write to us through our contact form.",
        "Voting in our community poll stores a random identifier in a cookie so that each browser votes only once. The identifier contains no personal data, and it is the only cookie our own site sets.",
      ],
    },
    {
      heading: "Charging station listings",
      paragraphs: [
        "The electric-vehicle charging station listings we publish as part of our automotive and energy coverage describe places, not people, and carry no personal data. We do not ask for or collect your location when you view or browse them. If you follow a link to a charging network's website or app, that operator's privacy policy applies.",
      ],
    },
    {
      heading: "How we use it",
      paragraphs: [
        "We use what you give us only to send the newsletter, answer your message and count poll votes. We do not sell personal information or build profiles of readers. You can unsubscribe from the newsletter at any time.",
        "Our server logs keep no full IP addresses, and the limit that protects our forms from spam counts submissions in memory only.",
      ],
    },
    {
      heading: "Other companies' content",
      paragraphs: [
        "Headlines from other publishers link to the publishers' own sites. Some pages also include advertising or embedded videos, calendars, social posts and image feeds from other companies, which may receive your IP address and set their own cookies when their content loads. Our video player loads nothing from its provider until you click to play.",
      ],
    },
    {
      heading: "Your choices",
      paragraphs: [
        "You can delete or block cookies in your browser, and you can ask us through our Contact Us page to tell you what we hold about you, correct it or delete it. California residents have additional rights, which our full Privacy Policy describes.",
      ],
    },
  ],
};

export const TERMS_SHORT: LegalText = {
  title: "Terms",
  description:
    "A short summary of the terms for using this site, including the charging station listings we publish.",
  intro:
    "This page summarizes the rules for using our site in plain language. Our full Terms of Service apply and take precedence where the two differ.",
  sections: [
    {
      heading: "Using the site",
      paragraphs: [
        "Reading our site is free and needs no account. Our articles, blog posts and guides are for your personal reading. Please share links rather than copying whole stories, and ask us before you republish anything.",
        "We may change or pause any part of the site, and we may update these terms from time to time. The full Terms of Service show the date of the latest change.",
      ],
    },
    {
      heading: "News from other publishers",
      paragraphs: [
        "Headlines, excerpts and images gathered from other publishers' public feeds belong to those publishers. We link to the original article, and each publisher is responsible for its own reporting and website.",
        "Some pages also show advertising, or videos, calendars, social posts and image feeds embedded from other companies. Those companies' own terms apply to their content, and an ad on our site is not an endorsement.",
      ],
    },
    {
      heading: "Charging station listings",
      paragraphs: [
        "Our listings of electric-vehicle charging stations are informational and provided as they are. Locations, connector types, hours, availability and prices change, and they are set by the station operators, so check availability and pricing with the operator or its app before you travel.",
        "We are not responsible for a station being unavailable, out of service or priced differently from our listing. If you spot an error, tell us and we will correct it.",
      ],
    },
    {
      heading: "What you send us",
      paragraphs: [
        "Tips, event listings and messages you send must be accurate and lawful, and by sending them you allow us to use them in our reporting and listings. Please do not misuse our forms, try to vote more than once in the poll, or interfere with the site.",
      ],
    },
    {
      heading: "Our responsibility",
      paragraphs: [
        "We work hard to be accurate, but we provide the site without warranties, and our liability is limited as far as the law allows. California law governs these terms, and disputes belong in the courts of San Diego County. Questions are welcome through our Contact Us page.",
      ],
    },
  ],
};
