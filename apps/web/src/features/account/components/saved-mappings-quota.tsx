import { Badge } from '@chakra-ui/react';
import { countUsageText, quotaMeter } from '../../../components/quota-meter';
import { useProfile } from '../api/get-profile';

/** A compact "saved mappings used / allowed" badge for page headers. */
export function SavedMappingsQuota() {
  const { data: profile } = useProfile();
  if (!profile) return null;
  const used = profile.usage.savedMappings;
  const limit = profile.planLimits.maxSavedMappings;
  const { palette } = quotaMeter(used, limit);
  const text = countUsageText(used, limit);
  return (
    <Badge colorPalette={palette} variant="subtle" size="md" aria-label={`Saved mappings: ${text}`}>
      Saved mappings: {text}
    </Badge>
  );
}
