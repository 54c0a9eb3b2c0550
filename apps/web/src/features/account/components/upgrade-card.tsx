import { Button, Card, List, Stack, Text } from '@chakra-ui/react';
import { PLANS, upgradeTargetFor, upgradeTextFor } from '@csv-mapper/domain';
import { Link as RouterLink } from 'react-router';
import { CheckIcon, ZapIcon } from '../../../components/icons';
import { useProfile } from '../api/get-profile';

/** Suggests the next plan up with its benefits; the plan choice itself happens on the profile page. */
export function UpgradeCard() {
  const { data: profile } = useProfile();
  if (!profile || profile.plan === 'enterprise') return null;
  const target = PLANS[upgradeTargetFor(profile.plan)];

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
        <Button asChild bg="white" color="blue.700" _hover={{ bg: 'blue.50' }} flexShrink={0}>
          <RouterLink to="/profile#plans">{upgradeTextFor(profile.plan)}</RouterLink>
        </Button>
      </Card.Body>
    </Card.Root>
  );
}
