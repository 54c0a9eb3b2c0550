import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsOptional,
  IsString,
  MaxLength,
  ValidateBy,
} from 'class-validator';
import { WEBHOOK_EVENTS, type WebhookEventType } from '../jobs';
import { Trim } from './common';

const WEBHOOK_URL_MESSAGE = 'url: Enter a full http:// or https:// URL without credentials';

/** http(s), absolute, no user:password (the worker checks the address it connects to). */
const IsWebhookUrl = () =>
  ValidateBy(
    {
      name: 'isWebhookUrl',
      validator: {
        validate: (v: unknown) => {
          if (typeof v !== 'string') return false;
          try {
            const u = new URL(v);
            return (u.protocol === 'https:' || u.protocol === 'http:') && !u.username && !u.password;
          } catch {
            return false;
          }
        },
      },
    },
    { message: WEBHOOK_URL_MESSAGE },
  );

const events = () => [
  IsArray(),
  ArrayMinSize(1, { message: 'events: Choose at least one event' }),
  ArrayMaxSize(WEBHOOK_EVENTS.length),
  IsIn(WEBHOOK_EVENTS, {
    each: true,
    message: `events: each event must be one of ${WEBHOOK_EVENTS.join(', ')}`,
  }),
];
const apply =
  (decorators: PropertyDecorator[]): PropertyDecorator =>
  (target, key) =>
    decorators.forEach((d) => d(target, key));

export class CreateWebhookRequest {
  /** @example "https://example.com/hooks/csv-mapper" */
  @Trim() @IsString({ message: WEBHOOK_URL_MESSAGE }) @MaxLength(2048) @IsWebhookUrl() url: string;
  /** Default: every job event. */
  @IsOptional() @apply(events()) events?: WebhookEventType[];
}

export class UpdateWebhookRequest {
  @IsOptional()
  @Trim()
  @IsString({ message: WEBHOOK_URL_MESSAGE })
  @MaxLength(2048)
  @IsWebhookUrl()
  url?: string;
  @IsOptional() @apply(events()) events?: WebhookEventType[];
  @IsOptional() @IsBoolean() enabled?: boolean;
}

export class WebhookEndpointView {
  id: string;
  url: string;
  events: WebhookEventType[];
  enabled: boolean;
  disabledReason: string | null;
  /** Set for 24 h after a rotation: until then the old secret signs too. */
  previousSecretExpiresAt: string | null;
  createdAt: string;
}

/** POST /api/webhooks answers the signing secret once. */
export class CreatedWebhookEndpointView extends WebhookEndpointView {
  secret: string;
}

export class RotatedSecretView {
  secret: string;
  previousSecretExpiresAt: string;
}

/** One delivery attempt in the log (kept 30 days; the last 100 are listed). */
export class WebhookDeliveryView {
  id: string;
  event: string;
  messageId: string;
  jobId: string | null;
  attempt: number;
  statusCode: number | null;
  durationMs: number | null;
  error: string | null;
  /** The first 1 KB of the receiver's answer. */
  responseSnippet: string | null;
  outcome: 'succeeded' | 'retrying' | 'failed';
  nextRetryAt: string | null;
  createdAt: string;
}

export class MessageIdView {
  messageId: string;
}
