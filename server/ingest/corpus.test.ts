/**
 * The real-world feed corpus (see MANIFEST.tsv there): every file is read without a crash, and the first
 * item of a hand-checked sample of files has exactly the values below (checked against the XML by hand).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { normalizeItem } from "./normalize";
import { FeedParseError, parseFeed } from "./parse";
import type { NormalizedArticle, ParsedFeed } from "./types";

const CORPUS_DIR = process.env.FEED_CORPUS_DIR ?? path.resolve("../shared/feed-corpus");
const REAL_DIR = path.join(CORPUS_DIR, "real");
const exists = existsSync(path.join(REAL_DIR, "MANIFEST.tsv"));
if (!exists) console.log(`feed corpus not found at ${REAL_DIR}: corpus suite NOT run`);

interface ManifestRow {
  file: string;
  format: string;
  itemCount: number;
}

function readManifest(): ManifestRow[] {
  const [header, ...lines] = readFileSync(path.join(REAL_DIR, "MANIFEST.tsv"), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "");
  const columns = (header ?? "").split("\t");
  const at = (cells: string[], name: string) => cells[columns.indexOf(name)] ?? "";
  return lines.map((line) => {
    const cells = line.split("\t");
    return {
      file: at(cells, "file"),
      format: at(cells, "format"),
      itemCount: Number(at(cells, "item_count")),
    };
  });
}

/** Where our item count differs from the manifest's, and why. */
const COUNT_EXCEPTIONS: Record<string, { items: number; reason: string }> = {
  "node-feedparser__illegally-nested.xml": {
    items: 10,
    reason: "the manifest counts the ten empty <item /> elements nested inside the real items",
  },
};

const FEED_FORMAT: Record<string, ParsedFeed["format"]> = {
  rss2: "rss",
  rss09: "rss",
  rdf: "rdf",
  atom: "atom",
};

/** RSS 0.90 is written in RDF syntax; the manifest files it as rss09. */
const FORMAT_EXCEPTIONS: Record<string, ParsedFeed["format"]> = {
  "miniflux__rdf_UTF8.xml": "rdf",
};

function feedUrl(file: string): string {
  return `https://feeds.example.test/${file}`;
}

function read(file: string): { feed: ParsedFeed; articles: (NormalizedArticle | null)[] } {
  const feed = parseFeed(readFileSync(path.join(REAL_DIR, file)));
  const articles = feed.items.map((item) =>
    normalizeItem(item, { feedUrl: feedUrl(file), category: "local-news", baseUrl: feedUrl(file) }),
  );
  return { feed, articles };
}

interface Sample {
  file: string;
  baseUrl?: string;
  format: ParsedFeed["format"];
  items: number;
  title: string;
  link: string;
  date: string | null;
  author: string;
  image: string | null;
  excerptStart: string;
}

