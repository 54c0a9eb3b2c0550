import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import { ApiKeyEntity } from '@csv-mapper/db';
import { limitsOf, planOf } from '@csv-mapper/domain';
import { generateApiKey } from '../auth/api-key-token';
import type { AuthUser } from '../auth/auth-user';
import { AppError } from '../common/app-error';
import type { ApiKeyView, CreatedApiKeyView } from '@csv-mapper/contracts';

export const MAX_ACTIVE_KEYS = 20;
export type { ApiKeyView, CreatedApiKeyView };

function toView(k: ApiKeyEntity): ApiKeyView {
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    createdAt: k.createdAt.toISOString(),
    lastUsedAt: k.lastUsedAt ? k.lastUsedAt.toISOString() : null,
  };
}

@Injectable()
export class ApiKeysService {
  constructor(@InjectRepository(ApiKeyEntity) private readonly keys: Repository<ApiKeyEntity>) {}

  async list(teamId: string): Promise<ApiKeyView[]> {
    const rows = await this.keys.find({
      where: { teamId, revokedAt: IsNull() },
      order: { createdAt: 'DESC' },
    });
    return rows.map(toView);
  }

  async create(user: AuthUser, name: string): Promise<CreatedApiKeyView> {
    if (!limitsOf(user.plan).apiAccess) {
      throw new AppError(
        403,
        'API_ACCESS_NOT_IN_PLAN',
        `API keys are not included in the ${planOf(user.plan).name} plan. Upgrade to Business or Enterprise.`,
      );
    }
    const active = await this.keys.count({ where: { teamId: user.teamId, revokedAt: IsNull() } });
    if (active >= MAX_ACTIVE_KEYS) {
      throw new AppError(
        400,
        'TOO_MANY_KEYS',
        `You can have at most ${MAX_ACTIVE_KEYS} active API keys. Revoke one you no longer use first.`,
      );
    }
    const { key, prefix, hash } = generateApiKey();
    const row = await this.keys.save(
      this.keys.create({ userId: user.id, teamId: user.teamId, name, prefix, keyHash: hash }),
    );
    return { id: row.id, name: row.name, prefix: row.prefix, createdAt: row.createdAt.toISOString(), key };
  }

  /** Takes effect on the key's next request: AuthGuard reads the row every time. */
  async revoke(teamId: string, id: string): Promise<void> {
    const result = await this.keys
      .createQueryBuilder()
      .update()
      .set({ revokedAt: () => 'now()' })
      .where('id::text = :id AND team_id = :teamId AND revoked_at IS NULL', { id, teamId })
      .execute();
    if (!result.affected) throw new AppError(404, 'NOT_FOUND', 'No such API key. It may already be revoked.');
  }
}
