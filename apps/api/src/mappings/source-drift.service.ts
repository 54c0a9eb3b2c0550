import { Injectable } from '@nestjs/common';
import type { MappingMatch, MappingPair } from '@csv-mapper/contracts';
import { detectSourceDrift, type SuggestedTransform } from '@csv-mapper/domain';
import type { AuthUser } from '../auth/auth-user';
import { MappingsService } from './mappings.service';

// Source recognition with drift (issue 30): the saved mappings whose source a new data file is — the same
// columns, or most of them with some added, removed or renamed — best first, each saying what changed and
// carrying its pairs adapted to the file's columns. Renames come from libs/domain's source-drift (the
// suggester's reading of names and the upload's sampled values).

/** Below this share of alike columns (renamed ones counting as alike) a file is not that mapping's source. */
const MIN_MATCH_SCORE = 0.6;

export interface DriftSample {
  headers: string[];
  /** The upload's first rows. */
  rows: string[][];
  /** The upload's inferred transform per column (columns[].inferred), in header order. */
  inferred?: (unknown | null)[];
}

@Injectable()
export class SourceDriftService {
  constructor(private readonly mappings: MappingsService) {}

  /** The upload answer's matchingMappings: up to `limit` usable saved mappings, best first. */
  async matches(user: AuthUser, file: DriftSample, limit = 3): Promise<MappingMatch[]> {
    const samples: Record<string, string[]> = {};
    const inferred: Record<string, SuggestedTransform | null> = {};
    file.headers.forEach((h, k) => {
      samples[h] = file.rows.map((r) => r[k] ?? '');
      inferred[h] = (file.inferred?.[k] ?? null) as SuggestedTransform | null;
    });
    const found: MappingMatch[] = [];
    for (const m of await this.mappings.list(user)) {
      // a mapping saved without its source's columns (by API) has no source to recognise
      if (m.locked || m.dataHeaders.length === 0) continue;
      const drift = detectSourceDrift<MappingPair>({
        savedHeaders: m.dataHeaders,
        pairs: m.mappings,
        headers: file.headers,
        samples,
        inferred,
        minScore: MIN_MATCH_SCORE,
      });
      if (drift.score < MIN_MATCH_SCORE) continue;
      const changed = drift.added.length + drift.removed.length + drift.renamed.length > 0;
      found.push({
        id: m.id,
        name: m.name,
        score: drift.score,
        changes: { added: drift.added, removed: drift.removed, renamed: drift.renamed },
        missingColumns: drift.missing,
        ...(changed ? { adaptedMapping: drift.adaptedPairs } : {}),
      });
    }
    // A stable sort keeps list order (oldest first) among equal scores; a file the mapping can run as it
    // is goes before one that lacks a mapped column.
    return found
      .sort(
        (a, b) =>
          Number(a.missingColumns!.length > 0) - Number(b.missingColumns!.length > 0) || b.score - a.score,
      )
      .slice(0, limit);
  }
}
