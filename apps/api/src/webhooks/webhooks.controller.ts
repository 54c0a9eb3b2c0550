import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, UseGuards } from '@nestjs/common';
import { ApiKeyAllowed } from '../auth/api-key-allowed.decorator';
import { AuthGuard } from '../auth/auth.guard';
import type { AuthUser } from '../auth/auth-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { CreateWebhookRequest, UpdateWebhookRequest } from '@csv-mapper/contracts';
import { WebhooksService } from './webhooks.service';

@Controller('webhooks')
@UseGuards(AuthGuard)
@ApiKeyAllowed()
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  /** List webhook endpoints */
  @Get()
  list(@CurrentUser() user: AuthUser) {
    this.webhooks.assertPlan(user.plan);
    return this.webhooks.list(user.teamId);
  }

  /** Add an endpoint (the signing secret is returned once) */
  @Post()
  create(@CurrentUser() user: AuthUser, @Body() body: CreateWebhookRequest) {
    this.webhooks.assertPlan(user.plan);
    return this.webhooks.create(user.teamId, body, user.id);
  }

  /** Change an endpoint: url, events (at least one), enabled */
  @Patch(':id')
  update(@CurrentUser() user: AuthUser, @Param('id') id: string, @Body() body: UpdateWebhookRequest) {
    this.webhooks.assertPlan(user.plan);
    return this.webhooks.update(user.teamId, id, body);
  }

  /** Delete an endpoint */
  @Delete(':id')
  @HttpCode(204)
  async remove(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<void> {
    await this.webhooks.remove(user.teamId, id);
  }

  /** Send one signed test event (one attempt) */
  @Post(':id/test')
  @HttpCode(202)
  test(@CurrentUser() user: AuthUser, @Param('id') id: string) {
    this.webhooks.assertPlan(user.plan);
    return this.webhooks.sendTest(user.teamId, id);
  }

  /** Replace the signing secret (shown once); deliveries carry both signatures for 24 h */
  @Post(':id/rotate-secret')
  @HttpCode(200)
  rotateSecret(@CurrentUser() user: AuthUser, @Param('id') id: string) {
    this.webhooks.assertPlan(user.plan);
    return this.webhooks.rotateSecret(user.teamId, id);
  }

  /** The last 100 delivery attempts, newest first (kept 30 days) */
  @Get(':id/deliveries')
  deliveries(@CurrentUser() user: AuthUser, @Param('id') id: string) {
    return this.webhooks.deliveriesOf(user.teamId, id);
  }

  /** Send a delivery’s event again: same webhook-id and payload, fresh signature, one attempt */
  @Post(':id/deliveries/:deliveryId/resend')
  @HttpCode(202)
  resend(@CurrentUser() user: AuthUser, @Param('id') id: string, @Param('deliveryId') deliveryId: string) {
    this.webhooks.assertPlan(user.plan);
    return this.webhooks.resend(user.teamId, id, deliveryId);
  }
}
