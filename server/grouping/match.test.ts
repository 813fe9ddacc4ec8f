import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import { describe, expect, it } from "vitest";
import {
  chooseGroup,
  fitsGroup,
  matchFeatures,
  MATCH_THRESHOLD,
  MATCH_WINDOW_HOURS,
  newsBlurSame,
  sameEvent,
  scorePair,
  wordWeights,
  type MatchArticle,
} from "./match";
import {
  eventNumbers,
  foldText,
  properNames,
  significantWords,
  trigrams,
  trigramSimilarity,
} from "./words";

const at = new Date("2022-04-05T12:00:00Z");

function article(title: string, feedId: number, excerpt = "", hoursLater = 0): MatchArticle {
  return { feedId, title, excerpt, publishedAt: new Date(at.getTime() + hoursLater * 3_600_000) };
}

describe("text", () => {
  it("folds case and accents as unaccent(lower()) does", () => {
    expect(foldText("Skarsgård Señor ÉCOLE Straße")).toBe("skarsgard senor ecole strasse");
  });

  it("keeps significant words, spelling variants meeting", () => {
    expect([
      ...significantWords("Zelenskyy tells the U.N.: Russia's forces must go, US says"),
    ]).toEqual(["zelensky", "tel", "un", "rusia", "force", "must", "go", "usa"]);
    expect(significantWords("Zelensky's speech")).toEqual(significantWords("Zelenskyy speech"));
    expect(significantWords("Bobbi-Anne McCleod")).toEqual(significantWords("Bobbi-Anne McLeod"));
    expect(significantWords("Ivanka testifies")).toEqual(significantWords("Ivanka to testify"));
  });

  it("takes numbers that name an event, not years, small counts or parts of names", () => {
    expect([
      ...eventNumbers("Musk bought 9.2% of Twitter; 1,200 war crimes; $90 million yacht"),
    ]).toEqual(["9.2", "1200", "90"]);
    expect([...eventNumbers("Covid-19 in 2022: F1, BA.2 and 3 cases")]).toEqual([]);
  });

  it("finds names in sentence case, only acronyms in a headline in title case", () => {
    expect([
      ...properNames("The Ukrainian president spoke to the U.N. Security Council on Tuesday."),
    ]).toEqual(["ukraine", "un", "security", "council"]);
    expect([...properNames("Elon Musk Joins Twitter Board After NASA Visit")]).toEqual(["nasa"]);
  });

  it("reads a people as its country and a body named in full as its acronym", () => {
    expect(significantWords("Russians shell Ukrainian towns")).toEqual(
      significantWords("Russia shells Ukraine towns"),
    );
    expect([...significantWords("British and American envoys")]).toEqual(["uk", "usa", "envoy"]);
    expect([...properNames("He spoke to the United Nations on Tuesday.")]).toEqual(["un"]);
    expect([...significantWords("United Nations vote")]).toEqual(["un", "vote"]);
  });

  it("drops newsletter labels from a headline", () => {
    expect([
      ...significantWords("Tuesday evening news briefing: Zelensky calls for UN ban"),
    ]).toEqual(["tuesday", "zelensky", "cal", "un", "ban"]);
  });
});

describe("trigrams as pg_trgm has them", () => {
  it("pads each word with two spaces before and one after", () => {
    expect([...trigrams("cat")].sort()).toEqual(["  c", " ca", "at ", "cat"]);
  });

  it("gives the numbers similarity(unaccent(lower(a)), unaccent(lower(b))) gives on PGlite", async () => {
    const pairs: [string, string][] = [
      ["Elon Musk to join Twitter board", "Elon Musk Joins Twitter Board"],
      [
        "Alexander Skarsgård says list hurt",
        "Alexander Skarsgard Says Being On The ‘Sexy’ List Hurt",
      ],
      ["Brussels to ban Russian coal imports", "Brussels prepares ban on Russian coal imports"],
      [
        "U.S. Seizes Oligarch’s $90 Million Yacht",
        "‘Not my yacht’ — how murky structures cloud ownership",
      ],
      ["Zelenskyy tells UN: act now", "Zelensky tells UN that Russia must be brought to justice"],
    ];
    const db = await PGlite.create({ extensions: { pg_trgm, unaccent } });
    try {
      await db.exec("CREATE EXTENSION pg_trgm; CREATE EXTENSION unaccent;");
      for (const [a, b] of pairs) {
        const { rows } = await db.query<{ s: number }>(
          "SELECT similarity(unaccent(lower($1)), unaccent(lower($2)))::float8 AS s",
          [a, b],
        );
        expect(trigramSimilarity(a, b)).toBeCloseTo(rows[0]?.s ?? NaN, 5);
      }
    } finally {
      await db.close();
    }
  });
});

