import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, Repository } from 'typeorm';
import { z } from 'zod';
import { isCsvEngineError, validateMappings, type MappingPair } from '@csv-mapper/csv-engine';
import { limitsOf, normaliseHeader, planOf, UNLIMITED } from '@csv-mapper/domain';
import { SavedMappingEntity, type StoredMappingPair } from '@csv-mapper/db';
import type { AuthUser } from '../auth/auth-user';
import { AppError } from '../common/app-error';
import { mappingsSchema } from '../processing/process-request';

// Saved mapping configurations: CRUD with the plan's limit, the downgrade lock (only the oldest mappings the
// plan allows stay usable) and source recognition (which saved mapping fits a newly uploaded data file).

export interface SavedMappingView {
  id: string;
  name: string;
  description: string | null;
  templateHeaders: string[];
  dataHeaders: string[];
  mappings: StoredMappingPair[];
  createdAt: Date;
  updatedAt: Date;
  locked: boolean;
}

export interface MatchResult {
  mapping: SavedMappingView | null;
  score: number;
}

const inputSchema = z.object({
  name: z.string().max(1000).optional().nullable(),
  description: z.string().max(5000).optional().nullable(),
  templateHeaders: z.array(z.string().max(500)).min(1).max(1000),
  dataHeaders: z.array(z.string().max(500)).max(1000).default([]),
  mappings: mappingsSchema,
});

const matchSchema = z.object({ headers: z.array(z.string().max(500)).min(1).max(1000) });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MIN_MATCH_SCORE = 0.6;

@Injectable()
export class MappingsService {
  private readonly repo: Repository<SavedMappingEntity>;

  constructor(@InjectDataSource() db: DataSource) {
    this.repo = db.getRepository(SavedMappingEntity);
  }

  async list(user: AuthUser): Promise<SavedMappingView[]> {
    const all = await this.repo.find({ where: { userId: user.id }, order: { createdAt: 'ASC', id: 'ASC' } });
    const limit = limitsOf(user.plan).maxSavedMappings;
    return all.map((m, i) => view(m, limit !== UNLIMITED && i >= limit));
  }

  async get(user: AuthUser, id: string): Promise<SavedMappingView> {
    const m = await this.findOwned(user, id);
    if (!m) throw notFound();
    await this.assertUnlocked(user, m);
    return view(m, false);
  }

  async create(user: AuthUser, body: unknown, id?: string): Promise<SavedMappingView> {
    const input = parseInput(body);
    const limit = limitsOf(user.plan).maxSavedMappings;
    if (limit !== UNLIMITED) {
      const count = await this.repo.count({ where: { userId: user.id } });
      if (count >= limit) {
        throw new AppError(
          403,
          'MAPPING_LIMIT_REACHED',
          `Saving another mapping exceeds your plan limit of ${limit} saved mapping${limit === 1 ? '' : 's'} (${planOf(user.plan).name}). Delete a mapping or upgrade your plan to save more.`,
          { limit, count },
        );
      }
    }
    const saved = await this.repo.save(
      this.repo.create({ ...(id ? { id } : {}), userId: user.id, ...input }),
    );
    return view(saved, false);
  }

  /** PUT: updates the caller's mapping, or creates it under that id (published API). */
  async upsert(
    user: AuthUser,
    id: string,
    body: unknown,
  ): Promise<{ created: boolean; mapping: SavedMappingView }> {
    if (!UUID.test(id)) {
      throw new AppError(
        400,
        'INVALID_ID',
        'A saved mapping id is a UUID, e.g. 3f1c…-…; create one with POST first.',
      );
    }
    const existing = await this.repo.findOne({ where: { id } });
    if (!existing) return { created: true, mapping: await this.create(user, body, id) };
    if (existing.userId !== user.id) throw notFound();
    await this.assertUnlocked(user, existing);
    const input = parseInput(body);
    Object.assign(existing, input);
    const saved = await this.repo.save(existing);
    return { created: false, mapping: view(saved, false) };
  }

  async remove(user: AuthUser, id: string): Promise<void> {
    const m = await this.findOwned(user, id);
    if (!m) throw notFound();
    await this.repo.delete({ id: m.id, userId: user.id });
  }

