import type { SessionUserView } from '@csv-mapper/contracts';

/** Spec §2: first name, else email, else 'User'. */
export function displayNameOf(user: Pick<SessionUserView, 'firstName' | 'email'> | null | undefined): string {
  return user?.firstName?.trim() || user?.email?.trim() || 'User';
}
