import { Body, Controller, Delete, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { AuthGuard } from '../auth/auth.guard';
import type { AuthUser } from '../auth/auth-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { CreateApiKeyRequest } from '@csv-mapper/contracts';
import { ApiKeysService, ApiKeyView, CreatedApiKeyView } from './api-keys.service';

/** Managing keys needs the browser session: a key cannot mint or revoke keys. */
@Controller('api-keys')
@UseGuards(AuthGuard)
export class ApiKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  /** List your team's API keys (never the keys themselves) */
  @Get()
  list(@CurrentUser() user: AuthUser): Promise<ApiKeyView[]> {
    return this.keys.list(user.teamId);
  }

  /** Create an API key (Business and Enterprise; the key is returned once) */
  @Post()
  create(@CurrentUser() user: AuthUser, @Body() body: CreateApiKeyRequest): Promise<CreatedApiKeyView> {
    return this.keys.create(user, body.name);
  }

  /** Revoke an API key (takes effect on its next request) */
  @Delete(':id')
  @HttpCode(204)
  revoke(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<void> {
    return this.keys.revoke(user.teamId, id);
  }
}
