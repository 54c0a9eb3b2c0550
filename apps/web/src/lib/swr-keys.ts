// SWR keys: one per endpoint. A key is the path split into parts; the default fetcher joins them with '/'.
export const swrKeys = {
  user: ['/api/user'],
  profile: ['/api/user/profile'],
  apiKeys: ['/api/api-keys'],
  mappings: ['/api/mappings'],
  templates: ['/api/templates'],
  jobs: ['/api/jobs'],
  webhooks: ['/api/webhooks'],
  plans: ['/api/plans'],
  team: ['/api/team'],
  teamUsage: ['/api/team', 'usage'],
} as const;

export type SwrKey = readonly string[];
