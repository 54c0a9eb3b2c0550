import { ApiExcludeEndpoint, ApiExtraModels, ApiOkResponse, getSchemaPath } from '@nestjs/swagger';
import {
  PlanCatalogueEntry,
  PlanRequest,
  type CheckoutResponse,
  type MessageResponse,
} from '@csv-mapper/contracts';
import { Body, Controller, Get, Headers, HttpCode, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { RawBodyRequest } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AuthGuard } from '../auth/auth.guard';
import type { AuthUser } from '../auth/auth-user';
import { CsrfExempt } from '../auth/csrf-exempt.decorator';
import { CurrentUser } from '../auth/current-user.decorator';
import { AccountHolderOnly } from '../auth/team-access.decorator';
import { ThrottleService } from '../auth/throttle.service';
import { BillingWebhookService } from './billing-webhook.service';
import { BillingService, planCatalogue } from './billing.service';

/** Plans, checkout, plan changes, cancel/reactivate/sync (spec §7) and the provider's webhook. */
@Controller()
@AccountHolderOnly() // billing stays with the account holder: members never reach payment actions
export class BillingController {
  constructor(
    private readonly billing: BillingService,
    private readonly webhooks: BillingWebhookService,
    private readonly throttle: ThrottleService,
  ) {}

  /** The plan catalogue (public, no authentication): prices, features and limits per plan */
  @Get('plans')
  @ApiExtraModels(PlanCatalogueEntry)
  @ApiOkResponse({
    description: 'Keyed by plan: free, pro, business, enterprise',
    schema: { type: 'object', additionalProperties: { $ref: getSchemaPath(PlanCatalogueEntry) } },
  })
  plans() {
    return planCatalogue();
  }

  /** Start a checkout for a paid plan (answers the payment page URL) */
  @Post('create-checkout-session')
  @HttpCode(200)
  @UseGuards(AuthGuard)
  async checkout(
    @CurrentUser() user: AuthUser,
    @Body() body: PlanRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<CheckoutResponse> {
    await this.throttle.consume(`checkout:${user.id}`, 10, 600, res, 'Too many checkout attempts.');
    return this.billing.checkout(user.id, body.plan);
  }

  /** Change plan: upgrades now, downgrades at the end of the period */
  @Post('user/upgrade-plan')
  @HttpCode(200)
  @UseGuards(AuthGuard)
  async upgrade(
    @CurrentUser() user: AuthUser,
    @Body() body: PlanRequest,
    @Res({ passthrough: true }) res: Response,
  ) {
    await this.throttle.consume(`checkout:${user.id}`, 10, 600, res, 'Too many plan changes.');
    return this.billing.upgradePlan(user.id, body.plan);
  }

  /** Cancel the subscription at the end of the period */
  @Post('cancel-subscription')
  @HttpCode(200)
  @UseGuards(AuthGuard)
  cancel(@CurrentUser() user: AuthUser): Promise<MessageResponse> {
    return this.billing.cancel(user.id);
  }

  /** Keep a subscription that was set to cancel */
  @Post('reactivate-subscription')
  @HttpCode(200)
  @UseGuards(AuthGuard)
  reactivate(@CurrentUser() user: AuthUser): Promise<MessageResponse> {
    return this.billing.reactivate(user.id);
  }

  /** Read the subscription back from the payment provider */
  @Post('sync-subscription-status')
  @HttpCode(200)
  @UseGuards(AuthGuard)
  sync(@CurrentUser() user: AuthUser) {
    return this.billing.sync(user.id);
  }

  /** Called by Stripe (or the simulated provider): no cookie, so no CSRF; the signature is the check. */
  @Post('billing/webhook')
  @ApiExcludeEndpoint()
  @HttpCode(200)
  @CsrfExempt()
  webhook(@Req() req: RawBodyRequest<Request>, @Headers('stripe-signature') signature: string | undefined) {
    return this.webhooks.handle(req.rawBody, signature);
  }
}
