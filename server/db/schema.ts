// Every table of the database, one Drizzle schema for PGlite and PostgreSQL (decision 003): the one
// module callers import and drizzle-kit reads (drizzle.config.ts), gathered from server/db/schema/.
export * from "./schema/news";
export * from "./schema/newsletter";
export * from "./schema/forms";
export * from "./schema/staff";
export * from "./schema/newsroom";
