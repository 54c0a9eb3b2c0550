import { Alert, Button, Card, Heading, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router';
import { CenteredPage } from '../../components/centered-page';
import { FullScreenSpinner } from '../../components/full-screen-spinner';
import { PageMeta } from '../../components/page-meta';
import { showToast } from '../../components/toaster';
import { useAuth } from '../../features/auth/hooks/use-auth';
import { useAcceptInvitation } from '../../features/teams/api/team';
import { errorDescription } from '../../lib/api-client';

/**
 * The invitation link's page. Signed out: sign in or create an account, then come back here. Signed in:
 * join. It says nothing about whether the invited address has an account.
 */
export function TeamJoinPage() {
  const { status } = useAuth();
  const location = useLocation();
  const navigate = useNavigate();
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const accept = useAcceptInvitation();
  const [problem, setProblem] = useState<string | null>(null);
  const back = encodeURIComponent(`/team/join?token=${encodeURIComponent(token)}`);

  async function join() {
    setProblem(null);
    try {
      await accept.trigger({ token });
      showToast({
        title: 'You joined the team',
        description: 'Its saved mappings are yours to use now.',
        type: 'success',
      });
      navigate('/saved-mappings', { replace: true });
    } catch (err) {
      setProblem(errorDescription(err, 'The invitation could not be accepted.'));
    }
  }

  if (status === 'loading') return <FullScreenSpinner />;
  return (
    <CenteredPage>
      <PageMeta
        title="Join a team"
        description="Accept an invitation to a CSV Mapper team."
        path="/team/join"
        robots="noindex, nofollow"
      />
      <Card.Root w="full" maxW="md" mx="auto">
        <Card.Body>
          <Stack gap="4">
            <Heading as="h1" size="xl">
              Join a team on CSV Mapper
            </Heading>
            <Text color="fg.muted">
              You were invited to a team: its members share saved mappings, jobs and monthly rows. The link
              works once and for 7 days.
            </Text>
            {!token ? (
              <Alert.Root status="error">
                <Alert.Indicator />
                <Alert.Description>
                  This link has no invitation in it. Open the link from the email again.
                </Alert.Description>
              </Alert.Root>
            ) : status === 'authenticated' ? (
              <>
                {problem ? (
                  <Alert.Root status="error" data-testid="join-problem">
                    <Alert.Indicator />
                    <Alert.Description>{problem}</Alert.Description>
                  </Alert.Root>
                ) : null}
                <Button
                  colorPalette="blue"
                  onClick={join}
                  loading={accept.isMutating}
                  loadingText="Joining..."
                >
                  Join the team
                </Button>
              </>
            ) : (
              <Stack gap="3">
                <Text>Sign in, or create a free account, to join.</Text>
                <Button asChild colorPalette="blue">
                  <RouterLink to={`/auth?next=${back}`}>Sign in to join</RouterLink>
                </Button>
                <Button asChild variant="outline">
                  <RouterLink to={`/auth?tab=signup&next=${back}`}>Create an account to join</RouterLink>
                </Button>
              </Stack>
            )}
          </Stack>
        </Card.Body>
      </Card.Root>
    </CenteredPage>
  );
}
