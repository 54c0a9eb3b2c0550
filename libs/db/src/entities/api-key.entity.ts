import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { UserEntity } from './user.entity';

@Entity('api_keys')
export class ApiKeyEntity {
  @PrimaryGeneratedColumn('uuid') id: string;

  @Index('IDX_api_keys_user')
  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;
  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  /** The team it belongs to; filled from the creator's current team when left out. */
  @Index('IDX_api_keys_team')
  @Column({ name: 'team_id', type: 'uuid' })
  teamId: string;

  @Column({ type: 'varchar', length: 100 }) name: string;
  /** The first characters of the key (e.g. 'csvm_ab12'), shown in lists to tell keys apart. */
  @Column({ type: 'varchar', length: 32 }) prefix: string;
  /** SHA-256 (hex) of the full key; the key itself is shown once and never stored. */
  @Column({ name: 'key_hash', type: 'varchar', length: 64, unique: true }) keyHash: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true }) lastUsedAt: Date | null;
  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true }) revokedAt: Date | null;
}
