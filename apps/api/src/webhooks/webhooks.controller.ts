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

  @Get()
  list(@CurrentUser() user: AuthUser) {
    this.webhooks.assertPlan(user.plan);
    return this.webhooks.list(user.id);
  }

  @Post()
  create(@CurrentUser() user: AuthUser, @Body() body: CreateWebhookRequest) {
    this.webhooks.assertPlan(user.plan);
    return this.webhooks.create(user.id, body);
  }

  @Patch(':id')
  update(@CurrentUser() user: AuthUser, @Param('id') id: string, @Body() body: UpdateWebhookRequest) {
    this.webhooks.assertPlan(user.plan);
    return this.webhooks.update(user.id, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  async remove(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<void> {
    await this.webhooks.remove(user.id, id);
  }

  @Post(':id/test')
  @HttpCode(202)
  test(@CurrentUser() user: AuthUser, @Param('id') id: string) {
    this.webhooks.assertPlan(user.plan);
    return this.webhooks.sendTest(user.id, id);
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  rotateSecret(@CurrentUser() user: AuthUser, @Param('id') id: string) {
    this.webhooks.assertPlan(user.plan);
    return this.webhooks.rotateSecret(user.id, id);
  }

  @Get(':id/deliveries')
  deliveries(@CurrentUser() user: AuthUser, @Param('id') id: string) {
    return this.webhooks.deliveriesOf(user.id, id);
  }

  @Post(':id/deliveries/:deliveryId/resend')
  @HttpCode(202)
  resend(@CurrentUser() user: AuthUser, @Param('id') id: string, @Param('deliveryId') deliveryId: string) {
    this.webhooks.assertPlan(user.plan);
    return this.webhooks.resend(user.id, id, deliveryId);
  }
}
