// The plan catalogue: the one place that knows every plan's price, limits and feature list.
// Read by the api (enforcement), the worker (priority, quotas) and the web (pricing, quota bars).

export const PLAN_KEYS = ['free', 'pro', 'business', 'enterprise'] as const;
export type PlanKey = (typeof PLAN_KEYS)[number];

/** -1 means unlimited, everywhere. */
export const UNLIMITED = -1;

const MB = 1024 * 1024;

export interface PlanLimits {
  maxFileSize: number;
  maxRowsPerFile: number;
  maxMonthlyRows: number;
  maxSavedMappings: number;
  priorityProcessing: boolean;
  asyncProcessing: boolean;
  webhookSupport: boolean;
  s3Uploads: boolean;
  customLimits: boolean;
  slaSupport: boolean;
  teamMembers: number;
  apiAccess: boolean;
  emailSupport: boolean;
  prioritySupport: boolean;
}

export interface PlanDefinition {
  key: PlanKey;
  name: string;
  /** Monthly price in whole pounds; null = custom (contact sales). */
  priceGbp: number | null;
  /** Display text, e.g. '£12/month'. */
  price: string;
  features: string[];
  restrictions?: string[];
  limits: PlanLimits;
  /** Queue priority: lower runs first (BullMQ semantics). */
  queuePriority: number;
  /** Benefit lines shown when suggesting an upgrade to this plan. */
  upgradeBenefits: string[];
}

export const PLANS: Record<PlanKey, PlanDefinition> = {
  free: {
    key: 'free',
    name: 'Free',
    priceGbp: 0,
    price: '£0/month',
    features: [
      '1 MB files',
      '10,000 rows per file',
      '50,000 rows per month',
      '1 saved mapping',
      'Date, number, amount and boolean normalisation',
      'Built-in Shopify and QuickBooks templates',
    ],
    restrictions: ['1 team member', 'Monthly usage resets on the 1st'],
    limits: {
      maxFileSize: 1 * MB,
      maxRowsPerFile: 10_000,
      maxMonthlyRows: 50_000,
      maxSavedMappings: 1,
      priorityProcessing: false,
      asyncProcessing: false,
      webhookSupport: false,
      s3Uploads: false,
      customLimits: false,
      slaSupport: false,
      teamMembers: 1,
      apiAccess: false,
      emailSupport: false,
      prioritySupport: false,
    },
    queuePriority: 40,
    upgradeBenefits: [],
  },
  pro: {
    key: 'pro',
    name: 'Pro',
    priceGbp: 12,
    price: '£12/month',
    features: [
      '25 MB files',
      '250,000 rows per file',
      '2,000,000 rows per month',
      '10 saved mappings',
      'Priority processing',
      'Email support',
    ],
    restrictions: ['1 team member'],
    limits: {
      maxFileSize: 25 * MB,
      maxRowsPerFile: 250_000,
      maxMonthlyRows: 2_000_000,
      maxSavedMappings: 10,
      priorityProcessing: true,
      asyncProcessing: false,
      webhookSupport: false,
      s3Uploads: false,
      customLimits: false,
      slaSupport: false,
      teamMembers: 1,
      apiAccess: false,
      emailSupport: true,
      prioritySupport: false,
    },
    queuePriority: 30,
    upgradeBenefits: [
      '250k rows per file (25x)',
      '2M rows per month (40x)',
      'Faster processing queue',
      'Priority email support',
    ],
  },
  business: {
    key: 'business',
    name: 'Business',
    priceGbp: 39,
    price: '£39/month',
    features: [
      '100 MB files',
      '1,000,000 rows per file',
      '20,000,000 rows per month',
      'Unlimited saved mappings',
      'Priority and async background processing',
      'Webhooks and API access',
      'Bulk uploads',
      'Email and priority support',
      '5 team members',
    ],
    limits: {
      maxFileSize: 100 * MB,
      maxRowsPerFile: 1_000_000,
      maxMonthlyRows: 20_000_000,
      maxSavedMappings: UNLIMITED,
      priorityProcessing: true,
      asyncProcessing: true,
      webhookSupport: true,
      s3Uploads: false,
      customLimits: false,
      slaSupport: false,
      teamMembers: 5,
      apiAccess: true,
      emailSupport: true,
      prioritySupport: true,
    },
    queuePriority: 20,
    upgradeBenefits: [
      '1M rows per file (4x)',
      '20M rows per month (10x)',
      'Async background processing',
      'Webhooks',
      'Priority queue',
    ],
  },
  enterprise: {
    key: 'enterprise',
    name: 'Enterprise',
    priceGbp: null,
    price: 'Custom',
    features: [
      'Unlimited file size and rows',
      'Unlimited saved mappings',
      'S3 presigned uploads',
      'Custom limits',
      'SLA support',
      'Unlimited team members',
      'Dedicated account manager',
    ],
    limits: {
      maxFileSize: UNLIMITED,
      maxRowsPerFile: UNLIMITED,
      maxMonthlyRows: UNLIMITED,
      maxSavedMappings: UNLIMITED,
      priorityProcessing: true,
      asyncProcessing: true,
      webhookSupport: true,
      s3Uploads: true,
      customLimits: true,
      slaSupport: true,
      teamMembers: UNLIMITED,
      apiAccess: true,
      emailSupport: true,
      prioritySupport: true,
    },
    queuePriority: 10,
    upgradeBenefits: [
      'Unlimited rows',
      'Custom limits',
      'S3 presigned uploads',
      'SLAs',
      'Dedicated account manager',
    ],
  },
};