  /** Source recognition: the usable saved mapping whose data headers best match the given ones. */
  async match(user: AuthUser, body: unknown): Promise<MatchResult> {
    const parsed = matchSchema.safeParse(body ?? {});
    if (!parsed.success) {
      throw new AppError(
        400,
        'VALIDATION_FAILED',
        'Send the data file\'s column names as "headers": a list of texts.',
      );
    }
    const given = new Set(parsed.data.headers.map(normaliseHeader));
    let best: MatchResult = { mapping: null, score: 0 };
    for (const m of await this.list(user)) {
      if (m.locked) continue;
      const needed = sourcesOf(m.mappings).map(normaliseHeader);
      if (needed.some((h) => !given.has(h))) continue;
      const theirs = new Set(m.dataHeaders.map(normaliseHeader));
      const inter = [...theirs].filter((h) => given.has(h)).length;
      const union = new Set([...theirs, ...given]).size;
      const score = union === 0 ? 0 : Math.round((inter / union) * 100) / 100;
      if (score >= MIN_MATCH_SCORE && score > best.score) best = { mapping: m, score };
    }
    return best;
  }

  private async findOwned(user: AuthUser, id: string): Promise<SavedMappingEntity | null> {
    if (!UUID.test(id)) return null;
    return this.repo.findOne({ where: { id, userId: user.id } });
  }

  /** After a downgrade only the oldest `limit` mappings stay usable. */
  private async assertUnlocked(user: AuthUser, m: SavedMappingEntity): Promise<void> {
    const limit = limitsOf(user.plan).maxSavedMappings;
    if (limit === UNLIMITED) return;
    const older = await this.repo
      .createQueryBuilder('m')
      .where('m.userId = :userId', { userId: user.id })
      .andWhere('(m.createdAt < :createdAt OR (m.createdAt = :createdAt AND m.id < :id))', {
        createdAt: m.createdAt,
        id: m.id,
      })
      .getCount();
    if (older >= limit) {
      throw new AppError(
        403,
        'UPGRADE_REQUIRED',
        `Upgrade Required: your ${planOf(user.plan).name} plan includes ${limit} saved mapping${limit === 1 ? '' : 's'}, so this one is locked. Upgrade your plan to use it again.`,
      );
    }
  }
}

function notFound(): AppError {
  return new AppError(404, 'MAPPING_NOT_FOUND', 'Saved mapping not found. It may have been deleted.');
}

function view(m: SavedMappingEntity, locked: boolean): SavedMappingView {
  return {
    id: m.id,
    name: m.name,
    description: m.description,
    templateHeaders: m.templateHeaders,
    dataHeaders: m.dataHeaders,
    mappings: m.mappings,
    createdAt: m.createdAt,
    updatedAt: m.updatedAt,
    locked,
  };
}

function sourcesOf(pairs: StoredMappingPair[]): string[] {
  return pairs.flatMap((p) => {
    const t = p.transform as { kind?: string; debitColumn?: string; creditColumn?: string } | undefined;
    if (t?.kind === 'constant') return [];
    if (t?.kind === 'debitCredit') return [t.debitColumn ?? '', t.creditColumn ?? ''];
    return p.dataColumn ? [p.dataColumn] : [];
  });
}

function parseInput(body: unknown): Omit<SavedMappingView, 'id' | 'createdAt' | 'updatedAt' | 'locked'> {
  const parsed = inputSchema.safeParse(body ?? {});
  const name =
    typeof (body as { name?: unknown } | null)?.name === 'string'
      ? (body as { name: string }).name.trim()
      : '';
  if (!name) throw new AppError(400, 'NAME_REQUIRED', 'Please enter a name for the mapping');
  if (name.length > 200)
    throw new AppError(400, 'NAME_TOO_LONG', 'The mapping name is too long: use 200 characters or fewer.');
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError(
      400,
      'VALIDATION_FAILED',
      `Invalid mapping: ${issue.path.join('.') || 'body'} ${issue.message.toLowerCase()}.`,
      parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
    );
  }
  const v = parsed.data;
  const mappings = v.mappings.map((m) => ({
    templateColumn: m.templateColumn,
    dataColumn: m.dataColumn,
    ...(m.transform ? { transform: m.transform as Record<string, unknown> } : {}),
  }));
  try {
    validateMappings(v.templateHeaders, mappings as unknown as MappingPair[]);
  } catch (err) {
    if (isCsvEngineError(err)) throw new AppError(400, err.code, err.message);
    throw err;
  }
  const description = v.description?.trim() || null;
  return { name, description, templateHeaders: v.templateHeaders, dataHeaders: v.dataHeaders, mappings };
}
