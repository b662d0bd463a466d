// Writes api/accounts/common-passwords.txt, the passwords refused as too common (issue 14):
//   node scripts/common-passwords.mjs
// Source: the `passwords-common` dictionary of @zxcvbn-ts/language-common (MIT licence,
// © 2012-2016 Dan Wheeler and Dropbox, Inc., © 2021 @zxcvbn-ts; https://github.com/zxcvbn-ts/zxcvbn),
// a devDependency: the server reads the generated file and never imports the package. The list is
// ordered by frequency in leaked password sets; we keep the 10 000 most frequent, lowercased,
// among those the 6-character minimum (storefront §5) does not already refuse.
import fs from 'node:fs';
import { dictionary } from '@zxcvbn-ts/language-common';

const COUNT = 10_000;
const MIN_LENGTH = 6; // PASSWORD_MIN_LENGTH in src/schemas/accounts.ts

const seen = new Set();
for (const entry of dictionary['passwords-common']) {
  const password = entry.toLowerCase();
  if (password.length < MIN_LENGTH || /\p{Cc}/u.test(password)) continue;
  seen.add(password);
  if (seen.size === COUNT) break;
}
if (seen.size < COUNT) throw new Error(`Only ${seen.size} passwords found, expected ${COUNT}.`);

const target = new URL('../api/accounts/common-passwords.txt', import.meta.url);
fs.writeFileSync(target, `${[...seen].join('\n')}\n`);
console.log(`Wrote ${seen.size} passwords to ${target.pathname}.`);
