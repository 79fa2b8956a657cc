// The zod every schema the browser runs is built with (ADR 0023). zod 4 compiles an object's
// parser with `new Function` unless told `jitless`, and even its probe for whether it may is a
// violation the page's Content-Security-Policy reports (script-src without 'unsafe-eval'). The
// setting is read when a schema is built, so a schema module the browser loads imports `z` from
// here, never from "zod": importing it runs the configuration before any schema exists. On the
// server it changes nothing that shows: workers refuse `new Function` too, and zod already skips it there.
import { z } from "zod";

z.config({ jitless: true });

export { z };
