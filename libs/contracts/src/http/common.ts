import { Transform as Coerce } from 'class-transformer';

/** Trims a string (anything else is left for the validators to refuse). */
export const Trim = () =>
  Coerce(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value));

/** `{ message, context: { code } }`: a rule whose failure answers with its own error code. */
export const coded = (code: string, message: string) => ({ message, context: { code } });

/** A plain acknowledgement. */
export class MessageResponse {
  message: string;
}
