import { Box, Button, HStack, Heading, Progress, Stack, Text } from '@chakra-ui/react';
import type { Step } from '../hooks/use-mapper-state';

export const STEP_LABELS = ['Upload Template', 'Upload Data', 'Map Columns', 'Download'] as const;

export interface WizardProgressProps {
  step: Step;
  canGoTo: (step: Step) => boolean;
  onGoTo: (step: Step) => void;
}

/** Title, 'Step N of 4', a bar at N/4 and the four step labels (highlighted up to the current step). */
export function WizardProgress({ step, canGoTo, onGoTo }: WizardProgressProps) {
  return (
    <Stack gap="3" mb="6">
      <Heading as="h1" size={{ base: 'xl', md: '2xl' }}>
        Map Your CSV Data
      </Heading>
      <Text color="fg.muted" fontSize="sm" fontWeight="medium">
        Step {step} of 4
      </Text>
      <Progress.Root value={(step / 4) * 100} size="sm" colorPalette="blue" aria-label={`Step ${step} of 4`}>
        <Progress.Track>
          <Progress.Range />
        </Progress.Track>
      </Progress.Root>
      <Box as="nav" aria-label="Wizard steps">
        <HStack as="ol" gap={{ base: '1', md: '2' }} listStyleType="none" flexWrap="wrap">
          {STEP_LABELS.map((label, i) => {
            const n = (i + 1) as Step;
            const active = n <= step;
            return (
              <Box as="li" key={label} flex={{ base: '1 1 45%', md: '1' }}>
                <Button
                  variant={n === step ? 'subtle' : 'ghost'}
                  colorPalette={active ? 'blue' : 'gray'}
                  size="sm"
                  width="full"
                  justifyContent="flex-start"
                  fontWeight={active ? 'semibold' : 'normal'}
                  color={active ? 'blue.fg' : 'fg.muted'}
                  disabled={!canGoTo(n)}
                  aria-current={n === step ? 'step' : undefined}
                  onClick={() => onGoTo(n)}
                >
                  {n}. {label}
                </Button>
              </Box>
            );
          })}
        </HStack>
      </Box>
    </Stack>
  );
}
