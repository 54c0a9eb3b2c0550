import { HStack, Text } from '@chakra-ui/react';

export function LogoMark() {
  return (
    <svg width="28" height="28" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="7" fill="#2563eb" />
      <g fill="none" stroke="#fff" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round">
        <path d="M7 10h7M7 16h7M7 22h7M18 10h7M18 16h7M18 22h7" />
        <path d="M14.5 10l3 6M14.5 22l3-6" opacity=".7" />
      </g>
    </svg>
  );
}

export function LogoLabel() {
  return (
    <HStack gap="2">
      <LogoMark />
      <Text fontWeight="bold" fontSize="lg" color="fg" letterSpacing="-0.01em">
        CSV Mapper
      </Text>
    </HStack>
  );
}
