import { z } from 'zod';
import { AppError } from '../common/app-error';
import { WEBHOOK_EVENTS } from './webhooks.service';

const url = z
  .string()
  .trim()
  .max(2048)
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === 'https:' || u.protocol === 'http:') && !u.username && !u.password;
    } catch {
      return false;
    }
  }, 'Enter a full http:// or https:// URL without credentials');
const events = z.array(z.enum(WEBHOOK_EVENTS)).min(1, 'Choose at least one event').max(WEBHOOK_EVENTS.length);

export const CreateWebhookDto = z.object({ url, events: events.optional() });
export const UpdateWebhookDto = z.object({
  url: url.optional(),
  events: events.optional(),
  enabled: z.boolean().optional(),
});

/** Validates a body with a zod schema; failures become a 400 with field details. */
export function parseBody<T>(schema: z.ZodType<T>, body: unknown): T {
  const r = schema.safeParse(body ?? {});
  if (!r.success) {
    const details = r.error.issues.map((i) => ({ field: i.path.join('.'), message: i.message }));
    throw new AppError(
      400,
      'VALIDATION_FAILED',
      details.map((d) => (d.field ? `${d.field}: ${d.message}` : d.message)).join('; '),
      details,
    );
  }
  return r.data;
}
