import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import { ApiConfig } from '../config/api.config';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/**
 * Sends mail through nodemailer over SMTP_URL. Without SMTP_URL in development, mail is written to the
 * log instead (so reset links can be followed locally); in production it is refused loudly, never logged.
 */
@Injectable()
export class MailService implements OnApplicationShutdown {
  private readonly logger = new Logger('MailService');
  private readonly transport: Transporter | null;

  constructor(private readonly config: ApiConfig) {
    this.transport = config.smtpUrl ? createTransport(config.smtpUrl) : null;
  }

  async send(message: MailMessage): Promise<void> {
    if (!this.transport) {
      if (this.config.isProduction) {
        throw new Error('Mail is not configured: set SMTP_URL to send mail in production.');
      }
      this.logger.warn(
        `SMTP_URL is not set; this mail was not sent.\nTo: ${message.to}\nSubject: ${message.subject}\n\n${message.text}`,
      );
      return;
    }
    await this.transport.sendMail({ from: this.config.mailFrom, ...message });
  }

  onApplicationShutdown(): void {
    this.transport?.close();
  }
}
