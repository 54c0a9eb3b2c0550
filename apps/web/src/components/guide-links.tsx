import { Button, HStack, Link, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';

const GUIDES = [
  { to: '/csv-converter-online', label: 'CSV Converter Online' },
  { to: '/shopify-csv-upload', label: 'Shopify CSV Upload' },
  { to: '/quickbooks-csv-import', label: 'QuickBooks CSV Import' },
  { to: '/csv-uploader', label: 'CSV Uploader' },
];

/** The call to action of the search-landing pages plus links to the other guides. */
export function GuideCallToAction({
  current,
  ctaLabel = 'Try CSV Mapper Free',
}: {
  current: string;
  ctaLabel?: string;
}) {
  return (
    <Stack gap="5" pt="2">
      <Button asChild colorPalette="blue" size="lg" alignSelf="flex-start">
        <RouterLink to="/auth">{ctaLabel}</RouterLink>
      </Button>
      <Stack gap="2">
        <Text fontSize="sm" fontWeight="semibold" color="fg">
          More guides
        </Text>
        <HStack gap="4" wrap="wrap">
          {GUIDES.filter((g) => g.to !== current).map((g) => (
            <Link key={g.to} asChild color="blue.600" fontSize="sm">
              <RouterLink to={g.to}>{g.label}</RouterLink>
            </Link>
          ))}
        </HStack>
      </Stack>
    </Stack>
  );
}
