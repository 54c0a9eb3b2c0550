import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  PrimaryGeneratedColumn,
} from 'typeorm';
import type { ControlTotal, DuplicatesMode, MappingRunSource } from '@csv-mapper/contracts';
import { SavedMappingEntity } from './saved-mapping.entity';

// Run history of saved mappings (issue 30; migration 1723000000000-mapping-history). No cell value is stored:
// runs hold counts and control totals, fingerprints only truncated keyed hashes.

/** A team's secret for row fingerprints (generated on first use; never answered by a route or logged). */
@Entity('team_history_keys')
export class TeamHistoryKeyEntity {
  @PrimaryColumn({ name: 'team_id', type: 'uuid' }) teamId: string;
  @Column({ type: 'bytea' }) secret: Buffer;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}

/** One run of a saved mapping: who, when, from where, and what it wrote. */
@Entity('mapping_runs')
export class MappingRunEntity {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Index('IDX_mapping_runs_mapping')
  @Column({ name: 'mapping_id', type: 'uuid' })
  mappingId: string;
  @ManyToOne(() => SavedMappingEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'mapping_id' })
  mapping?: SavedMappingEntity;
  @Column({ name: 'team_id', type: 'uuid' }) teamId: string;
  /** Who ran it; null once that account is deleted. */
  @Column({ name: 'user_id', type: 'uuid', nullable: true }) userId: string | null;
  @Column({ type: 'varchar', length: 8 }) source: MappingRunSource;
  @Column({ type: 'varchar', length: 10, default: 'running' }) state: 'running' | 'completed' | 'failed';
  @Column({ name: 'data_filename', type: 'varchar', length: 255, nullable: true }) dataFilename:
    string | null;
  @Column({ name: 'job_id', type: 'varchar', length: 200, nullable: true }) jobId: string | null;
  @Column({ name: 'batch_id', type: 'varchar', length: 200, nullable: true }) batchId: string | null;
  @Column({ name: 'rows_read', type: 'integer', default: 0 }) rowsRead: number;
  @Column({ name: 'rows_written', type: 'integer', default: 0 }) rowsWritten: number;
  @Column({ name: 'rows_already_exported', type: 'integer', default: 0 }) rowsAlreadyExported: number;
  @Column({ name: 'rows_skipped', type: 'integer', default: 0 }) rowsSkipped: number;
  @Column({ type: 'varchar', length: 8, default: 'flag' }) duplicates: DuplicatesMode;
  @Column({ name: 'control_totals', type: 'jsonb', nullable: true }) controlTotals: ControlTotal[] | null;
  /** Where the result is kept (a job's result id) until result_expires_at. */
  @Column({ name: 'result_key', type: 'varchar', length: 300, nullable: true }) resultKey: string | null;
  @Column({ name: 'result_expires_at', type: 'timestamptz', nullable: true }) resultExpiresAt: Date | null;
  @Column({ name: 'error_code', type: 'varchar', length: 64, nullable: true }) errorCode: string | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true }) finishedAt: Date | null;
}

/**
 * A run's fingerprints of one bucket (the fingerprint's first 6 bits), packed 8 bytes each: the first 64
 * bits of HMAC-SHA-256 under the team's secret.
 */
@Entity('mapping_fingerprints')
export class MappingFingerprintEntity {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' }) id: string;
  @Column({ name: 'mapping_id', type: 'uuid' }) mappingId: string;
  @ManyToOne(() => SavedMappingEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'mapping_id' })
  mapping?: SavedMappingEntity;
  @Column({ name: 'run_id', type: 'uuid' }) runId: string;
  @Column({ type: 'smallint' }) bucket: number;
  @Column({ type: 'integer' }) count: number;
  @Column({ type: 'bytea' }) fingerprints: Buffer;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
