import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

@Entity('users')
export class UserEntity {
  @PrimaryGeneratedColumn('uuid') id: string;

  @Index('UQ_users_username', { unique: true })
  @Column({ type: 'varchar', length: 64 })
  username: string;

  // Uniqueness is case-insensitive: a functional unique index on lower(email) in the migration.
  @Column({ type: 'varchar', length: 254 }) email: string;

  /** argon2id hash; never serialised to a client. */
  @Column({ type: 'varchar', length: 255, select: false }) password: string;

  @Column({ name: 'first_name', type: 'varchar', length: 100, nullable: true }) firstName: string | null;
  @Column({ name: 'last_name', type: 'varchar', length: 100, nullable: true }) lastName: string | null;

  @Column({ type: 'varchar', length: 20, default: 'free' }) plan: string;
  @Column({ name: 'plan_started_at', type: 'timestamptz', nullable: true }) planStartedAt: Date | null;
  @Column({ name: 'plan_expires_at', type: 'timestamptz', nullable: true }) planExpiresAt: Date | null;

  @Column({ name: 'billing_customer_id', type: 'varchar', length: 255, nullable: true })
  billingCustomerId: string | null;
  @Column({ name: 'subscription_id', type: 'varchar', length: 255, nullable: true }) subscriptionId:
    string | null;
  @Column({ name: 'subscription_status', type: 'varchar', length: 40, nullable: true })
  subscriptionStatus: string | null;

  @Column({ name: 'subscription_cancel_at_period_end', type: 'boolean', default: false })
  subscriptionCancelAtPeriodEnd: boolean;
  @Column({ name: 'subscription_cancel_at', type: 'timestamptz', nullable: true })
  subscriptionCancelAt: Date | null;
  @Column({ name: 'subscription_current_period_end', type: 'timestamptz', nullable: true })
  subscriptionCurrentPeriodEnd: Date | null;
  /** A pro ↔ business change scheduled for the next billing cycle. */
  @Column({ name: 'pending_plan', type: 'varchar', length: 20, nullable: true }) pendingPlan: string | null;
  @Column({ name: 'pending_plan_at', type: 'timestamptz', nullable: true }) pendingPlanAt: Date | null;

  @Column({ name: 'max_file_size', type: 'integer', default: 1048576 }) maxFileSize: number;
  @Column({ name: 'max_saved_mappings', type: 'integer', default: 1 }) maxSavedMappings: number;
  @Column({ name: 'monthly_rows_used', type: 'integer', default: 0 }) monthlyRowsUsed: number;
  @Column({ name: 'last_reset_at', type: 'timestamptz', nullable: true }) lastResetAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
