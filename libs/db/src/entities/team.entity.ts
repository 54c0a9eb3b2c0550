import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { UserEntity } from './user.entity';

export type TeamRole = 'owner' | 'member';

/**
 * A workspace: saved mappings, usage, API keys and webhook endpoints belong to it. Every account owns one
 * (created with the account); its id is the owner's id. Plan and billing are the owner's.
 */
@Entity('teams')
export class TeamEntity {
  @PrimaryColumn('uuid') id: string;
  @Column({ name: 'owner_id', type: 'uuid', unique: true }) ownerId: string;
  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'owner_id' })
  owner?: UserEntity;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}

/** The one team a user works in now: their own (owner) or one they joined (member). */
@Entity('team_memberships')
export class TeamMembershipEntity {
  @PrimaryColumn({ name: 'user_id', type: 'uuid' }) userId: string;
  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;
  @Column({ name: 'team_id', type: 'uuid' }) teamId: string;
  @Column({ type: 'varchar', length: 10 }) role: TeamRole;
  @Column({ name: 'joined_at', type: 'timestamptz', default: () => 'now()' }) joinedAt: Date;
}

/** An emailed, single-use invitation (7 days); only the SHA-256 of its token is stored. */
@Entity('team_invitations')
export class TeamInvitationEntity {
  @PrimaryColumn({ type: 'uuid', default: () => 'gen_random_uuid()' }) id: string;
  @Column({ name: 'team_id', type: 'uuid' }) teamId: string;
  @Column({ type: 'varchar', length: 254 }) email: string;
  @Column({ name: 'token_hash', type: 'varchar', length: 64, unique: true }) tokenHash: string;
  @Column({ name: 'invited_by', type: 'uuid', nullable: true }) invitedBy: string | null;
  @Column({ name: 'expires_at', type: 'timestamptz' }) expiresAt: Date;
  @Column({ name: 'accepted_at', type: 'timestamptz', nullable: true }) acceptedAt: Date | null;
  @Column({ name: 'accepted_by', type: 'uuid', nullable: true }) acceptedBy: string | null;
  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true }) revokedAt: Date | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
