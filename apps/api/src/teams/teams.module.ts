import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { MailModule } from '../mail/mail.module';
import { TeamsController } from './teams.controller';
import { TeamsService } from './teams.service';

/** Owns teams: members, invitations by email, joining, leaving and removal. AuthGuard resolves the team. */
@Module({
  imports: [AuthModule, MailModule],
  controllers: [TeamsController],
  providers: [TeamsService],
  exports: [TeamsService],
})
export class TeamsModule {}
