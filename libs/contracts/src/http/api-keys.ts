import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { Trim } from './common';

export const API_KEY_NAME_MAX = 100;

export class CreateApiKeyRequest {
  /** @example "Nightly import" */
  @Trim()
  @IsString({ message: 'Please enter a name for the API key' })
  @IsNotEmpty({ message: 'Please enter a name for the API key' })
  @MaxLength(API_KEY_NAME_MAX, { message: `The key name must be at most ${API_KEY_NAME_MAX} characters` })
  name: string;
}

/** A key as listed (never the key itself). */
export class ApiKeyView {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** POST /api/api-keys answers the full key once; it is never stored or shown again. */
export class CreatedApiKeyView {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  key: string;
}
