// The import resolver of the layer matrix (eslint.config.js): TypeScript's resolution, so
// `#api/*` (package.json "imports") and relative `.ts` imports land on their files. One fix on
// top: on ESLint 10, eslint-module-utils resolves from `context.filename`, which for a client
// <script> of an .astro file is the virtual `Page.astro/0_0.ts`; its relative imports are
// resolved from the .astro file's folder, as Astro does.
import { resolve as resolveTypeScript } from 'eslint-import-resolver-typescript';

export const interfaceVersion = 2;

/** @type {typeof resolveTypeScript} */
export function resolve(source, file, options) {
  return resolveTypeScript(source, file.replace(/(\.astro)\/[^/]+$/, '$1'), options);
}
