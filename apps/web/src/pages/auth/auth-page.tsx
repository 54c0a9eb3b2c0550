import { Box, Card, Container, Grid, Heading, Stack, Tabs, Text } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { BackToHomeLink } from '../../components/back-to-home-link';
import { FullScreenSpinner } from '../../components/full-screen-spinner';
import { Logo } from '../../components/logo';
import { PageMeta } from '../../components/page-meta';
import { AuthMarketingPanel } from '../../features/auth/components/auth-marketing-panel';
import { LoginForm } from '../../features/auth/components/login-form';
import { RegisterForm } from '../../features/auth/components/register-form';
import { useAuth } from '../../features/auth/hooks/use-auth';
import { nextPath } from '../../features/auth/utils/next-path';

type AuthTab = 'login' | 'signup';

/** Sign Up when a link asked for it: router state from app pages, `?tab=signup` from the public pages. */
function initialTab(state: unknown, search: string): AuthTab {
  if (new URLSearchParams(search).get('tab') === 'signup') return 'signup';
  return state && typeof state === 'object' && (state as { tab?: unknown }).tab === 'signup'
    ? 'signup'
    : 'login';
}

/**
 * The page's head tags, in the app and in the prerendered page (auth-static-page.tsx). Indexed (the spec's
 * default robots): people search for the product's log-in and sign-up page, and it holds nothing private.
 */
export const AUTH_META = (
  <PageMeta
    title="Log In or Sign Up"
    description="Log in to CSV Mapper or create a free account to map your CSV files."
    path="/auth"
  />
);

export function AuthPage() {
  const { status } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const [tab, setTab] = useState<AuthTab>(() => initialTab(location.state, location.search));

  useEffect(() => {
    if (status === 'authenticated') navigate(nextPath(location.search) ?? '/dashboard', { replace: true });
  }, [status, navigate, location.search]);

  if (status !== 'unauthenticated') return <FullScreenSpinner />;

  return (
    <>
      {AUTH_META}
      <AuthView tab={tab} onTabChange={setTab} />
    </>
  );
}

/** The page for one tab: the app's, and both tabs of the prerendered page (auth-static-page.tsx). */
export function AuthView({ tab, onTabChange }: { tab: AuthTab; onTabChange: (tab: AuthTab) => void }) {
  return (
    <Box minH="100dvh" bg="bg.subtle">
      <Container maxW="6xl" py={{ base: '6', md: '10' }}>
        <Grid templateColumns={{ base: '1fr', lg: '1fr 1fr' }} gap="10" alignItems="stretch">
          <Stack gap="6" maxW="md" w="full" mx="auto">
            <Stack gap="4">
              <Logo />
              <BackToHomeLink />
            </Stack>
            <Stack gap="1">
              <Heading as="h1" size="2xl" letterSpacing="-0.02em">
                {tab === 'login' ? 'Welcome back' : 'Create your free account'}
              </Heading>
              <Text color="fg.muted">
                {tab === 'login'
                  ? 'Log in to map, save and reuse your CSV mappings.'
                  : 'Your first file is free. No credit card needed.'}
              </Text>
            </Stack>
            <Card.Root>
              <Card.Body>
                <Tabs.Root
                  value={tab}
                  onValueChange={(e) => onTabChange(e.value === 'signup' ? 'signup' : 'login')}
                  variant="enclosed"
                  lazyMount
                  unmountOnExit
                  fitted
                >
                  <Tabs.List mb="6">
                    <Tabs.Trigger value="login">Login</Tabs.Trigger>
                    <Tabs.Trigger value="signup">Sign Up</Tabs.Trigger>
                  </Tabs.List>
                  <Tabs.Content value="login" pt="0">
                    <LoginForm />
                  </Tabs.Content>
                  <Tabs.Content value="signup" pt="0">
                    <RegisterForm />
                  </Tabs.Content>
                </Tabs.Root>
              </Card.Body>
            </Card.Root>
          </Stack>
          <Box hideBelow="lg">
            <AuthMarketingPanel />
          </Box>
        </Grid>
      </Container>
    </Box>
  );
}
