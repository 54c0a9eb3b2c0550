import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** express-session store table (connect-pg-simple layout). */
@Entity('sessions')
export class SessionEntity {
  @PrimaryColumn({ type: 'varchar' }) sid: string;
  @Column({ type: 'json' }) sess: Record<string, unknown>;
  @Index('IDX_sessions_expire')
  @Column({ type: 'timestamp', precision: 6 })
  expire: Date;
}
