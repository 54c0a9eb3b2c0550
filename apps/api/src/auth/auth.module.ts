import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKeyEntity, PasswordResetTokenEntity, UserEntity } from '@csv-mapper/db';
import { MailModule } from '../mail/mail.module';
import { AuthController } from './auth.controller';
import { AuthGuard } from './auth.guard';
import { AuthService } from './auth.service';
import { Authenticator } from './authenticator.service';
import { CsrfGuard } from './csrf.guard';
import { PasswordHasher } from './password-hasher.service';
import { PasswordResetService } from './password-reset.service';
import { SessionsService } from './sessions.service';
import { ThrottleService } from './throttle.service';

/**
 * Owns who the caller is: sign-up, login, logout, password reset, sessions, the AuthGuard (cookie or
 * Bearer key) and the global CSRF guard. Feature modules `imports: [AuthModule]` and put
 * `@UseGuards(AuthGuard)` on their controllers.
 */
@Module({
  imports: [TypeOrmModule.forFeature([UserEntity, ApiKeyEntity, PasswordResetTokenEntity]), MailModule],
  controllers: [AuthController],
  providers: [
    Authenticator,
    AuthGuard,
    AuthService,
    PasswordHasher,
    PasswordResetService,
    SessionsService,
    ThrottleService,
    { provide: APP_GUARD, useClass: CsrfGuard },
  ],
  exports: [Authenticator, AuthGuard, AuthService, PasswordHasher, SessionsService, ThrottleService],
})
export class AuthModule {}
