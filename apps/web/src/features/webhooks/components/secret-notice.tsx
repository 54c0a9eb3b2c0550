import { Alert, Button, Code, HStack, IconButton } from '@chakra-ui/react';
import { useState } from 'react';
import { CheckIcon, CopyIcon } from '../../../components/icons';
import { showToast } from '../../../components/toaster';

/** A signing secret shown once (after creating an endpoint or rotating its secret), with a copy button. */
export function SecretNotice({
  title,
  description = 'Copy it now: it will not be shown again.',
  secret,
  onDone,
}: {
  title: string;
  description?: string;
  secret: string;
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
        description: 'Select the secret and copy it by hand.',
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
            data-testid="webhook-secret"
          >
            {secret}
          </Code>
          <IconButton
            aria-label={copied ? 'Copied' : 'Copy signing secret'}
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
