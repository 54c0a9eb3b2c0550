import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import type { WebhookEventType } from '@csv-mapper/contracts';
import { UserEntity } from './user.entity';

@Entity('webhook_endpoints')
export class WebhookEndpointEntity {
  @PrimaryGeneratedColumn('uuid') id: string;

  @Index('IDX_webhook_endpoints_user')
  /** Who created it (who ran it, for usage); null once that account is deleted. */
  @Column({ name: 'user_id', type: 'uuid', nullable: true })
  userId: string | null;
  @ManyToOne(() => UserEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  /** The team it belongs to; filled from the creator's current team when left out. */
  @Index('IDX_webhook_endpoints_team')
  @Column({ name: 'team_id', type: 'uuid' })
  teamId: string;

  @Column({ type: 'varchar', length: 2048 }) url: string;
  /** 'whsec_' + base64 secret, used to sign deliveries (Standard Webhooks). */
  @Column({ type: 'varchar', length: 100, select: false }) secret: string;
  /** After a rotation the old secret signs too, until previousSecretExpiresAt (24 h). */
  @Column({ name: 'previous_secret', type: 'varchar', length: 100, nullable: true, select: false })
  previousSecret: string | null;
  @Column({ name: 'previous_secret_expires_at', type: 'timestamptz', nullable: true })
  previousSecretExpiresAt: Date | null;
  @Column({ type: 'jsonb', default: () => `'[]'::jsonb` }) events: WebhookEventType[];
  @Column({ type: 'boolean', default: true }) enabled: boolean;
  @Column({ name: 'disabled_reason', type: 'varchar', length: 255, nullable: true }) disabledReason:
    string | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
