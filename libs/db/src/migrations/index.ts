import { InitialSchema1700000000000 } from './1700000000000-initial-schema';
import { AuthIndexes1714000000000 } from './1714000000000-auth-indexes';
import { Billing1716000000000 } from './1716000000000-billing';
import { WebhookDeliveryLog1718000000000 } from './1718000000000-webhook-delivery-log';
import { BillingEventQueue1719000000000 } from './1719000000000-billing-event-queue';
import { MappingOutputOptions1720000000000 } from './1720000000000-mapping-output-options';
import { Teams1721000000000 } from './1721000000000-teams';
import { SavedMappingRules1722100000000 } from './1722100000000-saved-mapping-rules';
import { MappingHistory1723000000000 } from './1723000000000-mapping-history';

/** Every migration in order; new ones are appended here. */
export const MIGRATIONS = [
  InitialSchema1700000000000,
  AuthIndexes1714000000000,
  Billing1716000000000,
  WebhookDeliveryLog1718000000000,
  BillingEventQueue1719000000000,
  MappingOutputOptions1720000000000,
  Teams1721000000000,
  SavedMappingRules1722100000000,
  MappingHistory1723000000000,
];
