import { Module } from '@nestjs/common';
import { DocsController } from './docs.controller';
import { OpenApiDocument } from './openapi.service';

/** The published API's OpenAPI document at /api/docs. */
@Module({ controllers: [DocsController], providers: [OpenApiDocument], exports: [OpenApiDocument] })
export class DocsModule {}