// Decisions with every word weighing the same: the benchmark measures them with real weights.
const DECISIONS: {
  a: string;
  b: string;
  same: boolean;
  why: string;
  hours?: number;
  sameFeed?: boolean;
}[] = [
  {
    a: "Elon Musk to join Twitter board",
    b: "Elon Musk Joins Twitter Board",
    same: true,
    why: "wording",
  },
  {
    a: "Brussels to ban Russian coal imports",
    b: "Brussels prepares ban on Russian coal imports and transport operators",
    same: true,
    why: "one headline adds to the other",
  },
  {
    a: "Fire destroys three homes in Escondido, 12 people displaced",
    b: "Fire destroys 3 homes in Escondido; 12 displaced",
    same: true,
    why: "a wire copy with small edits",
  },
  {
    a: "Alexander Skarsgård Explained Why Being On A Sexy List Hurt His Career",
    b: "Alexander Skarsgard Says Being On The ‘Sexy Hunky Hot List’ Hurt His Hollywood Career",
    same: true,
    why: "accents and quotes",
  },
  {
    a: "Cody Ackland pleads guilty to murdering Plymouth teenager Bobbi-Anne McCleod",
    b: "Musician admits murdering teenager Bobbi-Anne McLeod",
    same: true,
    why: "a name spelt two ways",
  },
  {
    a: "Supreme Court rules against Navy SEALs in vaccine mandate case",
    b: "Supreme Court rules Texas abortion law can stay in force",
    same: false,
    why: "same court, two rulings",
  },
  {
    a: "Mitt Romney Explains His Surprising Reversal On Ketanji Brown Jackson",
    b: "Can Congressional Democrats Make a Deal on Covid Spending With Mitt Romney?",
    same: false,
    why: "one name shared",
  },
  {
    a: "a story 2",
    b: "b story 2",
    same: false,
    why: "one shared headline word, a number, is no headline overlap",
  },
  {
    a: "Second timeout story",
    b: "Second refused story",
    same: false,
    why: "only words every headline may use are shared",
  },
  {
    a: "Elon Musk to join Twitter board",
    b: "Elon Musk Joins Twitter Board",
    sameFeed: true,
    same: false,
    why: "one feed's own items are never grouped",
  },
  {
    a: "Elon Musk to join Twitter board",
    b: "Elon Musk Joins Twitter Board",
    hours: MATCH_WINDOW_HOURS + 1,
    same: false,
    why: "outside the window",
  },
];

