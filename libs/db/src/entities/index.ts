import { ApiKeyEntity } from './api-key.entity';
import { PasswordResetTokenEntity } from './password-reset-token.entity';
import { SavedMappingEntity } from './saved-mapping.entity';
import { SessionEntity } from './session.entity';
import { UsageHistoryEntity } from './usage-history.entity';
import { UserEntity } from './user.entity';
import { WebhookDeliveryEntity } from './webhook-delivery.entity';
import { WebhookEndpointEntity } from './webhook-endpoint.entity';

export {
  ApiKeyEntity,
  PasswordResetTokenEntity,
  SavedMappingEntity,
  SessionEntity,
  UsageHistoryEntity,
  UserEntity,
  WebhookDeliveryEntity,
  WebhookEndpointEntity,
};

export const ENTITIES = [
  UserEntity,
  SessionEntity,
  UsageHistoryEntity,
  PasswordResetTokenEntity,
  SavedMappingEntity,
  ApiKeyEntity,
  WebhookEndpointEntity,
  WebhookDeliveryEntity,
];
