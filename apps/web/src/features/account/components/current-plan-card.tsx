import { Badge, Card, HStack, Separator, Skeleton, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { formatPlanFileSize, formatRowCount, planOf } from '@csv-mapper/domain';
import { CrownIcon } from '../../../components/icons';
import { QuotaBar } from '../../../components/quota-bar';
import { countUsageText, rowsUsageText } from '../../../components/quota-meter';
import { useProfile } from '../api/get-profile';

/**
 * The user's plan, its price and limits, and this month's usage. `children` (the subscription's state and
 * management, from the billing feature) follow the limits once the profile has loaded.
 */
export function CurrentPlanCard({
  refreshOnFocus = false,
  children,
}: {
  refreshOnFocus?: boolean;
  children?: ReactNode;
}) {
  const { data: profile, error, isLoading } = useProfile({ refreshOnFocus });
  const plan = profile ? planOf(profile.plan) : null;

  return (
    <Card.Root aria-labelledby="current-plan-title" h="full">
      <Card.Header>
        <HStack justify="space-between" align="flex-start">
          <Stack gap="1">
            <Card.Title as="h2" id="current-plan-title">
              Current Plan
            </Card.Title>
            <Card.Description>Your limits and this month&apos;s usage.</Card.Description>
          </Stack>
          <CrownIcon boxSize="5" color="blue.500" />
        </HStack>
      </Card.Header>
      <Card.Body gap="5">
        {isLoading && !profile ? (
          <Stack gap="4" aria-busy="true" aria-label="Loading plan">
            <Skeleton h="7" w="40" />
            <Skeleton h="4" />
            <Skeleton h="4" />
          </Stack>
        ) : !profile || !plan ? (
          <Text color="fg.muted">
            {error ? 'Unable to load plan information.' : 'No plan information yet.'}
          </Text>
        ) : (
          <>
            <HStack gap="3" wrap="wrap">
              <Badge colorPalette={profile.plan === 'free' ? 'gray' : 'blue'} size="lg" variant="solid">
                {plan.name}
              </Badge>
              <Text fontWeight="semibold">{plan.price}</Text>
            </HStack>
            <Stack gap="4">
              <QuotaBar
                label="Rows this month"
                used={profile.monthlyUsage.used}
                limit={profile.monthlyUsage.limit}
                valueText={rowsUsageText(profile.monthlyUsage.used, profile.monthlyUsage.limit)}
              />
              <QuotaBar
                label="Saved mappings"
                used={profile.usage.savedMappings}
                limit={profile.planLimits.maxSavedMappings}
                valueText={countUsageText(profile.usage.savedMappings, profile.planLimits.maxSavedMappings)}
              />
            </Stack>
            <HStack gap="6" fontSize="sm" wrap="wrap">
              <Text>
                <Text as="span" color="fg.muted">
                  File size:{' '}
                </Text>
                <Text as="span" fontWeight="medium">
                  {formatPlanFileSize(profile.planLimits.maxFileSize)}
                </Text>
              </Text>
              <Text>
                <Text as="span" color="fg.muted">
                  Rows per file:{' '}
                </Text>
                <Text as="span" fontWeight="medium">
                  {formatRowCount(profile.planLimits.maxRowsPerFile)}
                </Text>
              </Text>
            </HStack>
            {children ? (
              <>
                <Separator />
                <Stack gap="4">{children}</Stack>
              </>
            ) : null}
          </>
        )}
      </Card.Body>
    </Card.Root>
  );
}
