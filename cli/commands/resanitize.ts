import { resanitizeArticles } from "../../server/ingest/resanitize";
import { SANITIZE_POLICY_VERSION } from "../../server/ingest/sanitize";
import type { Command } from "../command";
import { withDatabase } from "../database";

const articles = (n: number) => `${n} article${n === 1 ? "" : "s"}`;

export const resanitize: Command = {
  name: "resanitize",
  summary:
    "Sanitise stored articles again under the current HTML policy (each ingest pass also does this).",
  usage: "news resanitize",
  options: {},
  async run() {
    return withDatabase("`news resanitize`", async (database) => {
      const { checked, rewritten } = await resanitizeArticles(database);
      const policy = `HTML policy ${SANITIZE_POLICY_VERSION}`;
      console.log(
        checked === 0
          ? `Every stored article is already sanitised under ${policy}.`
          : `Sanitised ${articles(checked)} again under ${policy}: ${articles(rewritten)} rewritten, the rest unchanged.`,
      );
      return 0;
    });
  },
};
