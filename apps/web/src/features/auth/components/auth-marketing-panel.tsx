import { Box, Heading, List, Stack, Text } from '@chakra-ui/react';
import { CheckIcon } from '../../../components/icons';

const POINTS = [
  'Drag data columns onto the template your system expects',
  'Dates, numbers, amounts and booleans normalised for you',
  'Save a mapping once, reuse it with every new export',
  'Files processed in memory and never stored',
  'First file free — no credit card needed',
];

/** The wide-screen side panel of /auth. */
export function AuthMarketingPanel() {
  return (
    <Box
      as="aside"
      aria-label="Why CSV Mapper"
      bgGradient="to-br"
      gradientFrom="blue.600"
      gradientTo="blue.900"
      color="white"
      rounded="2xl"
      p="10"
      h="full"
      display="flex"
      alignItems="center"
    >
      <Stack gap="6">
        <Heading as="h2" size="3xl" lineHeight="1.15" letterSpacing="-0.02em">
          Turn any CSV into the import your software expects
        </Heading>
        <Text color="whiteAlpha.800">
          Accountants, online sellers and data teams use CSV Mapper to stop fixing spreadsheets by hand.
        </Text>
        <List.Root variant="plain" gap="3">
          {POINTS.map((p) => (
            <List.Item key={p} alignItems="flex-start">
              <List.Indicator asChild mt="0.5">
                <CheckIcon boxSize="5" color="green.300" />
              </List.Indicator>
              {p}
            </List.Item>
          ))}
        </List.Root>
      </Stack>
    </Box>
  );
}
