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
import type { MappingPair, OutputOptions, ReadingOptions } from '@csv-mapper/contracts';
import { UserEntity } from './user.entity';

@Entity('saved_mappings')
export class SavedMappingEntity {
  @PrimaryGeneratedColumn('uuid') id: string;

  @Index('IDX_saved_mappings_user')
  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;
  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  @Column({ type: 'varchar', length: 200 }) name: string;
  @Column({ type: 'text', nullable: true }) description: string | null;
  @Column({ name: 'template_headers', type: 'jsonb' }) templateHeaders: string[];
  @Column({ name: 'data_headers', type: 'jsonb' }) dataHeaders: string[];
  @Column({ type: 'jsonb' }) mappings: MappingPair[];
  /** How the result is written when this mapping runs (null: match the template). */
  @Column({ name: 'output_options', type: 'jsonb', nullable: true }) outputOptions: OutputOptions | null;
  /** Overrides of the data file's detected encoding, delimiter and header row. */
  @Column({ name: 'reading_options', type: 'jsonb', nullable: true }) readingOptions: ReadingOptions | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
