// The package version, put into the bundles by scripts/build.mjs (esbuild `define`);
// 'dev' when the sources run unbundled (tsx in the tests).
declare const __STAGE_LENS_VERSION__: string | undefined;

export const STAGE_LENS_VERSION: string = typeof __STAGE_LENS_VERSION__ === 'string' ? __STAGE_LENS_VERSION__ : 'dev';
