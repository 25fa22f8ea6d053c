// `npm ci` only when node_modules does not match package-lock.json (a repeated Maven build skips it).
// Uses the machine's npm and the npm registry; nothing here downloads Node itself.
import { execSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

const installed = 'node_modules/.package-lock.json';

function matches() {
  if (!existsSync(installed)) return false;
  const wanted = JSON.parse(readFileSync('package-lock.json', 'utf8')).packages ?? {};
  const have = JSON.parse(readFileSync(installed, 'utf8')).packages ?? {};
  return Object.entries(wanted).every(
    // optional packages for other platforms (esbuild's, rollup's) are never installed here
    ([path, entry]) => path === '' || have[path]?.version === entry.version || (entry.optional && !have[path]),
  );
}

if (matches()) {
  console.log('console: node_modules matches package-lock.json, npm ci skipped');
} else {
  execSync('npm ci --prefer-offline --no-audit --no-fund', { stdio: 'inherit' });
}
