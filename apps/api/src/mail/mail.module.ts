import { Module } from '@nestjs/common';
import { MailService } from './mail.service';

/** Owns outgoing mail (SMTP via nodemailer). */
@Module({ providers: [MailService], exports: [MailService] })
export class MailModule {}
