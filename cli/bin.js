#!/usr/bin/env node
// The installed `news` command: runs the TypeScript CLI through tsx.
import { register } from "tsx/esm/api";

register();
await import("./news.ts");
