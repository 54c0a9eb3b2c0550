import { Box, Grid, Heading, Stack, Text } from '@chakra-ui/react';
import { AppHeader } from '../../components/app-header';
import { AppPage } from '../../components/app-page';
import { PageMeta } from '../../components/page-meta';
import { useProfile } from '../../features/account/api/get-profile';
import { CurrentPlanCard } from '../../features/account/components/current-plan-card';
import { DeleteAccountCard } from '../../features/account/components/delete-account-card';
import { ProfileInformation } from '../../features/account/components/profile-information';
import { SavedMappingsQuota } from '../../features/account/components/saved-mappings-quota';
import { ApiKeysSection } from '../../features/api-keys/components/api-keys-section';
import { WebhooksSection } from '../../features/webhooks/components/webhooks-section';

export function ProfilePage() {
  const { data: profile } = useProfile();
  const apiAccess = profile?.planLimits.apiAccess === true;
  const webhookSupport = profile?.planLimits.webhookSupport === true;

  return (
    <AppPage
      header={
        <AppHeader
          back={{ to: '/dashboard', label: 'Back to Dashboard' }}
          persistent={
            <Box hideBelow="sm">
              <SavedMappingsQuota />
            </Box>
          }
          menuItems={[
            { label: 'Dashboard', to: '/dashboard' },
            { label: 'Start New Mapping', to: '/csv-mapper' },
            { label: 'Saved Mappings', to: '/saved-mappings' },
            { label: 'Profile', to: '/profile' },
          ]}
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
          <Stack gap="6">
            <ProfileInformation />
            {apiAccess ? <ApiKeysSection /> : null}
            {webhookSupport ? <WebhooksSection /> : null}
          </Stack>
          <Stack gap="6">
            <CurrentPlanCard />
            <DeleteAccountCard />
          </Stack>
        </Grid>

        {/*
          Billing slot: the billing issue mounts the "Choose Your Plan" grid, the "Need Help Choosing" card,
          subscription management and the Confirm Plan Change dialog here (anchor #plans, linked from the
          dashboard's upgrade card). Nothing plan-changing is rendered until then.
        */}
        <Box as="section" id="plans" aria-label="Plans" />
      </Stack>
    </AppPage>
  );
}
