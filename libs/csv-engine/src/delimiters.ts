// The delimiters the product reads and writes: sniffed on upload, chosen when reading again, written in
// the output. One list for the engine, the contract's request classes (libs/contracts reads this file
// directly: it imports nothing) and the command-line tool.

export type Delimiter = ',' | ';' | '\t' | '|';

/** Comma, semicolon, TAB (the character itself) and pipe, in the order sniffing tries them. */
export const DELIMITERS: readonly Delimiter[] = [',', ';', '\t', '|'];
