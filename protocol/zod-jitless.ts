import { z } from 'zod';

/*
 * zod compiles a fast parser (`new Function`) for each object schema the first time it parses with it.
 * Our processes are short-lived and parse with each schema a handful of times, so the compile never pays
 * back: the host's first parses of an initialize, a tools/list and a tool result took 13-17 ms with it and
 * ~5.5 ms without (Node 20.20), and even 200 rounds of them stay faster without. zod reads the switch when
 * a schema is built, so every bin's entry imports this module before anything that builds one.
 */
z.config({ jitless: true });