const SAMPLES: Sample[] = [
  {
    file: "sample-feeds__c5e0e655_feed.xml",
    format: "rss",
    items: 63,
    title: "US Blocks Russia’s Access to Dollars for Bond Payments",
    link: "https://www.nytimes.com/2022/04/05/business/russia-debt-dollars.html",
    date: "2022-04-05T21:46:13.000Z",
    author: "Alan Rappeport and Eshe Nelson",
    image:
      "https://static01.nyt.com/images/2022/04/06/business/05russia-debt-print/05russia-debt-moth.jpg",
    excerptStart: "The U.S. Treasury tightened its restrictions on Russian fina",
  },
  {
    file: "sample-feeds__b50cfa0f_feed.xml",
    format: "rss",
    items: 10,
    title:
      "Some 1,200 war crimes registered in Kyiv region during Ukraine war so far, police chief says",
    link: "https://news.sky.com/story/ukraine-war-some-1200-war-crimes-registered-in-kyiv-region-during-russias-invasion-so-far-police-chief-says-12583136",
    date: "2022-04-05T20:12:00.000Z",
    author: "Staff Writer",
    image: "https://e3.365dm.com/22/04/70x70/skynews-kyiv-ukraine_5730064.jpg?20220405213203",
    excerptStart: "Some 1,200 war crimes have already been registered in the Ky",
  },
  // site-relative item links resolve against the channel link
  {
    file: "sample-feeds__66aa3055_feed.xml",
    format: "rss",
    items: 31,
    title: "Brussels prepares ban on Russian coal imports and transport operators",
    link: "https://www.ft.com/content/c57f1115-2f03-4022-8eaf-8a7145f0e694",
    date: "2022-04-05T18:03:09.000Z",
    author: "Staff Writer",
    image: null,
    excerptStart: "New penalties need to be agreed by all 27 EU member states",
  },
  // Atom, escaped HTML content: the image is the first <img> of the content
  {
    file: "sample-feeds__90c65488_feed.xml",
    format: "atom",
    items: 10,
    title: "Anker’s first 3D printer might be the one you’ve been waiting for",
    link: "https://www.theverge.com/23012424/anker-first-3d-printer-ankermake-m5-price-specs-launch",
    date: "2022-04-06T07:00:39.000Z",
    author: "Sean Hollister",
    image:
      "https://cdn.vox-cdn.com/thumbor/mNO6LEr6JaVqNH___za1uWdA9qU=/0x0:2200x1467/1310x873/cdn.vox-cdn.com/uploads/chorus_image/image/70715528/ankermake_m5_3.0.jpg",
    excerptStart: "3D printing can be a time-consuming and expensive hobby — ev",
  },
  // YouTube: media:group thumbnail and description
  {
    file: "sample-feeds__fa88e615_feed.xml",
    format: "atom",
    items: 15,
    title: "The Aurora Grows | Critical Role | Campaign 3, Episode 49",
    link: "https://www.youtube.com/watch?v=0_NVdZp8haA",
    date: "2023-02-20T20:00:01.000Z",
    author: "Critical Role",
    image: "https://i1.ytimg.com/vi/0_NVdZp8haA/hqdefault.jpg",
    excerptStart: "This episode is sponsored by Thorum. Enjoy 20% off your Thor",
  },
  // no <title>: the title is the start of the text
  {
    file: "sample-feeds__f19a1363_feed.xml",
    format: "rss",
    items: 20,
    title: "mastodon.social is now entirely served from our new #Kubernetes cluster 🎉",
    link: "https://mastodon.social/@Gargron/109949892433321784",
    date: "2023-03-01T20:23:36.000Z",
    author: "Staff Writer",
    image: null,
    excerptStart: "mastodon.social is now entirely served from our new #Kuberne",
  },
  // xml:base on <rss>, image enclosure, "06:27 EDT" without seconds
  {
    file: "sample-feeds__ee43b6c3_feed.xml",
    format: "rss",
    items: 10,
    title: "NASA to Discuss Final Test Status Today Before Artemis Moon Mission",
    link: "http://www.nasa.gov/press-release/nasa-to-discuss-final-test-status-today-before-artemis-moon-mission",
    date: "2022-04-05T10:27:00.000Z",
    author: "Staff Writer",
    image:
      "http://www.nasa.gov/sites/default/files/styles/1x1_cardfeed/public/thumbnails/image/nhq202204040011.jpg?itok=HIRdKPmO",
    excerptStart: "NASA to Discuss Final Test Status Today Before Artemis Moon ",
  },
  // several media:content sizes: the widest wins
  {
    file: "rss-parser__guardian.rss",
    format: "rss",
    items: 55,
    title: "Trump State of the Union address promised unity but emphasized discord",
    link: "https://www.theguardian.com/us-news/2018/jan/31/donald-trump-state-of-the-union-address-unity-discord",
    date: "2018-01-31T07:26:05.000Z",
    author: "David Smith in Washington",
    image:
      "https://i.guim.co.uk/img/media/b73c8752cd4667c923dff7f1542f1fb20089e421/0_108_3000_1799/master/3000.jpg?w=460&q=55&auto=format&usm=12&fit=max&s=a606a273a90104e57b1e09bc4c0a1e11",
    excerptStart: "The president’s ‘new American moment’ speech stirred Republi",
  },
  // ISO-8859-1; feedburner:origLink over the redirect; 1x1 tracking pixel skipped
  {
    file: "rss-parser__encoding.rss",
    format: "rss",
    items: 40,
    title: "Mãe de utente é a nova presidente da Raríssimas",
    link: "https://www.jn.pt/nacional/interior/sonia-laig-e-a-nova-presidente-da-rarissimas-9021600.html",
    date: "2018-01-03T13:47:00.000Z",
    author: "Staff Writer",
    image: null,
    excerptStart: "Sónia Laygue, profissional na área da Recursos Humanos e mãe",
  },
  // undeclared ISO-8859-1 bytes; Portuguese day and month names
  {
    file: "rss-parser__uolNoticias.rss",
    format: "rss",
    items: 15,
    title: "Ibope: Bolsonaro perde de Haddad, Ciro e Alckmin em simulações de 2º turno",
    link: "https://noticias.uol.com.br/politica/eleicoes/2018/noticias/2018/09/24/ibope-bolsonaro-perde-de-haddad-ciro-e-alckmin-em-simulacoes-de-2-turno.htm",
    date: "2018-09-24T22:42:40.000Z",
    author: "Staff Writer",
    image:
      "https://conteudo.imguol.com.br/c/noticias/5f/2018/09/17/presidenciaveis-1537211917356_142x100.jpg",
    excerptStart: "Líder na pesquisa Ibope de intenção de voto para o primeiro ",
  },
  // RSS 1.0 with dc:creator and an empty CDATA description
  {
    file: "rss-parser__rss-1.rss",
    format: "rdf",
    items: 69,
    title: "Food for fungi",
    link: "http://science.sciencemag.org/cgi/content/short/356/6343/1134-a?rss=1",
    date: "2017-06-15T17:29:47.000Z",
    author: "Hines, P. J.",
    image: null,
    excerptStart: "",
  },
  // whitespace before the XML declaration; "07 Nov 2015 12:00:00 EST"
  {
    file: "rss-parser__itunes-missing-image.rss",
    format: "rss",
    items: 131,
    title: "Taverncast 62 - Temporal Anomaly",
    link: "http://taverncast.com/",
    date: "2015-11-07T17:00:00.000Z",
    author: "Taverncast",
    image: null,
    excerptStart: "Taverncast tosses around the age old topic: time travel! Whe",
  },
  // windows-1251
  {
    file: "node-feedparser__iconv.xml",
    format: "rss",
    items: 10,
    title: "В Бузулуке главные стройплощадки – детсад и Ледовый дворец",
    link: "http://www.oren.ru/news/2743422/",
    date: "2014-01-22T14:31:31.000Z",
    author: "Staff Writer",
    image: "http://www.oren.ru/upload/iblock/be8/stroitelstvo_krany.jpg",
    excerptStart: "Работы по возведению детского сада идут с опережением график",
  },
  // declares ISO-8859-1, bytes are UTF-8
  {
    file: "node-feedparser__mediacontent-dupes.xml",
    format: "rss",
    items: 1,
    title:
      "Could the infamous Black Dahlia case be about to be solved? Cadaver dog discovers death scent at Hollywood home of suspect 66 years after the horrific murder",
    link: "http://www.dailymail.co.uk/news/article-2272640/Could-infamous-Black-Dahlia-case-solved-Cadaver-dog-discovers-death-scent-Hollywood-home-suspect-66-years-horrific-murder.html?ITO=1490&ns_mchannel=rss&ns_campaign=1490",
    date: "2013-02-03T04:13:03.000Z",
    author: "Staff Writer",
    image: "http://i.mol.im/i/pix/2013/02/03/article-2272640-174FCEE2000005DC-697_154x115.jpg",
    excerptStart: "The shocking murder of Elizabeth Short, known as the Black D",
  },
  // relative channel and item links; 2-digit year
  {
    file: "node-feedparser__rss-with-relative-urls.xml",
    baseUrl: "http://www.arcgames.com/en/games/neverwinter/news/rss",
    format: "rss",
    items: 2,
    title: "Neverwinter & Jingle Jam Humble Bundle!",
    link: "http://www.arcgames.com/en/games/neverwinter/news/detail/10743874-neverwinter-%26-jingle-jam-humble-bundle%21",
    date: "2017-12-07T18:00:29.000Z",
    author: "Staff Writer",
    image: null,
    excerptStart: "Greetings Adventurers! Neverwinter is proud to partner once ",
  },
  // "Sat, Dec 16 2023 02:02:33 PM"
  {
    file: "feed-rs__rss_2.0_nbcny.xml",
    format: "rss",
    items: 1,
    title:
      "NYC cops search for stabbing suspect after leaving 18-year-old to bleed out on sidewalk",
    link: "https://www.nbcnewyork.com/news/local/nyc-cops-search-for-stabbing-suspect-after-leaving-18-year-old-to-bleed-out-on-sidewalk/4956764/",
    date: "2023-12-16T14:02:33.000Z",
    author: "Gaby Acevedo and Jessica Cunnington",
    image: null,
    excerptStart: "A young man was left for dead on a Manhattan sidewalk late F",
  },
  // gb2312; "2020/1/10 14:33:00"; the first <img> is a relative icon
  {
    file: "netnewswire__kc0011.rss",
    format: "rss",
    items: 20,
    title: "建国35周年纪念，华表，和平鸽",
    link: "http://www.kc0011.net/dispbbs.asp?BoardID=10&ID=25164257&Page=1",
    date: "2020-01-10T14:33:00.000Z",
    author: "大鱼儿",
    image: "http://www.kc0011.net/skins/default/filetype/jpg.gif",
    excerptStart:
      "建国35周年纪念，华表，和平鸽 35周年1套520，华表60一个，和平鸽20一个 一起出7枚680元，包真包老。品相如图",
  },
  // Atom with feedburner:origLink and media:thumbnail
  {
    file: "picofeed__googleblog.xml",
    format: "atom",
    items: 25,
    title: "A Chrome Experiment made with some friends from Oz",
    link: "http://googleblog.blogspot.com/2013/02/a-chrome-experiment-made-with-some.html",
    date: "2013-02-05T17:02:00.000Z",
    author: "Emily Wood",
    image: "http://img.youtube.com/vi/_2iDDI6Stx0/default.jpg",
    excerptStart: "You won’t need magical powers to take a journey down the yel",
  },
  // leading newline before the XML declaration
  {
    file: "feedjira__TechCrunch.xml",
    format: "rss",
    items: 20,
    title: "Angie’s List Sets Price Range IPO At $11 To $13 Per Share; Valued At Over $600M",
    link: "http://techcrunch.com/2011/11/02/angies-list-prices-ipo-at-11-to-13-per-share-valued-at-over-600m/",
    date: "2011-11-02T17:25:27.000Z",
    author: "Leena Rao",
    image: "http://tctechcrunch2011.files.wordpress.com/2011/11/angies-list.jpeg?w=150",
    excerptStart: "Angie's List, which offers consumers a way to review and rat",
  },
  // UTF-8 byte-order mark
  {
    file: "netnewswire__donthitsave.xml",
    format: "rss",
    items: 10,
    title: "Skipping Around",
    link: "https://donthitsave.com/comic/2019/05/24/skipping-around",
    date: "2019-05-24T07:00:00.000Z",
    author: "Staff Writer",
    image: "https://donthitsave.com/comicimages/dhs_2019-05-24_skipping-around.png",
    excerptStart: "I was nearly murdered by a coconut today. For real. This hap",
  },
  // RSS 0.90 namespace, no dates
  {
    file: "miniflux__rdf_UTF8.xml",
    format: "rdf",
    items: 60,
    title: "OLED-TVs: Vorsichtsmaßnahmen gegen Einbrennen",
    link: "https://www.heise.de/newsticker/meldung/OLED-TVs-Vorsichtsmassnahmen-gegen-Einbrennen-4205274.html?wt_mc=rss.ho.beitrag.rdf",
    date: null,
    author: "Staff Writer",
    image: null,
    excerptStart: "Wer gerade einen neuen OLED-Fernseher gekauft hat oder sich ",
  },
  // &nbsp; undeclared in XML, no declaration
  {
    file: "feed-rs__rss_2.0_dbengines.xml",
    format: "rss",
    items: 1,
    title: "Snowflake is the DBMS of the Year 2022, defending the title from last year",
    link: "https://db-engines.com/en/blog_post/103",
    date: "2023-01-03T15:00:00.000Z",
    author: "Matthias Gelbmann, Paul Andlinger",
    image: null,
    excerptStart: "Snowflake is the database management system that gained more",
  },
];

