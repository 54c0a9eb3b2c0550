import { Box, Grid, Heading, Stack, Text } from '@chakra-ui/react';
import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { SubpageHeader } from '../../components/app-header';
import { AppPage } from '../../components/app-page';
import { PageMeta } from '../../components/page-meta';
import { useProfile } from '../../features/account/api/get-profile';
import { CurrentPlanCard } from '../../features/account/components/current-plan-card';
import { DeleteAccountCard } from '../../features/account/components/delete-account-card';
import { ProfileInformation } from '../../features/account/components/profile-information';
import { SavedMappingsQuota } from '../../features/account/components/saved-mappings-quota';
import { NeedHelpChoosingCard } from '../../features/billing/components/need-help-choosing-card';
import { PlanGrid } from '../../features/billing/components/plan-grid';
import { SubscriptionManagement } from '../../features/billing/components/subscription-management';
import { SubscriptionStatus } from '../../features/billing/components/subscription-status';
import { usePaymentReturn } from '../../features/billing/hooks/use-payment-return';
import { SavedMappingsBanners } from '../../features/saved-mappings/components/saved-mappings-banners';
import { ApiKeysSection } from '../../features/api-keys/components/api-keys-section';
import { WebhooksSection } from '../../features/webhooks/components/webhooks-section';
import { TeamSection } from '../../features/teams/components/team-section';
import { useAuth } from '../../features/auth/hooks/use-auth';

export function ProfilePage() {
  const { data: profile } = useProfile();
  const { user } = useAuth();
  const apiAccess = profile?.planLimits.apiAccess === true;
  const webhookSupport = profile?.planLimits.webhookSupport === true;
  // Billing stays with the team's account holder: members see no payment actions.
  const member = profile?.team?.role === 'member';
  usePaymentReturn();
  useScrollToPlans(Boolean(profile));

  return (
    <AppPage
      header={
        <SubpageHeader
          persistent={
            <Box hideBelow="sm">
              <SavedMappingsQuota />
            </Box>
          }
        />
      }
    >
      <PageMeta
        title="Account Profile"
        description="Your account details, plan and API keys."
        path="/profile"
        robots="noindex, nofollow"
      />
      <Stack gap={{ base: '6', md: '8' }}>
        <Stack gap="1">
          <Heading as="h1" size={{ base: '2xl', md: '3xl' }} letterSpacing="-0.02em">
            Account Profile
          </Heading>
          <Text color="fg.muted">Manage your account details, plan and access.</Text>
          <Box hideFrom="sm" pt="2">
            <SavedMappingsQuota />
          </Box>
        </Stack>

        <Grid templateColumns={{ base: '1fr', lg: '3fr 2fr' }} gap="6" alignItems="start">
          <Stack gap="6" minW="0" gridColumn={{ lg: '1' }} gridRow={{ lg: '1' }}>
            <ProfileInformation />
            <TeamSection currentUserId={user?.id} />
            {apiAccess ? <ApiKeysSection /> : null}
          </Stack>
          {/* Webhooks come next on a phone, and span both columns on wide screens, where the delivery log
              needs the room; minW 0 lets the log scroll in its own box instead of widening the page. */}
          {webhookSupport ? (
            <Box minW="0" gridColumn={{ lg: '1 / -1' }} gridRow={{ lg: '2' }}>
              <WebhooksSection />
            </Box>
          ) : null}
          <Stack gap="6" minW="0" gridColumn={{ lg: '2' }} gridRow={{ lg: '1' }}>
            <CurrentPlanCard>
              {profile?.subscription ? (
                <>
                  <SubscriptionStatus subscription={profile.subscription} />
                  <SubscriptionManagement profile={profile} />
                </>
              ) : null}
            </CurrentPlanCard>
            <DeleteAccountCard />
          </Stack>
        </Grid>

        <Stack as="section" id="plans" aria-label="Plans" gap="6" scrollMarginTop="20">
          {member ? (
            <Text color="fg.muted" data-testid="billing-by-account-holder">
              Your team’s plan ({profile?.plan}) and billing are managed by its account holder.
            </Text>
          ) : profile ? (
            <>
              <SavedMappingsBanners
                plan={profile.plan}
                count={profile.usage.savedMappings}
                limit={profile.planLimits.maxSavedMappings}
              />
              <PlanGrid profile={profile} />
            </>
          ) : null}
          {member ? null : <NeedHelpChoosingCard />}
        </Stack>
      </Stack>
    </AppPage>
  );
}

/** Links to /profile#plans (upgrade buttons elsewhere) land on the plan grid once it has rendered. */
function useScrollToPlans(ready: boolean) {
  const { hash } = useLocation();
  const done = useRef(false);
  useEffect(() => {
    if (!ready || done.current || hash !== '#plans') return;
    done.current = true;
    document.getElementById('plans')?.scrollIntoView({ block: 'start' });
  }, [ready, hash]);
}
