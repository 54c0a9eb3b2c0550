import { Alert, Button, Code, HStack, IconButton } from '@chakra-ui/react';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { CheckIcon, CopyIcon } from './icons';
import { showToast } from './toaster';

/**
 * A secret shown once (a new API key, a webhook signing secret after creating an endpoint or rotating it),
 * with a copy button and an "I have saved it" to dismiss it.
 */
export function SecretNotice({
  title,
  description = 'Copy it now: it will not be shown again.',
  secret,
  what = 'signing secret',
  testId = 'webhook-secret',
  onDone,
}: {
  title: ReactNode;
  description?: string;
  secret: string;
  /** What the secret is, for the copy button's label and the copy-failed hint. */
  what?: string;
  testId?: string;
  onDone: () => void;
}) {
  const [copied, setCopied] = useState(false);

  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
    } catch {
      showToast({
        title: 'Copy failed',
        description: `Select the ${what} and copy it by hand.`,
        type: 'error',
      });
    }
  }

  return (
    <Alert.Root status="success" variant="subtle" alignItems="flex-start">
      <Alert.Indicator />
      <Alert.Content gap="2" minW="0" flex="1">
        <Alert.Title>{title}</Alert.Title>
        <Alert.Description>{description}</Alert.Description>
        <HStack gap="2" w="full">
          <Code
            flex="1"
            minW="0"
            px="2"
            py="1.5"
            fontSize="sm"
            wordBreak="break-all"
            whiteSpace="normal"
            data-testid={testId}
          >
            {secret}
          </Code>
          <IconButton
            aria-label={copied ? 'Copied' : `Copy ${what}`}
            size="sm"
            variant="outline"
            onClick={copy}
          >
            {copied ? <CheckIcon /> : <CopyIcon />}
          </IconButton>
        </HStack>
        <Button size="xs" variant="ghost" alignSelf="flex-start" onClick={onDone}>
          I have saved it
        </Button>
      </Alert.Content>
    </Alert.Root>
  );
}
