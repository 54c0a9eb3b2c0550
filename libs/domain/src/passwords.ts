// Password and login rules with their exact messages (spec §5), used by the api and the web alike.
import { COMMON_PASSWORDS } from './common-passwords';

export const PASSWORD_MIN_LENGTH = 8;
/** "under 128": 127 characters is the longest accepted. */
export const PASSWORD_MAX_LENGTH_EXCLUSIVE = 128;
export const IDENTIFIER_MAX_LENGTH = 255;

export const PasswordMessages = {
  tooShort: 'Password must be at least 8 characters long',
  tooLong: 'Password must be less than 128 characters',
  uppercase: 'Password must contain at least one uppercase letter',
  lowercase: 'Password must contain at least one lowercase letter',
  number: 'Password must contain at least one number',
  special: 'Password must contain at least one special character',
  common: 'This password is too common. Choose one that is harder to guess',
} as const;

export const AuthMessages = {
  identifierRequired: 'Email or username is required',
  identifierTooLong: 'Email or username is too long',
  passwordRequired: 'Password is required',
  invalidEmail: 'Please enter a valid email address',
  tokenRequired: 'Reset token is required',
  registerMissing: 'Please enter username, email, and password',
  invalidCredentials: 'Invalid username or password',
} as const;

export interface PasswordRuleResult {
  key: keyof typeof PasswordMessages;
  message: string;
  ok: boolean;
}

/** Every rule with whether it passes: the live checklist on the sign-up and reset forms. */
export function passwordRules(password: string): PasswordRuleResult[] {
  const rules: Array<[keyof typeof PasswordMessages, boolean]> = [
    ['tooShort', [...password].length >= PASSWORD_MIN_LENGTH],
    ['tooLong', [...password].length < PASSWORD_MAX_LENGTH_EXCLUSIVE],
    ['uppercase', /\p{Lu}/u.test(password)],
    ['lowercase', /\p{Ll}/u.test(password)],
    ['number', /\p{Nd}/u.test(password)],
    ['special', /[^\p{L}\p{Nd}]/u.test(password)],
  ];
  return rules.map(([key, ok]) => ({ key, ok, message: PasswordMessages[key] }));
}

/** Messages for every failing rule, in display order; empty when the password is acceptable. */
export function passwordErrors(password: string, opts: { checkCommon?: boolean } = {}): string[] {
  const errors = passwordRules(password)
    .filter((r) => !r.ok)
    .map((r) => r.message);
  if (opts.checkCommon !== false && isCommonPassword(password)) errors.push(PasswordMessages.common);
  return errors;
}

/** Look-alike characters people put in for letters (p@ssw0rd). */
const LEET: Record<string, string> = {
  '@': 'a',
  '4': 'a',
  '3': 'e',
  '1': 'i',
  '!': 'i',
  '0': 'o',
  $: 's',
  '5': 's',
  '7': 't',
};
/** Shorter words would refuse too much: "Abc!" + a long random tail is not a variant of "abc". */
const MIN_VARIANT_WORD = 4;

/**
 * A listed password, or a variant of one: a listed word with digits and symbols around it ("Dragon1!",
 * "Football123!", "!Monkey2024"), any case, look-alike characters included ("P@ssw0rd99").
 */
export function isCommonPassword(password: string): boolean {
  const lower = password.toLowerCase();
  if (COMMON_PASSWORDS.has(lower)) return true;
  const strip = (s: string, re: RegExp) => s.replace(re, '');
  const cores = new Set([
    strip(lower, /[^\p{L}]+$/u),
    strip(lower, /^[^\p{L}]+/u),
    strip(strip(lower, /[^\p{L}]+$/u), /^[^\p{L}]+/u),
  ]);
  for (const core of cores) {
    if ([...core].length < MIN_VARIANT_WORD) continue;
    const plain = [...core].map((c) => LEET[c] ?? c).join('');
    if (COMMON_PASSWORDS.has(core) || COMMON_PASSWORDS.has(plain)) return true;
  }
  return false;
}

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export function isValidEmail(email: string): boolean {
  return email.length <= 254 && EMAIL_RE.test(email);
}
