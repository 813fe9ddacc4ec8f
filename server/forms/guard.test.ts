import { describe, expect, it } from "vitest";
import { clientNetwork, formLimiter, guardForm } from "./guard";

describe("clientNetwork", () => {
  it.each([
    ["203.0.113.9", "203.0.113.9"],
    ["2001:db8:1:2:aaaa:bbbb:cccc:dddd", "2001:db8:1:2::/64"],
    ["2001:db8:1:2::1", "2001:db8:1:2::/64"],
    ["2001:0db8:0001:0002:0:0:0:ffff", "2001:db8:1:2::/64"],
    ["::ffff:198.51.100.7", "198.51.100.7"],
    ["unknown", "unknown"],
  ])("%s counts as %s", (address, network) => {
    expect(clientNetwork(address)).toBe(network);
  });
});

describe("guardForm", () => {
  it("gives one IPv6 /64 one allowance, whichever of its addresses sends", async () => {
    const limiter = formLimiter(3);
    const form = new FormData();
    const verdicts = [];
    for (const host of ["1", "2", "3", "4", "ffff:1"]) {
      verdicts.push((await guardForm(form, limiter, "newsletter", `2001:db8:5:6::${host}`)).kind);
    }
    expect(verdicts).toEqual(["ok", "ok", "ok", "rate-limited", "rate-limited"]);
    // The next /64 is someone else.
    expect((await guardForm(form, limiter, "newsletter", "2001:db8:5:7::1")).kind).toBe("ok");
  });
});
