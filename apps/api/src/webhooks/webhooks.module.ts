import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { WebhookDeliveryEntity, WebhookEndpointEntity } from '@csv-mapper/db';
import { AuthModule } from '../auth/auth.module';
import { WebhooksController } from './webhooks.controller';
import { WebhooksService } from './webhooks.service';

/** Outgoing webhook endpoints: CRUD, test event, delivery log. Deliveries run in the worker. */
@Module({
  imports: [AuthModule, TypeOrmModule.forFeature([WebhookEndpointEntity, WebhookDeliveryEntity])],
  controllers: [WebhooksController],
  providers: [WebhooksService],
})
export class WebhooksModule {}
