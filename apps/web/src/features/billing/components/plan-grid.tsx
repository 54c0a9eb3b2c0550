import { Badge, Button, Card, Heading, List, SimpleGrid, Skeleton, Stack, Text } from '@chakra-ui/react';
import type { PaidPlanKey, PlanCatalogueEntry } from '@csv-mapper/contracts';
import { PLAN_KEYS, SALES_EMAIL, type PlanKey } from '@csv-mapper/domain';
import { useState } from 'react';
import { CheckIcon, MailIcon, XIcon } from '../../../components/icons';
import { showToast } from '../../../components/toaster';
import { errorDescription } from '../../../lib/api-client';
import { usePlans } from '../api/get-plans';
import { useUpgradePlan } from '../api/subscription';
import type { BillingProfile } from '../utils/billing-profile';
import { planActionFor, type PlanAction } from '../utils/plan-actions';
import { ConfirmPlanChangeDialog, type PlanChange } from './confirm-plan-change-dialog';

const SALES_HREF = `mailto:${SALES_EMAIL}?subject=${encodeURIComponent('Enterprise plan enquiry')}`;

/**
 * Spec §2/§4 Choose Your Plan: the four plans from GET /api/plans with the actions the current plan allows.
 * pro/business go through the Confirm Plan Change dialog; a change to free is requested directly; an
 * answer carrying a checkout url sends the browser there.
 */
export function PlanGrid({ profile }: { profile: BillingProfile }) {
  const { data: plans, error } = usePlans();
  const upgrade = useUpgradePlan();
  const [change, setChange] = useState<PlanChange | null>(null);
  const [directTarget, setDirectTarget] = useState<PlanKey | null>(null);

  async function request(plan: 'free' | PaidPlanKey) {
    try {
      const res = await upgrade.trigger(plan);
      if (!res.success && res.url) {
        window.location.assign(res.url);
        return;
      }
      setChange(null);
      showToast({
        title: res.effectiveAt ? 'Plan Change Scheduled' : 'Plan Updated',
        description: res.message,
        type: 'success',
      });
    } catch (err) {
      setChange(null);
      showToast({
        title: 'Upgrade Failed',
        description: errorDescription(err, 'Failed to change plan'),
        type: 'error',
      });
    }
  }

  async function requestDirect(plan: 'free') {
    setDirectTarget(plan);
    try {
      await request(plan);
    } finally {
      setDirectTarget(null);
    }
  }

  function choose(target: PlanCatalogueEntry) {
    if (target.key !== 'pro' && target.key !== 'business') return;
    const current = plans?.[profile.plan as PlanKey] ?? plans?.free;
    setChange({
      planKey: target.key,
      planName: target.name,
      currentPrice: current?.price ?? '',
      newPrice: target.price,
      fromFree: profile.plan === 'free',
    });
  }

  return (
    <Stack gap="4">
      <Stack gap="1">
        <Heading as="h2" size="xl" id="choose-plan-title">
          Choose Your Plan
        </Heading>
        <Text color="fg.muted">Monthly plans in GBP. Upgrade, change or cancel at any time.</Text>
      </Stack>
      {!plans ? (
        error ? (
          <Text color="fg.muted">Unable to load the plans. Please refresh the page.</Text>
        ) : (
          <SimpleGrid columns={{ base: 1, md: 2, lg: 4 }} gap="4" aria-busy="true" aria-label="Loading plans">
            {PLAN_KEYS.map((k) => (
              <Skeleton key={k} h="96" rounded="xl" />
            ))}
          </SimpleGrid>
        )
      ) : (
        <SimpleGrid columns={{ base: 1, md: 2, lg: 4 }} gap="4" aria-labelledby="choose-plan-title">
          {PLAN_KEYS.filter((k) => plans[k]).map((k) => (
            <PlanCard
              key={k}
              plan={plans[k]}
              action={planActionFor(profile.plan, k, profile.subscription)}
              busy={directTarget === k}
              disabled={upgrade.isMutating}
              onChoose={() => (k === 'free' ? void requestDirect('free') : choose(plans[k]))}
            />
          ))}
        </SimpleGrid>
      )}
      <ConfirmPlanChangeDialog
        change={change}
        busy={upgrade.isMutating}
        onClose={() => setChange(null)}
        onConfirm={() => change && void request(change.planKey)}
      />
    </Stack>
  );
}

