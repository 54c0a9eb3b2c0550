import { Transform as Coerce } from 'class-transformer';
import {
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  Min,
  ValidateBy,
  type ValidationOptions,
} from 'class-validator';
import { AuthMessages, IDENTIFIER_MAX_LENGTH, isValidEmail } from '@csv-mapper/domain';
import { Trim, coded } from './common';

// Spec §5 bodies with the spec's messages. The password rules (and the common-password list) are the
// domain's and are checked by the auth service, which reports each failed rule.

export const USERNAME_RE = /^[A-Za-z0-9._-]{3,64}$/;
export const USERNAME_MESSAGE =
  'Username must be 3 to 64 characters: letters, numbers, dots, dashes or underscores';
export const PERSON_NAME_MAX = 100;

const missing = { message: AuthMessages.registerMissing };

/** The domain's email rule (the same one the sign-up form shows). */
const IsEmailAddress = (options: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isEmailAddress',
      validator: { validate: (v: unknown) => typeof v === 'string' && isValidEmail(v) },
    },
    options,
  );
const personName = () =>
  Coerce(({ value }: { value: unknown }) =>
    typeof value === 'string' ? value.trim().slice(0, PERSON_NAME_MAX) || null : value,
  );

export class RegisterRequest {
  @Trim()
  @IsString(missing)
  @IsNotEmpty(missing)
  @Matches(USERNAME_RE, { message: USERNAME_MESSAGE })
  username: string;
  @Trim()
  @IsString(missing)
  @IsNotEmpty(missing)
  @IsEmailAddress({ message: AuthMessages.invalidEmail })
  email: string;
  @IsString(missing) @IsNotEmpty(missing) password: string;
  @IsOptional() @personName() @IsString() firstName?: string | null;
  @IsOptional() @personName() @IsString() lastName?: string | null;
}

export class LoginRequest {
  @Trim()
  @IsString({ message: AuthMessages.identifierRequired })
  @IsNotEmpty({ message: AuthMessages.identifierRequired })
  @MaxLength(IDENTIFIER_MAX_LENGTH, { message: AuthMessages.identifierTooLong })
  identifier: string;
  @IsString({ message: AuthMessages.passwordRequired })
  @IsNotEmpty({ message: AuthMessages.passwordRequired })
  password: string;
}

const EMAIL_REQUIRED = coded('EMAIL_REQUIRED', 'Please enter your email address');

export class PasswordResetRequest {
  @Trim()
  @IsString(EMAIL_REQUIRED)
  @IsNotEmpty(EMAIL_REQUIRED)
  @IsEmailAddress({ message: AuthMessages.invalidEmail })
  email: string;
}

const TOKEN_REQUIRED = coded('TOKEN_REQUIRED', AuthMessages.tokenRequired);

export class ResetPasswordRequest {
  @Trim() @IsString(TOKEN_REQUIRED) @IsNotEmpty(TOKEN_REQUIRED) @MaxLength(200, TOKEN_REQUIRED) token: string;
  @IsString({ message: AuthMessages.passwordRequired })
  @IsNotEmpty({ message: AuthMessages.passwordRequired })
  password: string;
}

export class DeleteAccountRequest {
  /** Required when the account has a password (every account today). */
  @IsOptional() @IsString() @MaxLength(1000) password?: string;
  /**
   * An account holder whose team has members confirms how many will lose access (GET /api/team tells);
   * without the right number the deletion is refused and the answer says how many.
   */
  @IsOptional() @IsInt() @Min(0) confirmMembersLosingAccess?: number;
}
