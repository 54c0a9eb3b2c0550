import { Body, Controller, Get, HttpCode, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AuthGuard } from '../auth/auth.guard';
import type { AuthUser } from '../auth/auth-user';
import type { SessionUserView } from '../auth/auth.service';
import { CurrentUser } from '../auth/current-user.decorator';
import { ReadOnlyMemberAllowed } from '../auth/team-access.decorator';
import { DeleteAccountRequest, type MessageResponse } from '@csv-mapper/contracts';
import { SessionsService } from '../auth/sessions.service';
import { ProfileView, UsersService } from './users.service';

@Controller('user')
@UseGuards(AuthGuard)
export class UsersController {
  constructor(
    private readonly users: UsersService,
    private readonly sessions: SessionsService,
  ) {}

  /** The signed-in user, plan and monthly usage */
  @Get()
  get(@CurrentUser() user: AuthUser): Promise<SessionUserView> {
    return this.users.sessionUser(user.id);
  }

  /** The profile page: account, plan, usage history and subscription */
  @Get('profile')
  profile(@CurrentUser() user: AuthUser): Promise<ProfileView> {
    return this.users.profile(user);
  }

  /** Delete the account and everything it owns (asks for the password) */
  @Post('delete-account')
  @ReadOnlyMemberAllowed()
  @HttpCode(200)
  async deleteAccount(
    @CurrentUser() user: AuthUser,
    @Body() body: DeleteAccountRequest,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<MessageResponse> {
    await this.users.deleteAccount(user, body.password ?? '', res, body.confirmMembersLosingAccess);
    await this.sessions.endAndClear(req, res).catch(() => undefined);
    return { message: 'Account Deleted' };
  }
}
