import { jsonDepthExceeds, MAX_JSON_DEPTH } from './json-depth';

const nest = (n: number) => '['.repeat(n) + ']'.repeat(n);

describe('jsonDepthExceeds', () => {
  it('allows 64 levels and refuses 65, for objects and arrays alike, as bytes or text', () => {
    expect(jsonDepthExceeds(Buffer.from(nest(MAX_JSON_DEPTH)))).toBe(false);
    expect(jsonDepthExceeds(Buffer.from(nest(MAX_JSON_DEPTH + 1)))).toBe(true);
    expect(jsonDepthExceeds('{"a":'.repeat(65) + '1' + '}'.repeat(65))).toBe(true);
    expect(jsonDepthExceeds('{"a":'.repeat(64) + '1' + '}'.repeat(64))).toBe(false);
  });

  it('counts depth, not brackets: siblings do not add up', () => {
    expect(jsonDepthExceeds(JSON.stringify(Array.from({ length: 500 }, () => [[{ a: [1] }]])))).toBe(false);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(jsonDepthExceeds(JSON.stringify({ p: '['.repeat(1000), q: '\\"{{{{' + '{'.repeat(100) }))).toBe(
      false,
    );
    expect(jsonDepthExceeds(Buffer.from(JSON.stringify({ 'é😀[[[': '{'.repeat(200) })))).toBe(false);
  });
});