export const DEFAULT_PLAN: PlanKey = 'free';
export const SALES_EMAIL = 'sales@csvmapper.app';
export const SUPPORT_EMAIL = 'support@csvmapper.app';

export function isPlanKey(value: unknown): value is PlanKey {
  return typeof value === 'string' && (PLAN_KEYS as readonly string[]).includes(value);
}

export function planOf(key: string | null | undefined): PlanDefinition {
  return isPlanKey(key) ? PLANS[key] : PLANS[DEFAULT_PLAN];
}

export function limitsOf(key: string | null | undefined): PlanLimits {
  return planOf(key).limits;
}

export function isUnlimited(n: number): boolean {
  return n === UNLIMITED;
}

/** Spec §9: -1 → 'Unlimited', under 1000 exact, under a million as k, else M. */
export function formatRowCount(n: number): string {
  if (n === UNLIMITED) return 'Unlimited';
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${trimZero(n / 1000)}k`;
  return `${trimZero(n / 1_000_000)}M`;
}

function trimZero(x: number): string {
  return Number.isInteger(x) ? String(x) : x.toFixed(1).replace(/\.0$/, '');
}

/** Bytes as the UI shows plan sizes: '1MB', '25MB', 'Unlimited'. */
export function formatPlanFileSize(bytes: number): string {
  if (bytes === UNLIMITED) return 'Unlimited';
  return `${trimZero(bytes / MB)}MB`;
}

/** '1.23 MB' with two decimals, as upload errors quote file sizes. */
export function formatMegabytes(bytes: number): string {
  return `${(bytes / MB).toFixed(2)} MB`;
}

/** Spec §4: upgrade button text and target per current plan. */
export function upgradeTextFor(plan: string): string {
  if (plan === 'free') return 'Upgrade to Pro';
  if (plan === 'pro') return 'Upgrade to Business';
  return 'View Plans';
}

export function upgradeTargetFor(plan: string): PlanKey {
  if (plan === 'free') return 'pro';
  if (plan === 'pro') return 'business';
  return 'enterprise';
}

/** Spec §4 quota bar colours and width. */
export function quotaBar(
  used: number,
  limit: number,
): { color: 'green' | 'red' | 'yellow' | 'blue'; widthPercent: number } {
  if (limit === UNLIMITED) return { color: 'green', widthPercent: used > 0 ? 20 : 0 };
  const pct = limit === 0 ? 100 : (used / limit) * 100;
  const color = used >= limit ? 'red' : pct > 80 ? 'yellow' : 'blue';
  return { color, widthPercent: Math.min(100, pct) };
}

export const QUOTA_WARNING_THRESHOLD = 0.8;

/** The generated file's name: `mapped_<data file name>.csv`, safe for a download header. */
export function outputFilename(dataFilename: string): string {
  const base =
    dataFilename
      .replace(/[\\/]/g, '_')
      .replace(/["\r\n]/g, '')
      .trim() || 'data.csv';
  return `mapped_${/\.csv$/i.test(base) ? base : `${base}.csv`}`;
}

/**
 * Why no one more can be invited on `plan` (its `seats`, the account holder included) and what raises
 * the limit: the api's TEAM_SEAT_LIMIT message, and what the Team section says before anyone tries.
 */
export function seatLimitMessage(plan: PlanKey, seats: number): string {
  const name = planOf(plan).name;
  const limit = `Your ${name} plan includes ${seats} seat${seats === 1 ? '' : 's'}, the account holder's included`;
  if (plan === 'free' || plan === 'pro') {
    const business = limitsOf('business').teamMembers;
    return `${limit}. Upgrade to Business for up to ${business} members, or Enterprise for unlimited members.`;
  }
  return `${limit}. Remove a member or revoke a pending invitation, or move to Enterprise for unlimited members.`;
}
