import { Module } from '@nestjs/common';
import { TemplatesController } from './templates.controller';

/** The built-in templates from libs/domain, served read-only. */
@Module({ controllers: [TemplatesController] })
export class TemplatesModule {}
