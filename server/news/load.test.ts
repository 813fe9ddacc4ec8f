import { data, redirect } from "react-router";
import { describe, expect, it } from "vitest";
import { createLogger } from "../logger";
import { readOr503, readOrEmpty } from "./load";

const logger = createLogger("silent");

/** What `data()` returns: a value with the status and headers to answer with. */
type DataWithResponseInit<D> = ReturnType<typeof data<D>>;

/** What `read` threw, or a failure if it did not throw. */
async function thrown(read: () => Promise<unknown>): Promise<unknown> {
  try {
    await read();
  } catch (error) {
    return error;
  }
  throw new Error("expected the read to throw");
}

describe("readOr503", () => {
  it("returns what the reads return", async () => {
    expect(await readOr503(logger, "Failed", async () => [1, 2])).toEqual([1, 2]);
  });

  it("answers 503 with the page's message when the database fails, never the cause", async () => {
    const error = await thrown(() =>
      readOr503(logger, "Failed to load news data", async () => {
        throw new Error("connection refused (password=secret)");
      }),
    );
    expect(error).toBeInstanceOf(data("").constructor);
    const answer = error as DataWithResponseInit<string>;
    expect(answer.init?.status).toBe(503);
    expect(answer.data).toBe("Failed to load news data");
  });

  it("lets an answer the reads chose go out as it is: a 404 or a redirect", async () => {
    const notFound = data("No such page", { status: 404 });
    expect(
      await thrown(() =>
        readOr503(logger, "Failed", async () => {
          throw notFound;
        }),
      ),
    ).toBe(notFound);
    const moved = redirect("/local-news", 301);
    expect(
      await thrown(() =>
        readOr503(logger, "Failed", async () => {
          throw moved;
        }),
      ),
    ).toBe(moved);
  });
});

describe("readOrEmpty", () => {
  it("renders a failing secondary list empty", async () => {
    expect(
      await readOrEmpty(logger, "Related stories", async () => {
        throw new Error("timeout");
      }),
    ).toEqual([]);
  });
});
