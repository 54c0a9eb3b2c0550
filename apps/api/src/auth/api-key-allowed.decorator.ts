import { SetMetadata } from '@nestjs/common';

export const API_KEY_ALLOWED = 'csvm:apiKeyAllowed';

/**
 * Marks a route (or controller) of the published API: AuthGuard then also accepts
 * `Authorization: Bearer csvm_…` for plans with `apiAccess`. Every other route is session-only.
 */
export const ApiKeyAllowed = (): MethodDecorator & ClassDecorator => SetMetadata(API_KEY_ALLOWED, true);
