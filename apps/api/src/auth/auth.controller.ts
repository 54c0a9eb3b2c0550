import { Body, Controller, Get, HttpCode, Post, Redirect, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { parseLogin, parseRegister, parseReset, parseResetRequest } from './auth.dto';
import { AuthService, SessionUserView } from './auth.service';
import { RESET_REQUEST_ACCEPTED, PasswordResetService } from './password-reset.service';
import { SessionsService } from './sessions.service';

interface Message {
  message: string;
}

@Controller()
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly resets: PasswordResetService,
    private readonly sessions: SessionsService,
  ) {}

  @Post('register')
  register(
    @Body() body: unknown,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<SessionUserView> {
    return this.auth.register(parseRegister(body), req, res);
  }

  @Post('login')
  @HttpCode(200)
  login(
    @Body() body: unknown,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<SessionUserView> {
    return this.auth.login(parseLogin(body), req, res);
  }

  /** The spec's logged-out redirect target (the mapper sends people to /api/login). */
  @Get('login')
  @Redirect('/auth', 302)
  loginPage(): void {}

  @Post('logout')
  @HttpCode(200)
  async logout(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<Message> {
    await this.sessions.endAndClear(req, res);
    return { message: 'Logged out successfully' };
  }

  @Post('request-password-reset')
  @HttpCode(202)
  async requestPasswordReset(
    @Body() body: unknown,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Message> {
    await this.resets.request(parseResetRequest(body), res);
    return { message: RESET_REQUEST_ACCEPTED };
  }

  @Post('reset-password')
  @HttpCode(200)
  async resetPassword(@Body() body: unknown): Promise<Message> {
    await this.resets.reset(parseReset(body));
    return { message: 'Your password has been reset. Log in with your new password.' };
  }
}
