import { Alert, Badge, Button, Card, DataList, Link, Skeleton, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { ShieldIcon } from '../../../components/icons';
import { showToast } from '../../../components/toaster';
import { errorDescription, hasErrorCode } from '../../../lib/api-client';
import { usePlans } from '../api/get-plans';
import { useCompleteSimulatedSession, useSimulatedSession } from '../api/simulated-checkout';
import type { CompleteCheckoutRequest } from '@csv-mapper/contracts';
import { exactPrice } from '../utils/billing-format';

const CLOSED_TEXT = {
  complete: 'This checkout has already been completed.',
  expired: 'This checkout session has expired. Start again from your profile.',
} as const;

/**
 * The simulated provider's stand-in for Stripe Checkout: what is being bought, and the three outcomes a
 * real checkout can have (paid, card declined, cancelled). The api answers where to go next.
 */
export function SimulatedCheckout({ sessionId }: { sessionId: string }) {
  const { data: session, error, isLoading } = useSimulatedSession(sessionId);
  const { data: plans } = usePlans();
  const complete = useCompleteSimulatedSession(sessionId);
  const [pending, setPending] = useState<CompleteCheckoutRequest['outcome'] | null>(null);
  const navigate = useNavigate();

  async function finish(outcome: CompleteCheckoutRequest['outcome']) {
    setPending(outcome);
    try {
      const { redirectUrl } = await complete.trigger(outcome);
      if (redirectUrl.startsWith('/')) navigate(redirectUrl, { replace: true });
      else window.location.assign(redirectUrl);
    } catch (err) {
      setPending(null);
      showToast({
        title: 'Checkout failed',
        description: errorDescription(err, 'Failed to complete the checkout'),
        type: 'error',
      });
    }
  }

  if (isLoading && !session) {
    return (
      <Card.Root aria-busy="true" aria-label="Loading checkout">
        <Card.Body gap="4">
          <Skeleton h="6" w="1/2" />
          <Skeleton h="4" />
          <Skeleton h="4" />
          <Skeleton h="10" />
        </Card.Body>
      </Card.Root>
    );
  }
  if (!session) {
    return (
      <Alert.Root status="error">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>Checkout session not found</Alert.Title>
          <Alert.Description>
            {hasErrorCode(error, 'NOT_FOUND')
              ? 'This checkout link is not valid for your account.'
              : errorDescription(error, 'The checkout could not be loaded.')}{' '}
            <Link asChild fontWeight="medium">
              <RouterLink to="/profile#plans">Back to plans</RouterLink>
            </Link>
          </Alert.Description>
        </Alert.Content>
      </Alert.Root>
    );
  }

  const plan = plans?.[session.plan];
  const payText = plan ? `Pay ${exactPrice(plan)}` : `Pay ${session.price}`;
  const busy = pending !== null;

  return (
    <Card.Root aria-labelledby="checkout-title">
      <Card.Header gap="2">
        <Stack direction="row" justify="space-between" align="center" gap="2" flexWrap="wrap">
          <Card.Title as="h1" id="checkout-title" fontSize="xl">
            Subscribe to {session.planName}
          </Card.Title>
          <Badge colorPalette="orange" variant="subtle">
            Test mode
          </Badge>
        </Stack>
        <Card.Description>
          Simulated checkout: no card is charged. Choose how the payment should turn out.
        </Card.Description>
      </Card.Header>
      <Card.Body gap="6">
        <DataList.Root orientation="horizontal" gap="3">
          <DataList.Item>
            <DataList.ItemLabel>Plan</DataList.ItemLabel>
            <DataList.ItemValue fontWeight="medium">{session.planName}</DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>Price</DataList.ItemLabel>
            <DataList.ItemValue fontWeight="medium">{plan?.price ?? session.price}</DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>Email</DataList.ItemLabel>
            <DataList.ItemValue fontWeight="medium" wordBreak="break-all">
              {session.email}
            </DataList.ItemValue>
          </DataList.Item>
        </DataList.Root>
        {session.status !== 'open' ? (
          <Alert.Root status="info">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>{CLOSED_TEXT[session.status]}</Alert.Title>
              <Alert.Description>
                <Link asChild fontWeight="medium">
                  <RouterLink to="/profile">Go to your profile</RouterLink>
                </Link>
              </Alert.Description>
            </Alert.Content>
          </Alert.Root>
        ) : (
          <Stack gap="3">
            <Button
              colorPalette="blue"
              size="lg"
              disabled={busy}
              loading={pending === 'pay'}
              loadingText="Processing..."
              onClick={() => void finish('pay')}
            >
              {payText}
            </Button>
            <Stack direction={{ base: 'column', sm: 'row' }} gap="3">
              <Button
                flex="1"
                variant="outline"
                colorPalette="red"
                disabled={busy}
                loading={pending === 'decline'}
                loadingText="Processing..."
                onClick={() => void finish('decline')}
              >
                Simulate declined card
              </Button>
              <Button
                flex="1"
                variant="ghost"
                disabled={busy}
                loading={pending === 'cancel'}
                loadingText="Processing..."
                onClick={() => void finish('cancel')}
              >
                Cancel
              </Button>
            </Stack>
          </Stack>
        )}
        <Text fontSize="xs" color="fg.muted" display="flex" alignItems="center" gap="1.5">
          <ShieldIcon boxSize="3.5" /> With Stripe configured, this step is Stripe&apos;s own checkout page.
        </Text>
      </Card.Body>
    </Card.Root>
  );
}
