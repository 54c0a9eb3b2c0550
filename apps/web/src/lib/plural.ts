/** "1 row", "2 rows", "1,234 rows": a count with its noun (en-GB digits). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-GB')} ${n === 1 ? one : many}`;
}
