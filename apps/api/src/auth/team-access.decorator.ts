import { SetMetadata } from '@nestjs/common';

export const READ_ONLY_MEMBER_ALLOWED = 'csvm:readOnlyMemberAllowed';
export const ACCOUNT_HOLDER_ONLY = 'csvm:accountHolderOnly';

/**
 * A write a read-only member (beyond the plan's seats) may still make, e.g. leaving the team or deleting
 * their own account. Every other write of theirs is refused by AuthGuard.
 */
export const ReadOnlyMemberAllowed = (): MethodDecorator & ClassDecorator =>
  SetMetadata(READ_ONLY_MEMBER_ALLOWED, true);

/** Routes only the team's account holder may call (billing, removing members, invitations). */
export const AccountHolderOnly = (): MethodDecorator & ClassDecorator =>
  SetMetadata(ACCOUNT_HOLDER_ONLY, true);
