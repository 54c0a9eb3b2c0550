import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, Repository } from 'typeorm';
import {
  isCsvEngineError,
  pairSources,
  validateMappings,
  validateTemplateRules,
} from '@csv-mapper/csv-engine';
import { RECIPE_FORMAT, RECIPE_VERSION } from '@csv-mapper/contracts';
import type {
  MappingMatch,
  Recipe,
  MappingPair,
  MatchResult,
  SaveMappingRequest,
  SavedMappingView,
} from '@csv-mapper/contracts';
import { limitsOf, normaliseHeader, planOf, UNLIMITED } from '@csv-mapper/domain';
import { SavedMappingEntity } from '@csv-mapper/db';
import type { AuthUser } from '../auth/auth-user';
import { AppError } from '../common/app-error';
import { isUuid } from '../common/ids';

// Saved mapping configurations: CRUD with the plan's limit, the downgrade lock (only the oldest mappings the
// plan allows stay usable) and source recognition (which saved mapping fits a newly uploaded data file).

export type { MatchResult, SavedMappingView };

const MIN_MATCH_SCORE = 0.6;

@Injectable()
export class MappingsService {
  private readonly repo: Repository<SavedMappingEntity>;

  constructor(@InjectDataSource() db: DataSource) {
    this.repo = db.getRepository(SavedMappingEntity);
  }

