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
import type {
  DuplicatesMode,
  MappingPair,
  OutputOptions,
  ReadingOptions,
  TemplateRules,
} from '@csv-mapper/contracts';
import { UserEntity } from './user.entity';

@Entity('saved_mappings')
export class SavedMappingEntity {
  @PrimaryGeneratedColumn('uuid') id: string;

  @Index('IDX_saved_mappings_user')
  /** Who created it (who ran it, for usage); null once that account is deleted. */
  @Column({ name: 'user_id', type: 'uuid', nullable: true })
  userId: string | null;
  @ManyToOne(() => UserEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  /** The team it belongs to; filled from the creator's current team when left out. */
  @Index('IDX_saved_mappings_team')
  @Column({ name: 'team_id', type: 'uuid' })
  teamId: string;

  @Column({ type: 'varchar', length: 200 }) name: string;
  @Column({ type: 'text', nullable: true }) description: string | null;
  @Column({ name: 'template_headers', type: 'jsonb' }) templateHeaders: string[];
  @Column({ name: 'data_headers', type: 'jsonb' }) dataHeaders: string[];
  @Column({ type: 'jsonb' }) mappings: MappingPair[];
  /** How the result is written when this mapping runs (null: match the template). */
  @Column({ name: 'output_options', type: 'jsonb', nullable: true }) outputOptions: OutputOptions | null;
  /** Overrides of the data file's detected encoding, delimiter and header row. */
  @Column({ name: 'reading_options', type: 'jsonb', nullable: true }) readingOptions: ReadingOptions | null;
  @Column({ name: 'template_rules', type: 'jsonb', nullable: true }) templateRules: TemplateRules | null;
  /** Rows exported by an earlier run: left out ('skip'), written and reported ('flag'), or written ('keep'). */
  @Column({ type: 'varchar', length: 8, default: 'flag' }) duplicates: DuplicatesMode;
  /** Template columns a row's fingerprint is taken from (null: every output value). */
  @Column({ name: 'history_key_columns', type: 'jsonb', nullable: true }) historyKeyColumns: string[] | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
