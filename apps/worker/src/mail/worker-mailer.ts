import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import { WorkerConfig } from '../config/worker.config';

/** The worker's own small mailer (same SMTP_URL/MAIL_FROM as the api); unset SMTP_URL = logged only. */
@Injectable()
export class WorkerMailer implements OnApplicationShutdown {
  private readonly logger = new Logger('WorkerMailer');
  private readonly transport: Transporter | null;

  constructor(private readonly config: WorkerConfig) {
    this.transport = config.smtpUrl ? createTransport(config.smtpUrl) : null;
  }

  async send(message: { to: string; subject: string; text: string }): Promise<void> {
    if (!this.transport) {
      this.logger.warn(`SMTP_URL is not set; mail "${message.subject}" to ${message.to} was not sent.`);
      return;
    }
    await this.transport.sendMail({ from: this.config.mailFrom, ...message });
  }

  onApplicationShutdown(): void {
    this.transport?.close();
  }
}
