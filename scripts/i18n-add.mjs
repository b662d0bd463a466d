// Adds keys to src/i18n/fr.json and en.json in one step, refusing a key given in only one language:
//   node scripts/i18n-add.mjs '{"contact.send":"Envoyer"}' '{"contact.send":"Send"}'
// Existing keys are overwritten with the new text; the files keep their order otherwise.
import fs from 'node:fs';

const [frArg, enArg] = process.argv.slice(2);
if (!frArg || !enArg) {
  console.error('usage: node scripts/i18n-add.mjs <fr JSON object> <en JSON object>');
  process.exit(2);
}
const parse = (text) => JSON.parse(text.startsWith('{') ? text : fs.readFileSync(text, 'utf8'));
const additions = { fr: parse(frArg), en: parse(enArg) };
const frKeys = Object.keys(additions.fr).sort().join();
if (frKeys !== Object.keys(additions.en).sort().join()) {
  console.error('fr and en must add the same keys');
  process.exit(2);
}
for (const locale of ['fr', 'en']) {
  const file = new URL(`../src/i18n/${locale}.json`, import.meta.url);
  const current = JSON.parse(fs.readFileSync(file, 'utf8'));
  Object.assign(current, additions[locale]);
  const tmp = new URL(`../src/i18n/.${locale}.json.tmp`, import.meta.url);
  fs.writeFileSync(tmp, `${JSON.stringify(current, null, 2)}\n`);
  fs.renameSync(tmp, file);
}
console.log(`Added ${Object.keys(additions.fr).length} key(s) to fr.json and en.json.`);
