import { Badge, Heading, HStack, Stack } from '@chakra-ui/react';
import { planOf } from '@csv-mapper/domain';
import { SubpageHeader } from '../../components/app-header';
import { AppPage } from '../../components/app-page';
import { PageMeta } from '../../components/page-meta';
import { useProfile } from '../../features/account/api/get-profile';
import { SavedMappingsQuota } from '../../features/account/components/saved-mappings-quota';
import { SavedMappingsList } from '../../features/saved-mappings/components/saved-mappings-list';

/** /saved-mappings: the saved configurations grid with quota, plan badge, banners and locks (spec §2/§4). */
export function SavedMappingsPage() {
  const { data: profile } = useProfile();
  const plan = profile?.plan ?? 'free';
  return (
    <AppPage header={<SubpageHeader persistent={<SavedMappingsQuota />} />}>
      <PageMeta
        title="Saved Mappings"
        description="Your saved mapping configurations."
        path="/saved-mappings"
        robots="noindex, nofollow"
      />
      <Stack gap="6">
        <HStack gap="3" flexWrap="wrap">
          <Heading as="h1" size={{ base: 'xl', md: '2xl' }}>
            Saved Mappings
          </Heading>
          <Badge colorPalette="blue" variant="solid" size="md">
            {planOf(plan).name}
          </Badge>
        </HStack>
        {profile ? <SavedMappingsList plan={plan} limit={profile.planLimits.maxSavedMappings} /> : null}
      </Stack>
    </AppPage>
  );
}
