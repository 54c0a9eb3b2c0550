import { Body, Controller, Delete, Get, HttpCode, Param, Post, Res, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import {
  AcceptInvitationRequest,
  InviteMemberRequest,
  type AcceptedInvitationView,
  type MessageResponse,
  type TeamInvitationView,
  type TeamUsageView,
  type TeamView,
} from '@csv-mapper/contracts';
import { ApiKeyAllowed } from '../auth/api-key-allowed.decorator';
import { AuthGuard } from '../auth/auth.guard';
import type { AuthUser } from '../auth/auth-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { AccountHolderOnly, ReadOnlyMemberAllowed } from '../auth/team-access.decorator';
import { ThrottleService } from '../auth/throttle.service';
import { TeamsService } from './teams.service';

@Controller('team')
@UseGuards(AuthGuard)
@ApiKeyAllowed()
export class TeamsController {
  constructor(
    private readonly teams: TeamsService,
    private readonly throttle: ThrottleService,
  ) {}

  /** Your team: members, pending invitations (account holder only), seats used and allowed */
  @Get()
  get(@CurrentUser() user: AuthUser): Promise<TeamView> {
    return this.teams.view(user);
  }

  /** Your team's 50 most recent runs, newest first: file, rows, size and who ran it */
  @Get('usage')
  usage(@CurrentUser() user: AuthUser): Promise<TeamUsageView> {
    return this.teams.usage(user);
  }

  /** Invite someone by email (account holder; a single-use link valid 7 days, within the plan's seats) */
  @Post('invitations')
  @AccountHolderOnly()
  async invite(
    @CurrentUser() user: AuthUser,
    @Body() body: InviteMemberRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<TeamInvitationView> {
    await this.throttle.consume(`team-invite:${user.teamId}`, 30, 3600, res, 'Too many invitations.');
    return this.teams.invite(user, body.email);
  }

  /** Revoke a pending invitation (account holder) */
  @Delete('invitations/:id')
  @AccountHolderOnly()
  @HttpCode(204)
  revoke(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<void> {
    return this.teams.revokeInvitation(user, id);
  }

  /** Join the team of an invitation with the token from its link (the link works once) */
  @Post('invitations/accept')
  @HttpCode(200)
  @ReadOnlyMemberAllowed()
  async accept(
    @CurrentUser() user: AuthUser,
    @Body() body: AcceptInvitationRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<AcceptedInvitationView> {
    await this.throttle.consume(`team-accept:${user.id}`, 20, 3600, res, 'Too many invitation attempts.');
    return this.teams.accept(user, body.token);
  }

  /** Remove a member (account holder): their access ends at once and their API keys for the team are revoked */
  @Delete('members/:userId')
  @AccountHolderOnly()
  @HttpCode(204)
  remove(@CurrentUser() user: AuthUser, @Param('userId') userId: string): Promise<void> {
    return this.teams.removeMember(user, userId);
  }

  /** Leave the team (members): back to your own account; your API keys for the team are revoked */
  @Post('leave')
  @HttpCode(200)
  @ReadOnlyMemberAllowed()
  async leave(@CurrentUser() user: AuthUser): Promise<MessageResponse> {
    await this.teams.leave(user);
    return { message: 'You left the team.' };
  }
}