describe("sameEvent", () => {
  it.each(DECISIONS)("$why: $a / $b", ({ a, b, same, hours, sameFeed }) => {
    const x = matchFeatures(article(a, 1));
    const y = matchFeatures(article(b, sameFeed ? 1 : 2, "", hours ?? 3));
    expect(sameEvent(x, y)).toBe(same);
  });

  it("counts the opening when the headlines differ", () => {
    const a = article(
      "Block is contacting 8.2 million customers after a former employee downloaded company reports",
      1,
      "Block, the company behind Cash App, says a former employee downloaded reports with customer names.",
    );
    const b = article(
      "Cash App breach impacted over 8 million users",
      2,
      "A former employee downloaded Cash App reports, Block said in an SEC filing; 8.2 million customers are affected.",
    );
    expect(sameEvent(matchFeatures(a), matchFeatures(b))).toBe(true);
  });

  it("weighs a word by how few recent articles have it", () => {
    const pool = [
      "Ukraine war latest",
      "Ukraine war: refugees",
      "Ukraine war in pictures",
      "Sacramento shooting",
    ].map((t, i) => matchFeatures(article(t, i)));
    const weight = wordWeights(pool);
    expect(weight("sacramento")).toBeGreaterThan(weight("ukraine"));
    const generic = scorePair(
      matchFeatures(article("Ukraine war: a new front", 1)),
      matchFeatures(article("Ukraine war: the refugees", 2)),
      weight,
    );
    expect(generic.score).toBeLessThan(0.55);
  });

  it("keeps two stories apart that share only the week's common names", () => {
    const week = [
      "Masters 2022: tee times and how to watch",
      "Tiger Woods practises at Augusta ahead of the Masters",
      "Masters invitations endure as a signature detail",
      "Tiger Woods: will he play?",
      "Scheffler arrives at the Masters as world number one",
    ].map((t, i) => matchFeatures(article(t, i)));
    const play = matchFeatures(article("Tiger Woods Says He Intends to Play the Masters", 1));
    const history = matchFeatures(article("Reliving How Tiger Woods Won the 1997 Masters", 2));
    const weight = wordWeights([...week, play, history]);
    expect(sameEvent(play, history, weight)).toBe(false);
  });
});

describe("shared names", () => {
  it("add only beyond the words both headlines already share", () => {
    const board = matchFeatures(
      article(
        "Elon Musk Joins Twitter Board",
        1,
        "After becoming Twitter’s largest shareholder, Elon Musk, Tesla’s chief executive, is joining the board.",
      ),
    );
    const filing = matchFeatures(
      article(
        "Elon Musk updates the paperwork on his Twitter purchase to avoid SEC drama",
        2,
        "Within the news of Elon Musk taking a stake in Twitter, the filing was amended.",
      ),
    );
    // Elon, Musk and Twitter are the headlines' overlap; counted again as names they joined the two.
    expect(scorePair(board, filing).sharedNames).toBe(0);
    const speech = matchFeatures(
      article(
        "Zelenskyy tells UN Russia wants to turn Ukrainians into 'silent slaves'",
        1,
        "He told the UN Security Council that Vladimir Putin's forces must be brought to justice.",
      ),
    );
    const bbc = matchFeatures(
      article(
        "Many more cities like Bucha, says President Zelensky",
        2,
        "Volodymyr Zelensky addressed the UN Security Council for the first time since the invasion.",
      ),
    );
    // Zelensky is in both headlines; the Security Council only in the openings.
    expect(scorePair(speech, bbc).sharedNames).toBe(3);
  });
});

describe("five shared rare words", () => {
  // A window of 300 articles, none with the words below: each of them is rare (in 1 % or fewer).
  const filler = Array.from({ length: 300 }, (_, i) =>
    matchFeatures(article(`Weather outlook ${i}: showers and sunny spells`, 100 + i)),
  );

  it("match two versions whose headlines differ, by the rare words both tell", () => {
    const a = matchFeatures(
      article(
        "Germany shuts down servers for Russian darknet marketplace Hydra",
        1,
        "German authorities shut down the server infrastructure of the Russian darknet marketplace Hydra, the Federal Crime Police Office said.",
      ),
    );
    const b = matchFeatures(
      article(
        "Germany seizes the world's largest, longest-serving dark web market",
        2,
        "German federal police working with US law enforcement have seized Hydra Market, the largest market in a crime wave this week.",
        2,
      ),
    );
    const weight = wordWeights([...filler, a, b]);
    const s = scorePair(a, b, weight);
    expect(Math.max(s.titleOverlap, s.openingOverlap)).toBeLessThan(MATCH_THRESHOLD);
    expect(s.rareWords).toBeGreaterThanOrEqual(5);
    expect(sameEvent(a, b, weight)).toBe(true);
  });

  it("count nothing when fewer than two of them are in a headline: background, not the story", () => {
    const a = matchFeatures(
      article(
        "Harbour council approves new ferry budget",
        1,
        "Councillors voted on Tuesday for two extra sailings a day, ten months after the storm closed the Brecqhou causeway, the Herm jetty and harbours on Alderney, Guernsey and Sark.",
      ),
    );
    const b = matchFeatures(
      article(
        "School inspectors praise island primary",
        2,
        "Inspectors praised reading and arithmetic; a project on the lighthouses of Alderney, Guernsey, Sark, Herm and Brecqhou won a national prize last spring.",
        2,
      ),
    );
    const weight = wordWeights([...filler, a, b]);
    const s = scorePair(a, b, weight);
    expect(s.sharedWords).toBeGreaterThanOrEqual(5);
    expect(s.rareWords).toBe(0);
    expect(sameEvent(a, b, weight)).toBe(false);
  });
});

