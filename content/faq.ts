/**
 * The FAQ page's questions and answers, grouped by topic: coverage areas, submitting tips, events
 * and press releases, advertising, newsletters, corrections and privacy. Answers refer readers to
 * pages by path (e.g. /contact-us) and never hard-code a phone number, email or street address.
 */

export interface FaqItem {
  question: string;
  /** Plain text, one or more paragraphs separated by "\n\n". No HTML, no Markdown. */
  answer: string;
}

export interface FaqTopic {
  /** URL-safe id used as the section's anchor, e.g. "coverage-areas". */
  id: string;
  title: string;
  items: readonly FaqItem[];
}

export const FAQ_TOPICS: readonly FaqTopic[] = [
  {
    id: "coverage-areas",
    title: "Coverage Areas",
    items: [
      {
        question: "What area does the San Diego Local Ledger cover?",
        answer:
          "All of San Diego County: the city of San Diego’s neighborhoods, North County, East County, the South Bay and the backcountry. If it happens between the Orange County line and the Mexican border, or between the coast and the Imperial County line, it belongs on our pages.",
      },
      {
        question: "Which North County communities do you follow?",
        answer:
          "North County stories on the site come from coastal cities such as Oceanside, Carlsbad, Encinitas, Solana Beach and Del Mar, and from inland communities such as Vista, San Marcos, Escondido, Poway, Fallbrook and Valley Center. Housing, traffic on Interstate 5, Interstate 15 and State Route 78, water and coastal bluffs come up again and again.",
      },
      {
        question: "Do you cover East County?",
        answer:
          "Yes. You will find news from El Cajon, La Mesa, Santee, Lemon Grove, Lakeside, Spring Valley, Alpine and the communities around them. Lakeside, Spring Valley and Alpine are unincorporated, which means decisions about roads, zoning and services are made by the county Board of Supervisors rather than a city council, and we follow those decisions too.",
      },
      {
        question: "What about Chula Vista and the rest of the South Bay?",
        answer:
          "The South Bay is core territory for us: Chula Vista, National City, Imperial Beach, Bonita, Otay Mesa and San Ysidro. Stories there often involve the border, bayfront development, school districts and beach water quality near the Tijuana River Valley.",
      },
      {
        question: "Do you report on the border region?",
        answer:
          "Yes, as it affects people who live in San Diego County: wait times at the San Ysidro and Otay Mesa ports of entry, cross-border commerce and commuting, water quality at South Bay beaches, and federal immigration policy as it plays out locally. We are not a Baja California news source, but we include stories from Tijuana when they matter to readers on this side of the line.",
      },
      {
        question: "Do you cover Julian, Ramona, Borrego Springs and other backcountry communities?",
        answer:
          "We try to. Rural communities such as Julian, Ramona, Borrego Springs, Campo, Pine Valley and Jamul get less attention than the coast, so we include their news whenever it is reported. Wildfire preparedness, road closures, water and internet access are recurring topics.\n\nIf you live in the backcountry and see something we have missed, tell us through our Contact Us page (/contact-us).",
      },
      {
        question: "Which local governments do you keep track of?",
        answer:
          "The San Diego City Council, the councils of the county’s other 17 cities, the county Board of Supervisors, school boards, and the regional agencies that run transit, water and planning. Budgets, land-use decisions and elections at these levels get priority because they shape daily life most directly.",
      },
      {
        question: "Do you cover school boards?",
        answer:
          "Yes. Decisions by school boards, from San Diego Unified to small districts in North County, East County and the South Bay, affect budgets, campuses, staffing and families. Look in Local News and Politics / Government, or search for your district by name on our Search page (/search).",
      },
      {
        question: "Where do the stories on your site come from?",
        answer:
          "Most news items on the site are gathered from public news feeds published by other outlets. Each one names its source and has a “Read full article” link to the original story. Our own writing appears on our blog.",
      },
      {
        question: "Why does “Read full article” take me to another website?",
        answer:
          "Because the reporting belongs to the outlet that published it. We show a headline and a short summary so you can see what is happening across the county, then send you to the original so the full story is read where it was written and its reporters get the credit.",
      },
      {
        question: "Why do some linked articles ask me to subscribe or sign in?",
        answer:
          "Some original publishers limit free articles or require a subscription. That happens on their sites, not ours, and we cannot change it. Reading the San Diego Local Ledger itself never requires an account or sign-in.",
      },
      {
        question: "Do you publish national and world news too?",
        answer:
          "We have National News and World News sections, but our focus is San Diego County. Stories from beyond the county are most useful to our readers when they have a local angle, such as state budget decisions that reach local schools, federal rules that change life at the border, or military decisions involving the region’s bases.",
      },
      {
        question: "How do I find stories about my neighborhood?",
        answer:
          "Type the name of your neighborhood or city, such as “City Heights”, “Oceanside” or “Spring Valley”, into our Search page (/search). You can also browse sections such as Local News, Real Estate & Housing or Politics / Government from the menu.",
      },
      {
        question: "Can I read older stories?",
        answer:
          "Yes. Our Archives page (/archives) lets you filter past stories by category and by year. If you remember a word or a place from the story, the Search page (/search) is often faster.",
      },
      {
        question: "Do you cover Temecula, Riverside County or Imperial County?",
        answer:
          "Generally no. Our territory ends at the county line, so Temecula, Murrieta and the Imperial Valley fall outside it. We make exceptions when a story directly affects San Diego County, such as regional water supply, Interstate 15 commuting or a wildfire that crosses the line.",
      },
      {
        question: "My community feels under-covered. What can I do?",
        answer:
          "Tell us. Send story ideas, meeting notices and upcoming decisions through our Contact Us page (/contact-us) and choose the “news tip” category. Residents of places like Lemon Grove, Imperial Beach or Fallbrook often know about an issue long before it reaches a council agenda.",
      },
    ],
  },
  {
    id: "submitting-tips",
    title: "Submitting Tips",
    items: [
      {
        question: "How do I send you a news tip?",
        answer:
          "Use the form on our Contact Us page (/contact-us) and choose the “news tip” category. Tell us what happened, where and when, how you know, and how we can reach you if we have follow-up questions.",
      },
      {
        question: "What makes a tip useful?",
        answer:
          "Specifics. “The Escondido City Council added a land sale to next Tuesday’s consent calendar with no public discussion” gives us something to check; “something is going on at city hall” does not. Names, dates, places, agenda item numbers and the titles of public documents all help.",
      },
      {
        question: "What kinds of tips are you looking for?",
        answer:
          "Anything that matters to people who live in San Diego County: decisions by city councils, the Board of Supervisors and school boards; public safety; housing and development; business openings and closures; environmental problems; and anything that seems wrong that nobody has explained.",
      },
      {
        question: "Can I send a tip without giving my name?",
        answer:
          "You never need an account to use the form, and you can tell us in your message that you do not want to be named. Keep in mind that tips we cannot follow up on are much harder to verify, so a way to reach you, even one that does not identify you, makes it more likely we can act on what you send.",
      },
      {
        question: "Will you keep my identity confidential?",
        answer:
          "We take requests for confidentiality seriously. Say so at the start of your message, before sharing sensitive details, and we will talk with you about what we can and cannot promise before anything is published. We will not name you as a source without discussing it with you first.",
      },
      {
        question: "Should I send a tip from my work computer or work email?",
        answer:
          "Not if the tip is about your employer. Use a personal device on a personal network instead. Employers, including public agencies, can often see what is sent from their equipment and accounts.",
      },
      {
        question: "Can I send documents, photos or video?",
        answer:
          "Start by describing what you have in the contact form: what it is, where it came from and what it shows. If we need to see it, we will work out a way for you to send it. Please do not send originals you need back.",
      },
      {
        question: "What happens after I send a tip?",
        answer:
          "An editor reads it. If it looks promising, we may contact you with questions and then try to confirm it independently through public records, documents and other sources. We do not publish a tip on one person’s word alone.",
      },
      {
        question: "Will every tip become a story?",
        answer:
          "No. Some tips cannot be confirmed, some have already been reported, and some are better suited to another outlet or agency. Every tip still helps us understand what is happening in the county, and many shape coverage later even when they do not lead to a story right away.",
      },
      {
        question: "How quickly will you respond to my tip?",
        answer:
          "Our newsroom reads every message, but we cannot promise a personal reply to each one. If your tip is time-sensitive, for example about a vote scheduled for this week, say so in the first line.",
      },
      {
        question: "Is the contact form the right place to report an emergency?",
        answer:
          "No. For any emergency, call 911. For non-emergency police matters, contact your local police department or the Sheriff’s Department. Once everyone is safe, you are welcome to tell us what happened.",
      },
      {
        question: "Should I tell you about breaking news I see, like a fire or a major crash?",
        answer:
          "Yes, but your safety comes first. Stay clear of emergency crews, and only take photos if you can do so safely and legally. Tell us the exact location, the time and what you saw, and follow official evacuation orders and alerts from local agencies rather than waiting for a news story.",
      },
      {
        question: "Can I suggest a story that isn’t breaking news?",
        answer:
          "Please do. Long-running problems, trends in your neighborhood, overlooked community work and questions you wish someone would answer are all good story ideas. Send them through our Contact Us page (/contact-us) with the “news tip” category.",
      },
      {
        question: "Can I tip you off about a public meeting or agenda item?",
        answer:
          "Yes, and these tips are especially valuable. Important items are sometimes tucked into consent calendars or scheduled with little notice. Tell us which body is meeting, such as a city council, school board or planning group, the date, and the agenda item number if you have it.",
      },
      {
        question: "Do you pay for tips?",
        answer:
          "No. We do not pay sources for information. Paying for tips can give people a reason to exaggerate, and it would make it harder for readers to trust what we publish.",
      },
    ],
  },
  {
    id: "events-and-press-releases",
    title: "Events and Press Releases",
    items: [
      {
        question: "How do I submit an event?",
        answer:
          "Use the form on our Contact Us page (/contact-us) and choose the “event” category. Include the event’s name, date, start and end times, the venue and its address, the cost, who is organizing it, a link for more information, and any accessibility details.",
      },
      {
        question: "What is the difference between the Events page and the Local Events page?",
        answer:
          "The Events page (/events) covers what is happening around the county: a calendar of public holidays, featured events and categories to browse. The Local Events page (/local-events) is a community feed of happenings posted by neighbors and local organizers.",
      },
      {
        question: "What kinds of events do you list?",
        answer:
          "Events in San Diego County that are open to the public: festivals, farmers markets, library programs, beach and canyon cleanups, town halls, cultural celebrations, benefit events and similar gatherings, from Oceanside to San Ysidro and from Ocean Beach to Alpine.",
      },
      {
        question: "Does it cost anything to have an event listed?",
        answer:
          "We do not charge to consider a community event for our listings. If you want guaranteed placement or more prominence, that is advertising, and you can ask about it through our Contact Us page (/contact-us) with the “advertising” category.",
      },
      {
        question: "How far in advance should I send my event?",
        answer:
          "At least two weeks ahead is best, and earlier for large events. Last-minute submissions are welcome, but the closer the date, the less likely we can include them in time.",
      },
      {
        question: "Will every event I submit be listed?",
        answer:
          "No. Our editors choose what to list, and we may shorten or edit descriptions. Events outside San Diego County, events that are not open to the public, and submissions missing key details such as a date or address are the most likely to be left out.",
      },
      {
        question:
          "Can I submit a recurring event, like a weekly farmers market or monthly art walk?",
        answer:
          "Yes. Send it once and describe the schedule clearly, for example “every Saturday, 9 a.m. to 1 p.m., through the end of June”. Please tell us when the schedule changes or the event ends.",
      },
      {
        question: "My event was canceled or changed. What should I do?",
        answer:
          "Tell us as soon as you can through our Contact Us page (/contact-us), using the “event” category. Give the event’s name and original date, and what has changed, so we can update or remove the listing.",
      },
      {
        question: "Do you list private events or members-only events?",
        answer:
          "Generally no. Our listings are for events any reader can attend, even if a ticket or registration is required. Private parties, closed meetings and members-only events are not listed.",
      },
      {
        question: "How do I send you a press release?",
        answer:
          "Use the form on our Contact Us page (/contact-us). Choose “news tip” for announcements and “event” if the release is about an upcoming event, then paste the text of the release into the message along with the name of someone who can answer questions.",
      },
      {
        question: "What should a press release include?",
        answer:
          "A clear headline, the date, a first paragraph that says who, what, when and where, and a named contact who can answer questions. If it concerns a public decision, include a link to the agenda, report or filing it is based on.",
      },
      {
        question: "Will you publish my press release as written?",
        answer:
          "No. We treat a press release as a starting point, not a finished story. We may check its claims, contact other people, cover it in a few lines, or decide it is not news for our readers.",
      },
      {
        question: "Do you share announcements from nonprofits and community groups?",
        answer:
          "Yes, when they matter to readers: a new service, a clinic opening, a grant that reaches a neighborhood, or a change that affects people in a specific community. Public events from these groups can also appear on our events pages.",
      },
      {
        question: "Do events appear in the newsletter?",
        answer:
          "Thursday’s newsletter includes a roundup of the week’s events. Space is limited, so not every listed event makes the roundup.",
      },
      {
        question: "Can I pay to promote my event?",
        answer:
          "Yes, that is advertising, and it is handled separately from our listings. Ask through our Contact Us page (/contact-us) with the “advertising” category. Buying an ad does not affect whether an event is listed or covered as news.",
      },
    ],
  },
  {
    id: "advertising",
    title: "Advertising",
    items: [
      {
        question: "Do you accept advertising?",
        answer:
          "Yes. Advertising appears in designated spaces on our pages and helps pay for running the site. Readers can use the site without an account or sign-in.",
      },
      {
        question: "How do I ask about advertising?",
        answer:
          "Use the form on our Contact Us page (/contact-us) and choose the “advertising” category. Tell us your business or organization, what you want to promote, when you would like the ad to run, and a rough budget.",
      },
      {
        question: "Where do ads appear on the site?",
        answer:
          "In banner and sidebar spaces on the home page, on article pages and on section pages. Ads are kept in those spaces, set apart from the news, and are marked as advertising or sponsored content.",
      },
      {
        question: "How much does advertising cost?",
        answer:
          "It depends on the placement, how long the ad runs and when. Ask through our Contact Us page (/contact-us) and we will send current rates and availability.",
      },
      {
        question: "Can I reach readers in a particular part of the county?",
        answer:
          "Tell us who you are trying to reach, whether that is families in Chula Vista, commuters in Escondido or shoppers in La Mesa, and we will explain which placements are available. We cannot promise that an ad will be shown only to readers in a specific area.",
      },
      {
        question: "Do advertisers influence your coverage?",
        answer:
          "No. Advertising and editorial decisions are kept separate. Advertisers do not review stories before publication or decide what we cover, and buying an ad neither earns a business coverage nor protects it from coverage.",
      },
      {
        question: "Can I pay for a news story about my business?",
        answer:
          "No. We do not sell news coverage. If your business has genuine news, such as an opening, an expansion or a closure that affects a neighborhood, send it as a news tip through our Contact Us page (/contact-us).",
      },
      {
        question: "How can I tell an ad from a news story?",
        answer:
          "Ads appear in designated ad spaces and are labeled. News items show a headline, a short summary, their source and a “Read full article” link to the original story.",
      },
      {
        question: "Do you accept political or ballot measure ads?",
        answer:
          "Ask us before you prepare any material. Political and issue ads must carry the disclosures California law requires, and we review them case by case.",
      },
      {
        question: "Are there ads you won’t run?",
        answer:
          "Yes. We may decline ads that are misleading, unlawful, discriminatory or designed to look like news, and ads that make claims we cannot reasonably check.",
      },
      {
        question: "Can small businesses and nonprofits advertise?",
        answer:
          "Yes. We welcome questions from businesses and organizations of every size and in every part of the county, from a taqueria in National City to a bookstore in Escondido.",
      },
      {
        question: "Do I need to supply my own artwork?",
        answer:
          "Let us know whether you have finished artwork when you first get in touch. We will tell you the sizes and formats our ad spaces accept and what options there are if you do not have artwork yet.",
      },
      {
        question: "Why do I sometimes see ads from businesses outside San Diego?",
        answer:
          "Some ad spaces may be filled by an advertising network, so not every ad is picked individually by our staff. If an ad seems misleading or inappropriate, please report it.",
      },
      {
        question: "How do I report an ad that seems misleading or offensive?",
        answer:
          "Use our Contact Us page (/contact-us) with the “advertising” category. Tell us which page you were on, roughly when, and what the ad showed or where it led, so we can look into it.",
      },
    ],
  },
  {
    id: "newsletters",
    title: "Newsletters",
    items: [
      {
        question: "What newsletter do you send?",
        answer:
          "A morning email with the day’s San Diego stories. Thursday’s issue also includes a roundup of the week’s events.",
      },
      {
        question: "How do I sign up for the newsletter?",
        answer:
          "Enter your email address in the newsletter box on our home page and select Subscribe. That is all it takes.",
      },
      {
        question: "What information do I need to give to subscribe?",
        answer:
          "Only your email address. We do not ask for your name, your address or any account details.",
      },
      {
        question: "Do I need an account to manage my subscription?",
        answer:
          "No. There are no reader accounts on our site. You subscribe with the newsletter box and unsubscribe with the link in any issue.",
      },
      {
        question: "How do I unsubscribe?",
        answer:
          "Every issue has an unsubscribe link. Follow it and you will stop receiving the newsletter.",
      },
      {
        question: "I signed up but haven’t received anything. What should I check?",
        answer:
          "First check your spam, junk or promotions folder. Then make sure the address you entered was spelled correctly; if it was not, sign up again with the right one. If the newsletter still does not arrive, let us know through our Contact Us page (/contact-us) with the “general” category.",
      },
      {
        question: "Why does the newsletter end up in my spam folder?",
        answer:
          "Email providers filter messages automatically and sometimes catch newsletters by mistake. Marking an issue as “not spam” and adding our sending address to your contacts usually fixes it for future issues.",
      },
      {
        question: "How do I change the email address the newsletter goes to?",
        answer:
          "Unsubscribe using the link in an issue sent to your old address, then sign up with your new address in the newsletter box on our home page.",
      },
      {
        question: "What do you do with my email address?",
        answer:
          "We store it so we can send you the newsletter. Our Privacy Policy (/privacy-policy) explains how we handle it.",
      },
      {
        question: "Can I choose which topics or communities my newsletter covers?",
        answer:
          "Not at the moment. There is one newsletter, covering the whole county. To follow a specific topic or area, our sections and the Search page (/search) are the best tools.",
      },
      {
        question: "Can I forward the newsletter to friends?",
        answer:
          "Please do. If they like it, they can sign up with their own email address in the newsletter box on our home page.",
      },
      {
        question: "Do the newsletter’s links go to your site or to the original stories?",
        answer:
          "Like the site, the newsletter points you to the original reporting. Full articles live with the outlets that published them, and we link to them.",
      },
      {
        question: "Can I suggest something for the newsletter?",
        answer:
          "Yes. Send story ideas and tips through our Contact Us page (/contact-us) with the “news tip” category, and events with the “event” category. Our editors decide what goes into each issue.",
      },
      {
        question: "Do you send breaking news alerts?",
        answer:
          "No. The newsletter is a morning roundup, not an alert service. For major developing stories, check our home page, where a Breaking banner appears when warranted. In an emergency such as a wildfire, follow official alerts and instructions from county and local agencies.",
      },
    ],
  },
  {
    id: "corrections",
    title: "Corrections",
    items: [
      {
        question: "How do I report an error?",
        answer:
          "Use the form on our Contact Us page (/contact-us) and choose the “correction” category. Tell us which story or page it is, what is wrong, and what is correct.",
      },
      {
        question: "What helps you fix an error quickly?",
        answer:
          "The page’s address or the story’s headline, the exact wording that is wrong, and a source for the correct information, such as a public record, an official agency page or a document. The easier it is to check, the faster we can act.",
      },
      {
        question: "What if the error is in an article from another outlet?",
        answer:
          "The full story belongs to the outlet that published it, so contact that outlet directly; only it can correct its reporting. Please also tell us, so we can check how the story appears on our site.",
      },
      {
        question: "How do you handle corrections to your own work?",
        answer:
          "We check the claim, and if we got something wrong, we fix it and add a note saying what changed. We do not quietly change significant facts.",
      },
      {
        question: "What is the difference between a correction and an update?",
        answer:
          "A correction fixes something that was wrong. An update adds new information as a story develops, such as the outcome of a vote or a new statement from an agency. We label them differently so readers can tell which is which.",
      },
      {
        question: "Will you remove an article if I ask?",
        answer:
          "Generally no. Our archives are a record of what was reported, so we prefer to correct or update a story rather than remove it. Requests involving personal safety or legal concerns are considered individually. For articles from other outlets, removal is up to the original publisher.",
      },
      {
        question: "I’m named in a story and believe it is inaccurate. What can I do?",
        answer:
          "Send us the details through our Contact Us page (/contact-us) with the “correction” category, explaining specifically what is inaccurate and why. If the story was written by another outlet, contact that outlet as well, since it controls the original.",
      },
      {
        question: "Do small errors like a misspelled name or wrong neighborhood matter?",
        answer:
          "Yes. A misspelled name, a Spring Valley story placed in La Mesa, or a wrong street in Clairemont matters to the people involved and to our credibility. Please report them.",
      },
      {
        question: "A story is filed under the wrong category. Can you fix it?",
        answer:
          "Tell us through our Contact Us page (/contact-us) with the “correction” category, and include the headline and the category you think fits. We will take a look.",
      },
      {
        question: "A “Read full article” link is broken. What should I do?",
        answer:
          "Report it through our Contact Us page (/contact-us). Publishers sometimes move or remove stories, and we will check whether a working link to the original exists.",
      },
      {
        question: "An event listing has the wrong date, time or place. How do I fix it?",
        answer:
          "Send the correct details through our Contact Us page (/contact-us), using the “correction” category, with the event’s name and the date it is listed for. If you are the organizer, the “event” category works too.",
      },
      {
        question: "I disagree with an opinion piece. Is that a correction?",
        answer:
          "Not unless it gets a fact wrong. Opinions are for arguing with; factual errors are for correcting. You can send your view through our Contact Us page (/contact-us) with the “general” category, though we cannot promise to publish it.",
      },
      {
        question: "Will I hear back after reporting an error?",
        answer:
          "We review every correction request, and we may contact you if we need more information. We cannot promise an individual reply to every message.",
      },
      {
        question: "What happens if an error appears in the newsletter?",
        answer:
          "An issue that has already been sent cannot be changed. We fix the story on our site, and we may note a significant correction in a later issue.",
      },
      {
        question: "How long after publication can I report an error?",
        answer:
          "Any time. Older stories stay available in our Archives (/archives), so an error in a story from years ago still matters.",
      },
    ],
  },
  {
    id: "privacy",
    title: "Privacy",
    items: [
      {
        question: "Do I need an account to use the site?",
        answer:
          "No. You can read, search, vote in the community poll, subscribe to the newsletter and contact us without creating an account or signing in.",
      },
      {
        question: "What information do you collect when I just read the site?",
        answer:
          "Reading the site does not require you to tell us who you are. Like most websites, our servers may keep technical records of requests, for example to keep the site running and secure. Our Privacy Policy (/privacy-policy) has the details.",
      },
      {
        question: "What happens to my email address when I subscribe to the newsletter?",
        answer:
          "We store it to send you the newsletter. Every issue has an unsubscribe link, and once you unsubscribe, you stop receiving it.",
      },
      {
        question: "Is my vote in the community poll anonymous?",
        answer:
          "Yes. The poll on our Community page (/community) allows one vote per browser. To do that, it stores a random identifier in a cookie; it is not your name, email address or any account, and votes are stored anonymously.",
      },
      {
        question: "Why does the community poll say I’ve already voted?",
        answer:
          "The poll allows one vote per browser and remembers that you voted with a cookie. If you voted earlier in the same browser, you will see the results instead of the form.",
      },
      {
        question: "Are the community poll results scientific?",
        answer:
          "No. The poll is an informal snapshot of readers who chose to vote, not a representative survey of San Diego County residents, and it should not be read as one.",
      },
      {
        question: "What cookies does the site use?",
        answer:
          "The community poll uses a cookie to remember that your browser has voted. Ads and embedded content from other companies may set their own cookies. Our Privacy Policy (/privacy-policy) explains more, and your browser settings let you view and clear cookies.",
      },
      {
        question: "Do the ads on the site track me?",
        answer:
          "Some ad spaces and embedded videos may be provided by other companies, which can use cookies or similar technology under their own privacy policies. You can limit this through your browser’s privacy settings.",
      },
      {
        question: "What happens to my privacy when I follow a “Read full article” link?",
        answer:
          "You leave our site and go to the original publisher’s site, where its own privacy policy and cookies apply. We do not control what other sites collect.",
      },
      {
        question: "Do you keep track of what I search for?",
        answer:
          "Searches on our Search page (/search) are processed on our server to return results. Because there are no reader accounts, searches are not tied to an account or a profile. The words you search for do appear in the page’s address, so your browser may keep them in its history like any other page you visit.",
      },
      {
        question: "What happens to the information I send through the Contact Us form?",
        answer:
          "We use it to read and respond to your message and for our newsroom’s work, such as checking a tip or a correction. Please do not include sensitive personal information we do not need.",
      },
      {
        question: "Will my name be published if I send a tip or report an error?",
        answer:
          "We will not publish your name or contact details from the form, or name you as a source, without talking with you first.",
      },
      {
        question: "Can I ask you to delete information you hold about me?",
        answer:
          "For the newsletter, use the unsubscribe link in any issue. For anything else, such as a message you sent us, make a request through our Contact Us page (/contact-us). Our Privacy Policy (/privacy-policy) explains how we handle requests.",
      },
      {
        question: "Where can I read your full Privacy Policy and Terms of Service?",
        answer:
          "Our Privacy Policy is at /privacy-policy and our Terms of Service are at /terms-of-service. If something in them is unclear, ask us through our Contact Us page (/contact-us).",
      },
    ],
  },
];
