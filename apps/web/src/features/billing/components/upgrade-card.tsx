import { Button, Card, List, Stack, Text } from '@chakra-ui/react';
import { PLANS, upgradeTargetFor, upgradeTextFor } from '@csv-mapper/domain';
import { Link as RouterLink, useNavigate } from 'react-router';
import { useIsFrame } from '../../../lib/app-frame';
import { CheckIcon, ZapIcon } from '../../../components/icons';
import { showToast } from '../../../components/toaster';
import { errorDescription, hasErrorCode } from '../../../lib/api-client';
import { usePlans } from '../api/get-plans';
import { useCreateCheckoutSession } from '../api/subscription';

/**
 * The dashboard's upgrade card (spec §4 upgrade texts and paths): the next plan up with its benefit texts.
 * A free user goes straight to checkout for Pro; others choose on the profile's plan grid, where a paid
 * change is confirmed (and Enterprise is contact-sales).
 */
export function UpgradeCard({ plan }: { plan: string }) {
  const { data: plans } = usePlans();
  const checkout = useCreateCheckoutSession();
  const navigate = useNavigate();
  const inFrame = useIsFrame();
  if (plan === 'enterprise') return null;
  const targetKey = upgradeTargetFor(plan);
  const target = PLANS[targetKey];
  // The build-time frame has no answers: it shows the catalogue's price, which the api's normally is.
  const price = plans?.[targetKey]?.price ?? (inFrame ? target.price : undefined);

  async function startCheckout() {
    try {
      const res = await checkout.trigger('pro');
      window.location.assign(res.url);
    } catch (err) {
      // Already subscribed: the change is made on the plan grid instead.
      if (hasErrorCode(err, 'ALREADY_SUBSCRIBED')) {
        navigate('/profile#plans');
        return;
      }
      showToast({
        title: 'Upgrade failed',
        description: errorDescription(err, 'Failed to start checkout process'),
        type: 'error',
      });
    }
  }

  return (
    <Card.Root
      aria-labelledby="upgrade-title"
      bgGradient="to-br"
      gradientFrom="blue.600"
      gradientTo="blue.800"
      color="white"
      borderWidth="0"
    >
      <Card.Body gap="4" flexDirection={{ base: 'column', md: 'row' }} alignItems={{ md: 'center' }}>
        <Stack gap="2" flex="1">
          <Text id="upgrade-title" fontWeight="bold" fontSize="lg" display="flex" alignItems="center" gap="2">
            <ZapIcon boxSize="5" /> Get more from CSV Mapper with {target.name}
            {price && price !== 'Custom' ? ` (${price})` : ''}
          </Text>
          <List.Root variant="plain" gap="1" fontSize="sm" color="whiteAlpha.900">
            {target.upgradeBenefits.map((b) => (
              <List.Item key={b} alignItems="center">
                <List.Indicator asChild>
                  <CheckIcon boxSize="4" />
                </List.Indicator>
                {b}
              </List.Item>
            ))}
          </List.Root>
        </Stack>
        {plan === 'free' ? (
          <Button
            bg="white"
            color="blue.700"
            _hover={{ bg: 'blue.50' }}
            flexShrink={0}
            loading={checkout.isMutating}
            loadingText="Upgrading..."
            onClick={() => void startCheckout()}
          >
            {upgradeTextFor(plan)}
          </Button>
        ) : (
          <Button asChild bg="white" color="blue.700" _hover={{ bg: 'blue.50' }} flexShrink={0}>
            <RouterLink to="/profile#plans">{upgradeTextFor(plan)}</RouterLink>
          </Button>
        )}
      </Card.Body>
    </Card.Root>
  );
}
