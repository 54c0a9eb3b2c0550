import type { ProfileView } from '@csv-mapper/contracts';

/** What the billing screens read from the profile (the page passes the profile in). */
export type BillingProfile = Pick<ProfileView, 'plan' | 'email' | 'subscription'>;
