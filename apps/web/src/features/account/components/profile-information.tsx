import { Card, DataList, Skeleton, Stack, Text } from '@chakra-ui/react';
import { useProfile } from '../api/get-profile';

/** Username, email and full name (spec §2), with placeholders while loading. */
export function ProfileInformation() {
  const { data: profile, isLoading } = useProfile();
  const fullName = profile ? [profile.firstName, profile.lastName].filter(Boolean).join(' ') : '';

  return (
    <Card.Root aria-labelledby="profile-information-title">
      <Card.Header>
        <Card.Title as="h2" id="profile-information-title">
          Profile Information
        </Card.Title>
        <Card.Description>The details of your account.</Card.Description>
      </Card.Header>
      <Card.Body>
        {isLoading && !profile ? (
          <Stack gap="4" aria-busy="true" aria-label="Loading profile information">
            <Skeleton h="5" w="1/2" />
            <Skeleton h="5" w="2/3" />
            <Skeleton h="5" w="1/3" />
          </Stack>
        ) : !profile ? (
          <Text color="fg.muted">Unable to load profile information.</Text>
        ) : (
          <DataList.Root orientation="horizontal" gap="3">
            <DataList.Item>
              <DataList.ItemLabel>Username</DataList.ItemLabel>
              <DataList.ItemValue fontWeight="medium">{profile.username}</DataList.ItemValue>
            </DataList.Item>
            {profile.email ? (
              <DataList.Item>
                <DataList.ItemLabel>Email</DataList.ItemLabel>
                <DataList.ItemValue fontWeight="medium" wordBreak="break-all">
                  {profile.email}
                </DataList.ItemValue>
              </DataList.Item>
            ) : null}
            {fullName ? (
              <DataList.Item>
                <DataList.ItemLabel>Full name</DataList.ItemLabel>
                <DataList.ItemValue fontWeight="medium">{fullName}</DataList.ItemValue>
              </DataList.Item>
            ) : null}
          </DataList.Root>
        )}
      </Card.Body>
    </Card.Root>
  );
}
