import { Controller, Get } from '@nestjs/common';
import { BUILT_IN_TEMPLATES, type BuiltInTemplate } from '@csv-mapper/domain';

/** GET /api/templates: the built-in target templates (public: they are advertised on the landing pages). */
@Controller('templates')
export class TemplatesController {
  @Get()
  list(): (BuiltInTemplate & { headers: string[] })[] {
    return BUILT_IN_TEMPLATES.map((t) => ({ ...t, headers: t.columns.map((c) => c.name) }));
  }
}
