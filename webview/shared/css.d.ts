// esbuild bundles imported CSS into dist/webview/<name>.css (scripts/build.mjs, loader css).
declare module '*.css';
