import type { SessionUser } from '../api/types';

/** Spec §2: first name, else email, else 'User'. */
export function displayNameOf(user: Pick<SessionUser, 'firstName' | 'email'> | null | undefined): string {
  return user?.firstName?.trim() || user?.email?.trim() || 'User';
}
