import { Module } from '@nestjs/common';
import { DocsController } from './docs.controller';

/** The published API's OpenAPI document at /api/docs. */
@Module({ controllers: [DocsController] })
export class DocsModule {}
