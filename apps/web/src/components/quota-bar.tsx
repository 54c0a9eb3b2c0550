import { Box, HStack, Text } from '@chakra-ui/react';
import { quotaMeter } from './quota-meter';

export interface QuotaBarProps {
  label: string;
  used: number;
  /** -1 = unlimited. */
  limit: number;
  /** The text on the right, e.g. '1,200 / 50k'. */
  valueText: string;
}

/** A usage bar coloured by spec §4: green unlimited, red at the limit, yellow above 80%, else blue. */
export function QuotaBar({ label, used, limit, valueText }: QuotaBarProps) {
  const { colour, widthPercent } = quotaMeter(used, limit);
  return (
    <Box>
      <HStack justify="space-between" mb="1.5" fontSize="sm">
        <Text color="fg.muted">{label}</Text>
        <Text fontWeight="medium">{valueText}</Text>
      </HStack>
      <Box
        role="meter"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(widthPercent)}
        aria-valuetext={valueText}
        h="2"
        bg="bg.muted"
        rounded="full"
        overflow="hidden"
      >
        <Box h="full" w={`${widthPercent}%`} bg={colour} rounded="full" transition="width 0.3s" />
      </Box>
    </Box>
  );
}
