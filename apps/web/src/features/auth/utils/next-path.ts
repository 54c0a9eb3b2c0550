/** `?next=/team/join?token=…`: where to go after signing in, only ever a path of this site. */
export function nextPath(search: string): string | null {
  const next = new URLSearchParams(search).get('next');
  return next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : null;
}