  async list(user: AuthUser): Promise<SavedMappingView[]> {
    const all = await this.repo.find({
      where: { teamId: user.teamId },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
    const limit = limitsOf(user.plan).maxSavedMappings;
    return all.map((m, i) => view(m, limit !== UNLIMITED && i >= limit));
  }

  async get(user: AuthUser, id: string): Promise<SavedMappingView> {
    const m = await this.findOwned(user, id);
    if (!m) throw notFound();
    await this.assertUnlocked(user, m);
    return view(m, false);
  }

  async create(user: AuthUser, body: SaveMappingRequest, id?: string): Promise<SavedMappingView> {
    const input = checked(body);
    const limit = limitsOf(user.plan).maxSavedMappings;
    if (limit !== UNLIMITED) {
      const count = await this.repo.count({ where: { teamId: user.teamId } });
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
      this.repo.create({ ...(id ? { id } : {}), userId: user.id, teamId: user.teamId, ...input }),
    );
    return view(saved, false);
  }

  /** PUT: updates the caller's mapping, or creates it under that id (published API). */
  async upsert(
    user: AuthUser,
    id: string,
    body: SaveMappingRequest,
  ): Promise<{ created: boolean; mapping: SavedMappingView }> {
    if (!isUuid(id)) {
      throw new AppError(
        400,
        'INVALID_ID',
        'A saved mapping id is a UUID, e.g. 3f1c…-…; create one with POST first.',
      );
    }
    const existing = await this.repo.findOne({ where: { id } });
    if (!existing) return { created: true, mapping: await this.create(user, body, id) };
    if (existing.teamId !== user.teamId) throw notFound();
    await this.assertUnlocked(user, existing);
    const input = checked(body);
    // Run-history settings the body leaves out stay as saved (an update written before they existed, or
    // one that only renames, must not reset what the saved mappings page set); key columns the new
    // template no longer has are dropped.
    if (body.duplicates === undefined) input.duplicates = existing.duplicates ?? 'flag';
    if (body.historyKeyColumns === undefined) {
      const kept = (existing.historyKeyColumns ?? []).filter((k) => input.templateHeaders.includes(k));
      input.historyKeyColumns = kept.length > 0 ? kept : null;
    }
    Object.assign(existing, input);
    const saved = await this.repo.save(existing);
    return { created: false, mapping: view(saved, false) };
  }

  /** The saved mapping as a versioned recipe file (the command-line tool runs it; import takes it back). */
  async exportRecipe(user: AuthUser, id: string): Promise<Recipe> {
    const m = await this.get(user, id);
    return {
      format: RECIPE_FORMAT,
      version: RECIPE_VERSION,
      name: m.name,
      ...(m.description ? { description: m.description } : {}),
      templateHeaders: m.templateHeaders,
      dataHeaders: m.dataHeaders,
      mappings: m.mappings,
      ...(m.reading ? { reading: m.reading } : {}),
      ...(m.output ? { output: m.output } : {}),
      ...(m.templateRules ? { templateRules: m.templateRules } : {}),
    };
  }

  /** A recipe (validated by the contract) saved as a new mapping, under the plan's limit. */
  async importRecipe(user: AuthUser, recipe: Recipe): Promise<SavedMappingView> {
    return this.create(user, {
      name: recipe.name,
      description: recipe.description ?? null,
      templateHeaders: recipe.templateHeaders,
      dataHeaders: recipe.dataHeaders ?? [],
      mappings: recipe.mappings,
      output: recipe.output ?? null,
      reading: recipe.reading ?? null,
      ...(recipe.templateRules ? { templateRules: recipe.templateRules } : {}),
    });
  }

  async remove(user: AuthUser, id: string): Promise<void> {
    const m = await this.findOwned(user, id);
    if (!m) throw notFound();
    await this.repo.delete({ id: m.id, teamId: user.teamId });
  }

  /** Source recognition: the usable saved mapping whose data headers best match the given ones. */
  async match(user: AuthUser, headers: string[]): Promise<MatchResult> {
    const [best] = await this.ranked(user, headers, 1);
    return best ?? { mapping: null, score: 0 };
  }

  /** The usable saved mappings that fit a data file's headers, best first (the upload answer's matches). */
  async matches(user: AuthUser, headers: string[], limit = 3): Promise<MappingMatch[]> {
    const ranked = await this.ranked(user, headers, limit);
    return ranked.map(({ mapping, score }) => ({ id: mapping.id, name: mapping.name, score }));
  }

  /**
   * Saved mappings whose every source column is among `headers`, scored by how alike the two header sets
   * are (Jaccard, 2 decimals), best first; the older mapping first on a tie.
   */
  private async ranked(
    user: AuthUser,
    headers: string[],
    limit: number,
  ): Promise<{ mapping: SavedMappingView; score: number }[]> {
    const given = new Set(headers.map(normaliseHeader));
    const found: { mapping: SavedMappingView; score: number }[] = [];
    for (const m of await this.list(user)) {
      if (m.locked) continue;
      const needed = sourcesOf(m.mappings).map(normaliseHeader);
      if (needed.some((h) => !given.has(h))) continue;
      const theirs = new Set(m.dataHeaders.map(normaliseHeader));
      const inter = [...theirs].filter((h) => given.has(h)).length;
      const union = new Set([...theirs, ...given]).size;
      const score = union === 0 ? 0 : Math.round((inter / union) * 100) / 100;
      if (score >= MIN_MATCH_SCORE) found.push({ mapping: m, score });
    }
    // A stable sort keeps list order (oldest first) among equal scores, as the single best match did.
    return found.sort((a, b) => b.score - a.score).slice(0, limit);
  }

  private async findOwned(user: AuthUser, id: string): Promise<SavedMappingEntity | null> {
    if (!isUuid(id)) return null;
    return this.repo.findOne({ where: { id, teamId: user.teamId } });
  }

  /** After a downgrade only the oldest `limit` mappings stay usable. */
  private async assertUnlocked(user: AuthUser, m: SavedMappingEntity): Promise<void> {
    const limit = limitsOf(user.plan).maxSavedMappings;
    if (limit === UNLIMITED) return;
    const older = await this.repo
      .createQueryBuilder('m')
      .where('m.teamId = :teamId', { teamId: user.teamId })
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
    output: m.outputOptions ?? null,
    reading: m.readingOptions ?? null,
    ...(m.templateRules ? { templateRules: m.templateRules } : {}),
    duplicates: m.duplicates ?? 'flag',
    historyKeyColumns: m.historyKeyColumns ?? null,
    createdAt: m.createdAt.toISOString(),
    updatedAt: m.updatedAt.toISOString(),
    locked,
  };
}

function sourcesOf(pairs: MappingPair[]): string[] {
  return pairs.flatMap((p) => {
    try {
      return pairSources(p).columns;
    } catch {
      return p.dataColumn ? [p.dataColumn] : [];
    }
  });
}

/** The meaning the shape cannot carry: every pair names a template column, at most once. */
type MappingInput = Pick<
  SavedMappingEntity,
  | 'name'
  | 'description'
  | 'templateHeaders'
  | 'dataHeaders'
  | 'mappings'
  | 'outputOptions'
  | 'readingOptions'
  | 'templateRules'
  | 'duplicates'
  | 'historyKeyColumns'
>;

function checked(v: SaveMappingRequest): MappingInput {
  try {
    validateMappings(v.templateHeaders, v.mappings);
    validateTemplateRules(v.templateHeaders, v.templateRules);
  } catch (err) {
    if (isCsvEngineError(err)) throw new AppError(400, err.code, err.message);
    throw err;
  }
  const keys = v.historyKeyColumns ?? null;
  const unknown = (keys ?? []).filter((k) => !v.templateHeaders.includes(k));
  if (unknown.length > 0) {
    throw new AppError(
      400,
      'UNKNOWN_COLUMN',
      `historyKeyColumns names columns the template does not have: ${unknown.join(', ')}. Its columns are: ${v.templateHeaders.join(', ')}.`,
    );
  }
  return {
    name: v.name,
    description: v.description?.trim() || null,
    templateHeaders: v.templateHeaders,
    dataHeaders: v.dataHeaders,
    mappings: v.mappings,
    outputOptions: v.output ? plain(v.output) : null,
    readingOptions: v.reading ? plain(v.reading) : null,
    templateRules: v.templateRules ?? null,
    duplicates: v.duplicates ?? 'flag',
    historyKeyColumns: keys && keys.length > 0 ? [...new Set(keys)] : null,
  };
}

/** A validated DTO as plain JSON (only the fields that were set). */
function plain<T extends object>(o: T): T {
  return JSON.parse(JSON.stringify(o)) as T;
}
