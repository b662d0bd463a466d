// The npm registry mirror this project installs from only carries some platforms' builds of the
// newest native packages (Astro's compiler, Tailwind's oxide). `npm install` then leaves their
// other-platform optional dependencies out of package-lock.json while still declaring them, and
// `npm ci` refuses the lock. This drops the declarations that have no entry, so the lock is
// consistent again. Run `npm run lockfile:fix` after every dependency change (decision 006).
import fs from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
const packages = lock.packages;

/**
 * Whether `name` resolves from a lock path the way Node resolves node_modules, to an entry that
 * fits `spec` (the declarations concerned here pin exact versions).
 */
function resolves(fromPath, name, spec) {
  let dir = fromPath;
  for (;;) {
    const found = packages[`${dir ? `${dir}/` : ''}node_modules/${name}`];
    if (found) return !/^\d+\.\d+\.\d+$/.test(spec) || found.version === spec;
    if (!dir) return false;
    const cut = dir.lastIndexOf('/node_modules/');
    dir = cut === -1 ? '' : dir.slice(0, cut);
  }
}

let removed = 0;
for (const [path, entry] of Object.entries(packages)) {
  const optional = entry.optionalDependencies;
  if (!optional) continue;
  for (const [name, spec] of Object.entries(optional)) {
    if (!resolves(path, name, spec)) {
      delete optional[name];
      removed++;
    }
  }
  if (Object.keys(optional).length === 0) delete entry.optionalDependencies;
}
fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(
  `package-lock.json: removed ${removed} optional dependencies the registry does not carry.`,
);
