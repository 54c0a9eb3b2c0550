import {
  applyDecorators,
  Body,
  Controller,
  Delete,
  HttpCode,
  Param,
  Patch,
  Post,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import { ApiBody, ApiConsumes } from '@nestjs/swagger';
import { ApiKeyAllowed } from '../auth/api-key-allowed.decorator';
import { AuthGuard } from '../auth/auth.guard';
import type { AuthUser } from '../auth/auth-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { UpdateUploadRequest } from '@csv-mapper/contracts';
import {
  MultipartUploadInterceptor,
  StoredUpload,
  type ReceivedUpload,
} from './multipart-upload.interceptor';
import type { UploadRecord } from './upload-record';
import { UploadsService } from './uploads.service';

/**
 * The multipart body of the upload routes: MultipartUploadInterceptor streams its file into the store (never
 * buffered) and hands the route what it stored (@StoredUpload()).
 */
const CsvFileBody = (withType: boolean) =>
  applyDecorators(
    UseInterceptors(MultipartUploadInterceptor),
    ApiConsumes('multipart/form-data'),
    ApiBody({
      required: true,
      schema: {
        type: 'object',
        required: withType ? ['file', 'type'] : ['file'],
        properties: {
          ...(withType ? { type: { type: 'string', enum: ['template', 'data'] } } : {}),
          file: {
            type: 'string',
            format: 'binary',
            description: 'A .csv file or an Excel workbook (.xlsx); the content decides which',
          },
        },
      },
    }),
  );

/** POST /api/upload (multipart: file, type) and the published API's typed aliases. */
@Controller('upload')
@UseGuards(AuthGuard)
export class UploadsController {
  constructor(private readonly uploads: UploadsService) {}

  /** Upload a template or data file, CSV or .xlsx (multipart: file, type) */
  @Post()
  @CsvFileBody(true)
  upload(@CurrentUser() user: AuthUser, @StoredUpload() upload: ReceivedUpload): Promise<UploadRecord> {
    return this.uploads.receive(upload, user);
  }

  /** Upload a template file, CSV or .xlsx (headers only) */
  @Post('template')
  @ApiKeyAllowed()
  @CsvFileBody(false)
  uploadTemplate(
    @CurrentUser() user: AuthUser,
    @StoredUpload() upload: ReceivedUpload,
  ): Promise<UploadRecord> {
    return this.uploads.receive(upload, user, 'template');
  }

  /** Upload a data file, CSV or .xlsx (headers and rows) */
  @Post('data')
  @ApiKeyAllowed()
  @CsvFileBody(false)
  uploadData(@CurrentUser() user: AuthUser, @StoredUpload() upload: ReceivedUpload): Promise<UploadRecord> {
    return this.uploads.receive(upload, user, 'data');
  }

  /** Read an uploaded file again with other choices: encoding, delimiter, header row or sheet */
  @Patch(':id')
  @ApiKeyAllowed()
  update(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Body() body: UpdateUploadRequest,
  ): Promise<UploadRecord> {
    return this.uploads.update(id, user, body);
  }

  /** Delete an uploaded file before it expires */
  @Delete(':id')
  @HttpCode(204)
  @ApiKeyAllowed()
  remove(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<void> {
    return this.uploads.remove(id, user.teamId);
  }
}
