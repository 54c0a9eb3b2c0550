/** One API key as GET /api/api-keys lists it (the secret itself is never listed). */
export interface ApiKey {
  id: string;
  name: string;
  /** The first characters of the key, e.g. 'csvm_ab12'. */
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** POST /api/api-keys answers the full key once. */
export interface CreatedApiKey {
  id: string;
  name: string;
  prefix: string;
  key: string;
  createdAt: string;
}
