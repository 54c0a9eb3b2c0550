import { HStack, List, Text } from '@chakra-ui/react';
import { PasswordMessages, isCommonPassword, passwordRules } from '@csv-mapper/domain';
import { CheckIcon, CircleCheckIcon, XIcon } from '../../../components/icons';

export interface PasswordRuleChecklistProps {
  password: string;
  /** Sign-up and reset also refuse the most common passwords; login does not. */
  checkCommon?: boolean;
  id?: string;
}

/** The live list of password rules (spec §5); a green tick message replaces it once every rule passes. */
export function PasswordRuleChecklist({ password, checkCommon = true, id }: PasswordRuleChecklistProps) {
  const rules = passwordRules(password);
  const common = checkCommon && password.length > 0 && isCommonPassword(password);
  const allMet = rules.every((r) => r.ok) && !common;

  if (allMet) {
    return (
      <HStack
        id={id}
        gap="2"
        color="green.600"
        fontSize="sm"
        aria-live="polite"
        _dark={{ color: 'green.400' }}
      >
        <CircleCheckIcon boxSize="4" />
        <Text fontWeight="medium">Password meets all requirements</Text>
      </HStack>
    );
  }

  return (
    <List.Root
      id={id}
      variant="plain"
      gap="1"
      fontSize="xs"
      aria-label="Password requirements"
      aria-live="polite"
    >
      {rules.map((r) => (
        <List.Item key={r.key} color={r.ok ? 'green.600' : 'fg.muted'} alignItems="center">
          <List.Indicator asChild>
            {r.ok ? <CheckIcon boxSize="3.5" /> : <XIcon boxSize="3.5" color="fg.subtle" />}
          </List.Indicator>
          <Text as="span">
            {r.message}
            <Text as="span" srOnly>
              {r.ok ? ' (met)' : ' (not met)'}
            </Text>
          </Text>
        </List.Item>
      ))}
      {common ? (
        <List.Item color="red.600" alignItems="center">
          <List.Indicator asChild>
            <XIcon boxSize="3.5" />
          </List.Indicator>
          {PasswordMessages.common}
        </List.Item>
      ) : null}
    </List.Root>
  );
}
