import { passwordErrors } from '@csv-mapper/domain';
import { AppError } from '../common/app-error';

// The domain's password rules at the api: the request DTOs check presence; these check the rules (spec §5)
// and the common-password list, reporting every rule that fails.

/** The password rules of spec §5 plus the common-password list; no trimming, no truncation. */
export function assertPasswordAcceptable(password: string): void {
  const errors = passwordErrors(password);
  if (errors.length) throw new AppError(400, 'INVALID_PASSWORD', errors.join('. '), { password: errors });
}

/**
 * Spec §5 says the password rules are "also checked on login": a password that could never have been set
 * is refused before any account is looked up (the rules only, not the common list, so old accounts work).
 */
export function loginPasswordWellFormed(password: string): boolean {
  return passwordErrors(password, { checkCommon: false }).length === 0;
}
