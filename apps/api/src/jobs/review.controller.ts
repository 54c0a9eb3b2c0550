import {
  Body,
  Controller,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Query,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import {
  IssuesPage,
  IssuesQuery,
  PatchCellsRequest,
  PatchCellsResponse,
  RerunResponse,
} from '@csv-mapper/contracts';
import { ApiKeyAllowed } from '../auth/api-key-allowed.decorator';
import { AuthGuard } from '../auth/auth.guard';
import type { AuthUser } from '../auth/auth-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { RedisUnavailableInterceptor } from './redis-unavailable.interceptor';
import { ReviewService } from './review.service';

/**
 * Review and fix before download. `:id` is a background job's id or a sync run's `reviewId` (the process
 * answer carries it when the run had problems): the same three routes work on both.
 */
@Controller('jobs')
@UseGuards(AuthGuard)
@UseInterceptors(RedisUnavailableInterceptor)
@ApiKeyAllowed()
export class ReviewController {
  constructor(private readonly review: ReviewService) {}

  /**
   * The problems of a finished run, page by page (filter by rule and column). `:id` is a job id or the
   * `reviewId` of a sync process answer.
   */
  @Get(':id/issues')
  issues(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Query() q: IssuesQuery,
  ): Promise<IssuesPage> {
    return this.review.issues(user.teamId, id, q);
  }

  /**
   * Store cell edits and row deletions as a patch beside the upload (the upload is never rewritten);
   * answers the edits' problems against the column rules. `:id` is a job id or a sync `reviewId`.
   */
  @Patch(':id/cells')
  cells(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Body() body: PatchCellsRequest,
  ): Promise<PatchCellsResponse> {
    return this.review.patchCells(user.teamId, id, body);
  }

  /**
   * Queue the corrected run: the worker applies the patch while streaming (its answer counts the rows
   * edited and deleted); download its result as usual. `:id` is a job id or a sync `reviewId`.
   */
  @Post(':id/rerun')
  @HttpCode(202)
  rerun(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<RerunResponse> {
    return this.review.rerun(user.teamId, user.plan, id);
  }
}
