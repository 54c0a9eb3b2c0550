import { Alert, Button } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import { QUOTA_WARNING_THRESHOLD, upgradeTextFor } from '@csv-mapper/domain';

/** Spec §4 banners: orange 'Subscription Expired', red 'Mapping limit reached', yellow 'Approaching limit'. */
export function SavedMappingsBanners({ plan, count, limit }: { plan: string; count: number; limit: number }) {
  const upgrade = (
    <Button asChild size="sm" variant="outline" flexShrink={0}>
      <RouterLink to="/profile#plans">{upgradeTextFor(plan)}</RouterLink>
    </Button>
  );
  const banners = [];
  if (plan === 'free' && count > 1) {
    banners.push(
      <Alert.Root key="expired" status="warning" colorPalette="orange" alignItems="center" flexWrap="wrap">
        <Alert.Indicator />
        <Alert.Content flex="1 1 16rem">
          <Alert.Title>Subscription Expired</Alert.Title>
          <Alert.Description>
            Your plan is now Free, which includes 1 saved mapping. Only your oldest mapping can be used; the
            others are locked until you upgrade.
          </Alert.Description>
        </Alert.Content>
        {upgrade}
      </Alert.Root>,
    );
  }
  if (limit !== -1 && count >= limit) {
    banners.push(
      <Alert.Root key="limit" status="error" alignItems="center" flexWrap="wrap">
        <Alert.Indicator />
        <Alert.Content flex="1 1 16rem">
          <Alert.Title>Mapping limit reached</Alert.Title>
          <Alert.Description>
            You are using {count} of {limit} saved mappings. Delete one or upgrade to save more.
          </Alert.Description>
        </Alert.Content>
        {upgrade}
      </Alert.Root>,
    );
  } else if (limit !== -1 && count > limit * QUOTA_WARNING_THRESHOLD) {
    banners.push(
      <Alert.Root
        key="approaching"
        status="warning"
        colorPalette="yellow"
        alignItems="center"
        flexWrap="wrap"
      >
        <Alert.Indicator />
        <Alert.Content flex="1 1 16rem">
          <Alert.Title>Approaching limit</Alert.Title>
          <Alert.Description>
            You are using {count} of {limit} saved mappings.
          </Alert.Description>
        </Alert.Content>
        {upgrade}
      </Alert.Root>,
    );
  }
  return <>{banners}</>;
}
