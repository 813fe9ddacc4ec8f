import { timestamp } from "drizzle-orm/pg-core";

/** The creation time most tables keep, shared by the schema's modules. */
export const timestamps = {
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
};
