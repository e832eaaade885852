// Preloaded into a process under test (`node --import` or NODE_OPTIONS=--import=...): appends the URL of every
// module the process loads, one a line, to the file RECORD_MODULES_TO names, as it loads it. A test reads the
// file between requests to learn what each one made the process load (tests/support/loaded-modules.ts).
import { appendFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

const file = process.env.RECORD_MODULES_TO;
if (file)
  registerHooks({
    load(url, context, nextLoad) {
      appendFileSync(file, `${url}\n`);
      return nextLoad(url, context);
    },
  });
