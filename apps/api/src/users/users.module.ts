import { Module } from '@nestjs/common';
import { QuotaModule } from '../quota/quota.module';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SavedMappingEntity, UserEntity } from '@csv-mapper/db';
import { AuthModule } from '../auth/auth.module';
import { TeamsModule } from '../teams/teams.module';
import { SubscriptionCanceller } from './subscription-canceller';
import { UsersController } from './users.controller';
import { UsersService } from './users.service';

/** Owns the signed-in user's own account: session user, profile and account deletion. */
@Module({
  imports: [QuotaModule, AuthModule, TeamsModule, TypeOrmModule.forFeature([UserEntity, SavedMappingEntity])],
  controllers: [UsersController],
  providers: [UsersService, SubscriptionCanceller],
  exports: [SubscriptionCanceller],
})
export class UsersModule {}