function PlanCard({
  plan,
  action,
  busy,
  disabled,
  onChoose,
}: {
  plan: PlanCatalogueEntry;
  action: PlanAction;
  busy: boolean;
  disabled: boolean;
  onChoose: () => void;
}) {
  const current = action.kind === 'current';
  const [amount, period] = plan.price.split('/');
  return (
    <Card.Root
      data-testid={`plan-card-${plan.key}`}
      aria-label={`${plan.name} plan`}
      borderWidth={current ? '2px' : '1px'}
      borderColor={current ? 'blue.500' : undefined}
    >
      <Card.Header gap="2">
        <Stack direction="row" justify="space-between" align="center" gap="2">
          <Heading as="h3" size="lg">
            {plan.name}
          </Heading>
          {current ? (
            <Badge colorPalette="blue" variant="solid">
              Current Plan
            </Badge>
          ) : null}
        </Stack>
        <Text>
          <Text as="span" fontSize="3xl" fontWeight="bold" letterSpacing="-0.02em">
            {amount}
          </Text>
          {period ? (
            <Text as="span" color="fg.muted">
              {' '}
              / {period}
            </Text>
          ) : null}
        </Text>
      </Card.Header>
      <Card.Body gap="4">
        <List.Root variant="plain" gap="1.5" fontSize="sm">
          {plan.features.map((f) => (
            <List.Item key={f} alignItems="flex-start">
              <List.Indicator asChild color="green.600" mt="0.5">
                <CheckIcon boxSize="4" />
              </List.Indicator>
              {f}
            </List.Item>
          ))}
        </List.Root>
        {plan.restrictions?.length ? (
          <List.Root variant="plain" gap="1.5" fontSize="sm" color="fg.muted">
            {plan.restrictions.map((r) => (
              <List.Item key={r} alignItems="flex-start">
                <List.Indicator asChild color="fg.subtle" mt="0.5">
                  <XIcon boxSize="4" />
                </List.Indicator>
                {r}
              </List.Item>
            ))}
          </List.Root>
        ) : null}
      </Card.Body>
      <Card.Footer>
        <PlanActionButton action={action} busy={busy} disabled={disabled} onChoose={onChoose} />
      </Card.Footer>
    </Card.Root>
  );
}

function PlanActionButton({
  action,
  busy,
  disabled,
  onChoose,
}: {
  action: PlanAction;
  busy: boolean;
  disabled: boolean;
  onChoose: () => void;
}) {
  switch (action.kind) {
    case 'current':
      return (
        <Button w="full" variant="subtle" disabled>
          Current Plan
        </Button>
      );
    case 'contact':
      return (
        <Button asChild w="full" variant="outline">
          <a href={SALES_HREF}>
            <MailIcon /> Contact Sales
          </a>
        </Button>
      );
    case 'scheduled':
      return (
        <Button w="full" variant="subtle" disabled>
          {action.label}
        </Button>
      );
    case 'direct':
      return (
        <Button
          w="full"
          variant="outline"
          loading={busy}
          loadingText="Upgrading..."
          disabled={disabled}
          onClick={onChoose}
        >
          {action.label}
        </Button>
      );
    case 'confirm':
      return (
        <Button
          w="full"
          colorPalette="blue"
          variant={action.label.startsWith('Upgrade') ? 'solid' : 'outline'}
          disabled={disabled}
          onClick={onChoose}
        >
          {action.label}
        </Button>
      );
  }
}
