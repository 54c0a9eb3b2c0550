import { Box, Card, Grid, HStack, Heading, Link, LinkBox, LinkOverlay, Stack, Text } from '@chakra-ui/react';
import { PLANS } from '@csv-mapper/domain';
import { useEffect, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import useSWR from 'swr';
import { saveFrameHint, useFrameHandover, useIsFrame } from '../../lib/app-frame';
import { APP_PLACES, AppHeader } from '../../components/app-header';
import { AppPage } from '../../components/app-page';
import { ArrowRightIcon, BookIcon, FolderIcon, HelpIcon, PlusIcon } from '../../components/icons';
import { PageMeta } from '../../components/page-meta';
import { CurrentPlanCard } from '../../features/account/components/current-plan-card';
import { useProfile } from '../../features/account/api/get-profile';
import { UserMenu } from '../../features/auth/components/user-menu';
import { SubscriptionStatus } from '../../features/billing/components/subscription-status';
import { UpgradeCard } from '../../features/billing/components/upgrade-card';
import { BackgroundJobsPanel } from '../../features/jobs/components/background-jobs-panel';
import { RecentBatchesPanel } from '../../features/batches/components/recent-batches-panel';
import { useAuth } from '../../features/auth/hooks/use-auth';
import { useLogOutAction } from '../../features/auth/hooks/use-log-out-action';
import { displayNameOf } from '../../features/auth/utils/display-name';
import { swrKeys } from '../../lib/swr-keys';

function Tile({
  to,
  title,
  description,
  icon,
}: {
  to: string;
  title: string;
  description: string;
  icon: ReactNode;
}) {
  return (
    <LinkBox
      as="article"
      bg="bg"
      borderWidth="1px"
      rounded="xl"
      p="6"
      transition="box-shadow 0.15s, border-color 0.15s"
      _hover={{ shadow: 'md', borderColor: 'blue.300' }}
      _focusWithin={{ shadow: 'md', borderColor: 'blue.400' }}
    >
      <Stack gap="3">
        <Box
          bg="blue.50"
          color="blue.600"
          rounded="lg"
          p="2.5"
          alignSelf="flex-start"
          _dark={{ bg: 'blue.950' }}
        >
          {icon}
        </Box>
        <Heading as="h2" size="md">
          <LinkOverlay asChild>
            <RouterLink to={to}>{title}</RouterLink>
          </LinkOverlay>
        </Heading>
        <Text color="fg.muted" fontSize="sm">
          {description}
        </Text>
        <HStack color="blue.600" fontSize="sm" fontWeight="medium" gap="1" aria-hidden="true">
          <Text>Open</Text>
          <ArrowRightIcon boxSize="4" />
        </HStack>
      </Stack>
    </LinkBox>
  );
}

const META = (
  <PageMeta
    title="Dashboard"
    description="Start a new CSV mapping, reuse a saved one and see your plan."
    path="/dashboard"
    robots="noindex, nofollow"
  />
);

function Greeting({ firstName }: { firstName?: string }) {
  const inFrame = useIsFrame();
  return (
    <Stack gap="1" visibility="visible">
      <Heading
        as="h1"
        size={{ base: '2xl', md: '3xl' }}
        letterSpacing="-0.02em"
        data-frame-greeting={inFrame ? '' : undefined}
      >
        {firstName ? `Welcome, ${firstName}!` : 'Welcome to CSV Mapper'}
      </Heading>
      <Text color="fg.muted">Map a new file or pick up where you left off.</Text>
    </Stack>
  );
}

function Tiles() {
  return (
    <>
      <Tile
        to="/csv-mapper"
        title="Start New Mapping"
        description="Upload a template and a data file, map the columns and download the result."
        icon={<PlusIcon boxSize="5" />}
      />
      <Tile
        to="/saved-mappings"
        title="Saved Mappings"
        description="Reuse a mapping you saved, so a repeat import takes seconds."
        icon={<FolderIcon boxSize="5" />}
      />
    </>
  );
}

const TILE_COLUMNS = { base: '1fr', sm: '1fr 1fr' };
const ROW_COLUMNS = { base: '1fr', lg: '2fr 1fr' };
const SECTION_GAP = { base: '6', md: '8' };

/**
 * The dashboard as the build draws it into /dashboard's HTML (lib/app-frame.tsx), before any answer: the
 * header, the greeting and the tiles where the page shows them, and each plan's upgrade card, the one the
 * shell's boot script picks from the last visit's hint shown (a free plan's when there is none). What
 * needs the answers (the user menu, the plan card, the jobs) is left out; the page shows it all at once
 * when it takes the frame's place.
 */
function DashboardFrame() {
  return (
    <AppPage header={<AppHeader actions={<Box visibility="hidden" w="0" />} menuItems={APP_PLACES} />}>
      {META}
      <Stack gap={SECTION_GAP}>
        <Greeting />
        {Object.values(PLANS).map((p) => (
          <div key={p.key} data-frame-upsell={p.key}>
            <UpgradeCard plan={p.key} />
          </div>
        ))}
        <Grid templateColumns={ROW_COLUMNS} gap="6" alignItems="stretch">
          <Grid templateColumns={TILE_COLUMNS} gap="4">
            <Tiles />
          </Grid>
        </Grid>
      </Stack>
    </AppPage>
  );
}

export function DashboardPage() {
  return useIsFrame() ? <DashboardFrame /> : <Dashboard />;
}

function Dashboard() {
  const { user } = useAuth();
  const { logOut } = useLogOutAction();
  const firstName = user?.firstName?.trim();
  const profileAnswer = useProfile({ refreshOnFocus: true });
  const profile = profileAnswer.data;
  // The jobs panel's list and the upgrade card's prices: they ask for them, this reads the answers.
  const jobs = useSWR(swrKeys.jobs, { revalidateOnMount: false });
  const plans = useSWR(swrKeys.plans, { revalidateOnMount: false });
  const upgradeCard = !!profile && profile.team?.role !== 'member';
  const upgrade = upgradeCard && profile.plan !== 'enterprise';
  // The cards under the greeting change height as the profile (the upgrade card), its prices and the jobs
  // list arrive: they are laid out but not shown until all have answered, so they appear once, in place,
  // instead of pushing each other down (layout shift). The answers are preloaded with the page
  // (scripts/prerender-web.js), so this rarely waits.
  const answered = (r: { data?: unknown; error?: unknown }) => r.data !== undefined || r.error !== undefined;
  const settled = answered(profileAnswer) && answered(jobs) && (!upgrade || answered(plans));
  // Shown in the frame's place once all is in; the next visit's frame is drawn from what shows now.
  useFrameHandover(settled);
  const hintPlan = profile ? (upgrade ? profile.plan : null) : undefined;
  useEffect(() => {
    if (settled && hintPlan !== undefined) saveFrameHint({ name: firstName ?? '', plan: hintPlan });
  }, [settled, hintPlan, firstName]);

  return (
    <AppPage
      header={
        <AppHeader
          actions={<UserMenu />}
          menuLabel={`Signed in as ${displayNameOf(user)}`}
          menuItems={[...APP_PLACES, { label: 'Log Out', onSelect: () => void logOut() }]}
        />
      }
    >
      {META}
      <Stack gap={SECTION_GAP} visibility={settled ? undefined : 'hidden'}>
        <Greeting firstName={firstName} />

        {upgradeCard ? <UpgradeCard plan={profile.plan} /> : null}

        <Grid templateColumns={ROW_COLUMNS} gap="6" alignItems="stretch">
          <Grid templateColumns={TILE_COLUMNS} gap="4">
            <Tiles />
          </Grid>
          <CurrentPlanCard refreshOnFocus>
            {profile?.subscription ? (
              <SubscriptionStatus subscription={profile.subscription} testActions={false} />
            ) : null}
          </CurrentPlanCard>
        </Grid>

        <BackgroundJobsPanel />
        {profile?.planLimits.asyncProcessing ? <RecentBatchesPanel /> : null}

        <Card.Root variant="subtle">
          <Card.Body>
            <Stack direction={{ base: 'column', sm: 'row' }} gap={{ base: '3', sm: '8' }}>
              <Text fontWeight="medium">Need a hand?</Text>
              <Link asChild color="blue.600" fontSize="sm">
                <RouterLink to="/documentation">
                  <BookIcon boxSize="4" /> Read the documentation
                </RouterLink>
              </Link>
              <Link asChild color="blue.600" fontSize="sm">
                <RouterLink to="/help-center">
                  <HelpIcon boxSize="4" /> Visit the Help Center
                </RouterLink>
              </Link>
            </Stack>
          </Card.Body>
        </Card.Root>
      </Stack>
    </AppPage>
  );
}
