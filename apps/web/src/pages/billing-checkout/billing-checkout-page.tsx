import { Box, Container, Flex, HStack } from '@chakra-ui/react';
import { useParams } from 'react-router';
import { Logo } from '../../components/logo';
import { PageMeta } from '../../components/page-meta';
import { SimulatedCheckout } from '../../features/billing/components/simulated-checkout';

/** /billing/checkout/:sessionId — the simulated provider's checkout page (development and tests). */
export function BillingCheckoutPage() {
  const { sessionId = '' } = useParams();
  return (
    <Flex direction="column" minH="100dvh" bg="bg.subtle">
      <PageMeta
        title="Checkout"
        description="Complete your CSV Mapper subscription."
        path="/billing/checkout"
        robots="noindex, nofollow"
      />
      <Box as="header" bg="bg" borderBottomWidth="1px">
        <Container maxW="6xl" py="3">
          <HStack>
            <Logo to="/dashboard" />
          </HStack>
        </Container>
      </Box>
      <Box as="main" id="main" flex="1">
        <Container maxW="lg" py={{ base: '6', md: '16' }}>
          <SimulatedCheckout sessionId={sessionId} />
        </Container>
      </Box>
    </Flex>
  );
}
