import { ApiKeyEntity } from './api-key.entity';
import { MappingFingerprintEntity, MappingRunEntity, TeamHistoryKeyEntity } from './mapping-history.entity';
import { PasswordResetTokenEntity } from './password-reset-token.entity';
import { SavedMappingEntity } from './saved-mapping.entity';
import { SessionEntity } from './session.entity';
import { TeamEntity, TeamInvitationEntity, TeamMembershipEntity } from './team.entity';
import { UsageHistoryEntity } from './usage-history.entity';
import { UserEntity } from './user.entity';
import { WebhookDeliveryEntity } from './webhook-delivery.entity';
import { WebhookEndpointEntity } from './webhook-endpoint.entity';

export {
  ApiKeyEntity,
  MappingFingerprintEntity,
  MappingRunEntity,
  TeamHistoryKeyEntity,
  PasswordResetTokenEntity,
  SavedMappingEntity,
  SessionEntity,
  TeamEntity,
  TeamInvitationEntity,
  TeamMembershipEntity,
  UsageHistoryEntity,
  UserEntity,
  WebhookDeliveryEntity,
  WebhookEndpointEntity,
};
export type { TeamRole } from './team.entity';

export const ENTITIES = [
  UserEntity,
  SessionEntity,
  UsageHistoryEntity,
  PasswordResetTokenEntity,
  SavedMappingEntity,
  ApiKeyEntity,
  WebhookEndpointEntity,
  WebhookDeliveryEntity,
  TeamEntity,
  TeamMembershipEntity,
  TeamInvitationEntity,
  TeamHistoryKeyEntity,
  MappingRunEntity,
  MappingFingerprintEntity,
];