describe("fitsGroup", () => {
  const speech = [
    "Zelenskyy tells UN Security Council Russia wants to turn Ukrainian people into 'silent slaves'",
    "Zelensky tells UN that Russia must be ‘brought to justice’ over atrocities",
  ].map((t, i) => matchFeatures(article(t, i + 1)));

  it("lets in a version that carries the words all the group's headlines share", () => {
    const telegraph = matchFeatures(
      article("Volodymyr Zelensky tells UN: Act now to stop Russia or dissolve yourself", 3),
    );
    expect(fitsGroup(telegraph, speech)).toBe(true);
  });

  it("lets in a version with three of them when near-identical headlines share many", () => {
    const fire = [
      "Wildfire near Julian forces 2,400 residents to evacuate as Santa Ana winds build",
      "Julian wildfire: 2,400 told to evacuate as Santa Ana winds fan the flames",
    ].map((t, i) => matchFeatures(article(t, i + 1)));
    const grows = matchFeatures(
      article(
        "Julian fire grows to 3,100 acres; 2,400 residents under evacuation orders",
        3,
        "Evacuation orders for 2,400 Julian residents stayed in place as the wildfire grew.",
      ),
    );
    expect(fitsGroup(grows, fire)).toBe(true);
  });

  it("keeps out a neighbouring story that lacks them (an explainer without Zelensky)", () => {
    const explainer = matchFeatures(
      article("Why Ukraine may struggle to get Russia thrown out of the UN Security Council", 3),
    );
    expect(fitsGroup(explainer, speech)).toBe(false);
    // A group of one is the match itself: nothing to check.
    expect(fitsGroup(explainer, speech.slice(0, 1))).toBe(true);
  });
});

describe("chooseGroup", () => {
  it("joins the group of the best match at the threshold, or none", () => {
    expect(
      chooseGroup([
        { group: "a", score: 0.6 },
        { group: "b", score: 0.9 },
      ]),
    ).toBe("b");
    expect(chooseGroup([{ group: "a", score: 0.3 }])).toBeNull();
    expect(chooseGroup([])).toBeNull();
  });

  it("passes over a group the article does not fit for the next best", () => {
    const candidates = [
      { group: "a", score: 0.9 },
      { group: "b", score: 0.6 },
      { group: "a", score: 0.8 },
    ];
    expect(chooseGroup(candidates, MATCH_THRESHOLD, (g) => g !== "a")).toBe("b");
    expect(chooseGroup(candidates, MATCH_THRESHOLD, () => false)).toBeNull();
  });
});

describe("NewsBlur's rule", () => {
  it("joins the same title and 60 % of significant words, at least 3, within 5 days", () => {
    const a = matchFeatures(article("Elon Musk to join Twitter board", 1));
    expect(
      newsBlurSame(a, matchFeatures(article("Elon Musk Joins Twitter Board", 2, "", 110))),
    ).toBe(true);
    expect(
      newsBlurSame(a, matchFeatures(article("Elon Musk Joins Twitter Board", 2, "", 121))),
    ).toBe(false);
    expect(newsBlurSame(a, matchFeatures(article("Elon Musk sells Tesla shares", 2)))).toBe(false);
  });
});
