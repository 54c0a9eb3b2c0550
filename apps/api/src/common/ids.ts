/**
 * Whether `id` is a UUID (any version, either case): the ids of saved mappings, webhook endpoints and
 * deliveries, invitations and team members. Checked before a query, so a malformed id answers the route's
 * own 404 (or 400) instead of a database error.
 */
export function isUuid(id: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);
}
