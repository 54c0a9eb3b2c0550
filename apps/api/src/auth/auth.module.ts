import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKeyEntity, UserEntity } from '@csv-mapper/db';
import { AuthGuard } from './auth.guard';
import { Authenticator } from './authenticator.service';
import { CsrfGuard } from './csrf.guard';

/**
 * Owns who the caller is: sessions, the AuthGuard (cookie or Bearer key) and the global CSRF guard.
 * Other feature modules `imports: [AuthModule]` and put `@UseGuards(AuthGuard)` on their controllers.
 */
@Module({
  imports: [TypeOrmModule.forFeature([UserEntity, ApiKeyEntity])],
  providers: [Authenticator, AuthGuard, { provide: APP_GUARD, useClass: CsrfGuard }],
  exports: [Authenticator, AuthGuard],
})
export class AuthModule {}
