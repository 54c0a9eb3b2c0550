import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { UserEntity } from './user.entity';

@Entity('usage_history')
export class UsageHistoryEntity {
  @PrimaryGeneratedColumn('uuid') id: string;

  @Index('IDX_usage_history_user')
  /** Who created it (who ran it, for usage); null once that account is deleted. */
  @Column({ name: 'user_id', type: 'uuid', nullable: true })
  userId: string | null;
  @ManyToOne(() => UserEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  /** The team it belongs to; filled from the creator's current team when left out. */
  @Index('IDX_usage_history_team')
  @Column({ name: 'team_id', type: 'uuid' })
  teamId: string;

  @Column({ name: 'rows_processed', type: 'integer' }) rowsProcessed: number;
  @Column({
    name: 'file_size_bytes',
    type: 'bigint',
    transformer: { to: (v: number) => v, from: (v: string) => Number(v) },
  })
  fileSizeBytes: number;
  @Column({ type: 'varchar', length: 255 }) filename: string;
  /** Set for background jobs: a unique key so a job that runs twice records usage once. */
  @Column({ name: 'job_id', type: 'varchar', length: 200, nullable: true, unique: true }) jobId:
    string | null;
  @Column({ name: 'processed_at', type: 'timestamptz', default: () => 'now()' }) processedAt: Date;
}
