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

/** One delivery attempt of one event to one endpoint. Response bodies are never kept. */
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
  /** Our own short description of a failure (timeout, refused address…), never the receiver's body. */
  @Column({ type: 'varchar', length: 500, nullable: true }) error: string | null;
  @Column({ name: 'next_retry_at', type: 'timestamptz', nullable: true }) nextRetryAt: Date | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
