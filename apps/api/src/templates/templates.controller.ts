import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import { TemplateView } from '@csv-mapper/contracts';
import { BUILT_IN_TEMPLATES } from '@csv-mapper/domain';

/** GET /api/templates: the built-in target templates (public: they are advertised on the landing pages). */
@Controller('templates')
export class TemplatesController {
  /** The built-in target templates with their headers (public) */
  @Get()
  @ApiOkResponse({
    description:
      'Each template: id, name, target system, its columns (name, required) and their names as headers; ' +
      'process with templateFileId "virtual-template-<id>" and templateHeaders set to those headers.',
    type: [TemplateView],
  })
  list(): TemplateView[] {
    return BUILT_IN_TEMPLATES.map((t) => ({ ...t, headers: t.columns.map((c) => c.name) }));
  }
}