describe.skipIf(!exists)("real-world feed corpus", () => {
  const manifest = exists ? readManifest() : [];

  it("lists every file in the folder", () => {
    const files = readdirSync(REAL_DIR).filter((f) => !/^(MANIFEST\.tsv|LICENSES\.md)$/.test(f));
    expect(manifest.map((row) => row.file).sort()).toEqual(files.sort());
    expect(manifest.length).toBeGreaterThanOrEqual(70);
  });

  it.each(manifest.map((row) => [row.file, row] as const))("%s", (_file, row) => {
    let result: ReturnType<typeof read>;
    try {
      result = read(row.file);
    } catch (error) {
      // A feed we cannot read at all must say why, in one line.
      expect(error).toBeInstanceOf(FeedParseError);
      expect((error as Error).message).toMatch(/^(Malformed XML|Not a feed|Refused)/);
      return;
    }
    const { feed, articles } = result;
    expect(feed.format).toBe(FORMAT_EXCEPTIONS[row.file] ?? FEED_FORMAT[row.format]);
    expect(feed.items.length).toBe(COUNT_EXCEPTIONS[row.file]?.items ?? row.itemCount);
    for (const article of articles) {
      if (article === null) continue;
      expect(article.id).toMatch(/^[a-z0-9-]+$/);
      expect(article.link).toMatch(/^https?:\/\//);
      expect(article.title).not.toBe("");
      expect(article.excerpt.length).toBeLessThanOrEqual(203);
      expect(article.content).toMatch(/Read full article<\/a><\/p>$/);
      expect(article.content).not.toMatch(
        /<(script|style|iframe|object|embed|form|svg)\b|\son\w+=|javascript:/i,
      );
      if (article.image !== null) expect(article.image).toMatch(/^https?:\/\//);
    }
    // Two articles share an id exactly when they share guid (or link) and title: a feed that repeats an
    // item repeats its id, and one that reuses a guid for another title gets two ids.
    const ids = articles.flatMap((a) => (a === null ? [] : [a.id]));
    const keys = articles.flatMap((a) => (a === null ? [] : [`${a.guid ?? a.link}\n${a.title}`]));
    expect(new Set(ids).size).toBe(new Set(keys).size);
  });

  it.each(SAMPLES.map((s) => [s.file, s] as const))("first item of %s", (_file, sample) => {
    const base = sample.baseUrl ?? feedUrl(sample.file);
    const feed = parseFeed(readFileSync(path.join(REAL_DIR, sample.file)));
    const first = feed.items[0];
    if (first === undefined) throw new Error("no items");
    const article = normalizeItem(first, { feedUrl: base, category: "local-news", baseUrl: base });
    expect({
      file: sample.file,
      ...(sample.baseUrl === undefined ? {} : { baseUrl: sample.baseUrl }),
      format: feed.format,
      items: feed.items.length,
      title: article?.title,
      link: article?.link,
      date: article?.date?.toISOString() ?? null,
      author: article?.author,
      image: article?.image,
      excerptStart: article?.excerpt.slice(0, sample.excerptStart.length),
    }).toEqual(sample);
  });

  it("yields no items, without an error, for a feed cut off before its first item", () => {
    expect(read("feed-rs__rss_2.0_invalid_1.xml").feed.items).toEqual([]);
  });
});
