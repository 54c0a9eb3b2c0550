import { HttpException } from '@nestjs/common';

/** A failure a person can act on: status, machine code and a human message (ARCHITECTURE §5). */
export class AppError extends HttpException {
  constructor(
    status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super({ error: message, code, ...(details === undefined ? {} : { details }) }, status);
  }
}
