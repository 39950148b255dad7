import { config } from 'zod/v4/core';
import { en } from 'zod/locales';

/*
 * zod's process-wide settings, set once before any schema is built: every bin's entry imports this module
 * first. It reaches zod's core only, not classic zod, so a host start that builds only `zod/mini` schemas
 * never evaluates classic zod (docs/architecture.md, "Build and start-up").
 *
 * - Jitless: zod compiles a fast parser (`new Function`) for each object schema the first time it parses
 *   with it. Our processes are short-lived and parse with each schema a handful of times, so the compile
 *   never pays back: the host's first parses of an initialize, a tools/list and a tool result took 13-17 ms
 *   with it and ~5.5 ms without (Node 20.20), and even 200 rounds of them stay faster without.
 * - English messages: classic zod installs them when its first schema is built; `zod/mini` leaves
 *   messages to the caller, and users read these in settings and policy-file errors.
 */
config({ jitless: true, ...en() });
