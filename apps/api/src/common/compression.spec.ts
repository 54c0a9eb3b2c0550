import { negotiateEncoding } from './compression';

describe('negotiateEncoding', () => {
  it('prefers Brotli whatever order the browser lists them in', () => {
    expect(negotiateEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(negotiateEncoding('br')).toBe('br');
  });
  it('falls back to gzip when Brotli is absent, refused, or has no copy', () => {
    expect(negotiateEncoding('gzip, deflate')).toBe('gzip');
    expect(negotiateEncoding('br;q=0, gzip;q=0.3')).toBe('gzip');
    expect(negotiateEncoding('br, gzip', ['gzip'])).toBe('gzip');
    expect(negotiateEncoding('x-gzip')).toBe('gzip');
  });
  it('sends identity when nothing we have is accepted', () => {
    expect(negotiateEncoding(undefined)).toBeNull();
    expect(negotiateEncoding('')).toBeNull();
    expect(negotiateEncoding('identity')).toBeNull();
    expect(negotiateEncoding('deflate, zstd')).toBeNull();
    expect(negotiateEncoding('*;q=0')).toBeNull();
  });
  it('takes * as every encoding not named', () => {
    expect(negotiateEncoding('*')).toBe('br');
    expect(negotiateEncoding('br;q=0, *')).toBe('gzip');
  });
});
