// @csv-mapper/rules: the value-level rules that the engine (server) and the review grid (browser) both apply,
// so the grid's hint as you type is the server's verdict. Pure string functions, no Node APIs (no Buffer,
// fs, stream) and no imports but the engine's yes/no word list (itself import-free): the web app bundles
// this library. The engine imports these files by relative path (its worker threads and benches resolve
// no package names); the web app through @csv-mapper/rules (tsconfig paths, vite alias, jest mapper).
// The engine keeps byte-level twins of some checks for its hot path; engine-conformance.spec.ts holds them
// equal.
export * from './characters';
export * from './column-rules';
export * from './formula-guard';
