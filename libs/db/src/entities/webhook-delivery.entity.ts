import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { WebhookEndpointEntity } from './webhook-endpoint.entity';

export type WebhookDeliveryOutcome = 'succeeded' | 'retrying' | 'failed';

/**
 * One delivery attempt of one event to one endpoint, kept 30 days: what was sent (for a resend), the
 * receiver's status, timing and the first 1 KB of its answer, and whether another attempt follows.
 */
@Entity('webhook_deliveries')
export class WebhookDeliveryEntity {
  @PrimaryGeneratedColumn('uuid') id: string;

  @Index('IDX_webhook_deliveries_endpoint')
  @Column({ name: 'endpoint_id', type: 'uuid' })
  endpointId: string;
  @ManyToOne(() => WebhookEndpointEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'endpoint_id' })
  endpoint?: WebhookEndpointEntity;

  @Column({ type: 'varchar', length: 50 }) event: string;
  /** The Standard Webhooks message id, stable across retries. */
  @Column({ name: 'message_id', type: 'varchar', length: 100 }) messageId: string;
  @Column({ name: 'job_id', type: 'varchar', length: 200, nullable: true }) jobId: string | null;
  @Column({ type: 'integer' }) attempt: number;
  @Column({ name: 'status_code', type: 'integer', nullable: true }) statusCode: number | null;
  @Column({ name: 'duration_ms', type: 'integer', nullable: true }) durationMs: number | null;
  /** Our own short description of a failure (timeout, refused address…). */
  @Column({ type: 'varchar', length: 500, nullable: true }) error: string | null;
  /** The event body as sent (`{ type, timestamp, data }`); json, not jsonb, so a resend sends the same bytes. */
  @Column({ type: 'json', nullable: true }) payload: {
    type: string;
    timestamp: string;
    data: object;
  } | null;
  /** The first 1 KB of the receiver's response body, as text. */
  @Column({ name: 'response_snippet', type: 'varchar', length: 1024, nullable: true })
  responseSnippet: string | null;
  @Column({ type: 'varchar', length: 20, default: 'failed' }) outcome: WebhookDeliveryOutcome;
  @Column({ name: 'next_retry_at', type: 'timestamptz', nullable: true }) nextRetryAt: Date | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
