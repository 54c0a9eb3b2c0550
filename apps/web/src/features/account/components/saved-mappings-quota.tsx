import { Badge } from '@chakra-ui/react';
import { quotaBar } from '@csv-mapper/domain';
import { useProfile } from '../api/get-profile';

const BADGE_PALETTE = { green: 'green', red: 'red', yellow: 'yellow', blue: 'blue' } as const;

/** A compact "saved mappings used / allowed" badge for page headers. */
export function SavedMappingsQuota() {
  const { data: profile } = useProfile();
  if (!profile) return null;
  const used = profile.usage.savedMappings;
  const limit = profile.planLimits.maxSavedMappings;
  const { color } = quotaBar(used, limit);
  const text = `${used} / ${limit === -1 ? 'Unlimited' : limit}`;
  return (
    <Badge
      colorPalette={BADGE_PALETTE[color]}
      variant="subtle"
      size="md"
      aria-label={`Saved mappings: ${text}`}
    >
      Saved mappings: {text}
    </Badge>
  );
}
