import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { UserEntity } from './user.entity';

@Entity('usage_history')
export class UsageHistoryEntity {
  @PrimaryGeneratedColumn('uuid') id: string;

  @Index('IDX_usage_history_user')
  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;
  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

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
