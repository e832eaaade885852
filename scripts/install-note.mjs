// `npm install`'s one line for a machine whose Node is older than the project needs (npm's own engine
// warnings are off in .npmrc: each dependency printed five lines of them). Plain JavaScript: it runs on that older
// Node.
import { readFileSync } from 'node:fs';

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  const wanted =
    /NODE_WANT:-([\d.]+)/.exec(readFileSync(new URL('./use-node24.sh', import.meta.url), 'utf8'))?.[1] ?? '24';
  console.log(
    `note: this Node is v${process.versions.node}; npm start, npm test and the other scripts run on ` +
      `Node ${wanted}, fetched once from the npm registry.`,
  );
}
