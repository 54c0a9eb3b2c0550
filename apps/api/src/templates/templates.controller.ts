import { Controller, Get } from '@nestjs/common';
import type { TemplateView } from '@csv-mapper/contracts';
import { BUILT_IN_TEMPLATES } from '@csv-mapper/domain';

/** GET /api/templates: the built-in target templates (public: they are advertised on the landing pages). */
@Controller('templates')
export class TemplatesController {
  /** The built-in target templates with their headers (public) */
  @Get()
  list(): TemplateView[] {
    return BUILT_IN_TEMPLATES.map((t) => ({ ...t, headers: t.columns.map((c) => c.name) }));
  }
}
