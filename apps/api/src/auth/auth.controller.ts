import { Body, Controller, Get, HttpCode, Post, Redirect, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import {
  LoginRequest,
  PasswordResetRequest,
  RegisterRequest,
  ResetPasswordRequest,
  type MessageResponse,
} from '@csv-mapper/contracts';
import { AuthService, SessionUserView } from './auth.service';
import { RESET_REQUEST_ACCEPTED, PasswordResetService } from './password-reset.service';
import { SessionsService } from './sessions.service';

type Message = MessageResponse;

@Controller()
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly resets: PasswordResetService,
    private readonly sessions: SessionsService,
  ) {}

  /** Create an account and sign in (session cookie) */
  @Post('register')
  register(
    @Body() body: RegisterRequest,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<SessionUserView> {
    return this.auth.register(body, req, res);
  }

  /** Sign in with email or username and password (session cookie) */
  @Post('login')
  @HttpCode(200)
  login(
    @Body() body: LoginRequest,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<SessionUserView> {
    return this.auth.login(body, req, res);
  }

  /** The spec's logged-out redirect target (the mapper sends people to /api/login). */
  @Get('login')
  @Redirect('/auth', 302)
  loginPage(): void {}

  /** Sign out: this session ends and its cookie is cleared */
  @Post('logout')
  @HttpCode(200)
  async logout(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<Message> {
    await this.sessions.endAndClear(req, res);
    return { message: 'Logged out successfully' };
  }

  /** Mail a password reset link (the same answer whether or not the address has an account) */
  @Post('request-password-reset')
  @HttpCode(202)
  async requestPasswordReset(
    @Body() body: PasswordResetRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Message> {
    await this.resets.request(body.email, res);
    return { message: RESET_REQUEST_ACCEPTED };
  }

  /** Set a new password with the token from the reset mail */
  @Post('reset-password')
  @HttpCode(200)
  async resetPassword(@Body() body: ResetPasswordRequest): Promise<Message> {
    await this.resets.reset(body);
    return { message: 'Your password has been reset. Log in with your new password.' };
  }
}
