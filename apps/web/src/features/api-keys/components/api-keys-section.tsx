import {
  Badge,
  Box,
  Button,
  Card,
  Code,
  Field,
  HStack,
  Input,
  Skeleton,
  Stack,
  Text,
} from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { KeyIcon, TrashIcon } from '../../../components/icons';
import { SecretNotice } from '../../../components/secret-notice';
import { showToast } from '../../../components/toaster';
import { errorDescription } from '../../../lib/api-client';
import { useCreateApiKey } from '../api/create-api-key';
import { useApiKeys } from '../api/get-api-keys';
import { useRevokeApiKey } from '../api/revoke-api-key';
import type { ApiKeyView, CreatedApiKeyView } from '@csv-mapper/contracts';

const NAME_MAX = 100;
const dateFormat = new Intl.DateTimeFormat('en-GB', { day: '2-digit', month: '2-digit', year: 'numeric' });

function formatDate(iso: string | null): string {
  if (!iso) return 'Never';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? 'Unknown' : dateFormat.format(d);
}

function KeyRow({ apiKey }: { apiKey: ApiKeyView }) {
  const { trigger, isMutating } = useRevokeApiKey();

  async function revoke() {
    if (!window.confirm(`Revoke the key "${apiKey.name}"? Anything using it will stop working immediately.`))
      return;
    try {
      await trigger(apiKey.id);
      showToast({
        title: 'API key revoked',
        description: `“${apiKey.name}” no longer works.`,
        type: 'success',
      });
    } catch (err) {
      showToast({
        title: 'Revoke failed',
        description: errorDescription(err, 'Failed to revoke the API key'),
        type: 'error',
      });
    }
  }

  return (
    <HStack as="li" justify="space-between" gap="3" py="3" borderTopWidth="1px" align="flex-start">
      <Stack gap="1" minW="0">
        <HStack gap="2" wrap="wrap">
          <Text fontWeight="medium" truncate>
            {apiKey.name}
          </Text>
          <Badge variant="outline" fontFamily="mono">
            {apiKey.prefix}…
          </Badge>
        </HStack>
        <Text fontSize="xs" color="fg.muted">
          Created {formatDate(apiKey.createdAt)} · Last used {formatDate(apiKey.lastUsedAt)}
        </Text>
      </Stack>
      <Button
        size="xs"
        variant="outline"
        colorPalette="red"
        onClick={revoke}
        loading={isMutating}
        loadingText="Revoking..."
        aria-label={`Revoke ${apiKey.name}`}
      >
        <TrashIcon /> Revoke
      </Button>
    </HStack>
  );
}

/** Create, list and revoke API keys (plans with API access). A new key is shown once, with a copy button. */
export function ApiKeysSection() {
  const { data: keys, error, isLoading } = useApiKeys();
  const { trigger, isMutating } = useCreateApiKey();
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedApiKeyView | null>(null);

  async function onCreate(e: FormEvent) {
    e.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) {
      setNameError('Please enter a name for the key');
      return;
    }
    setNameError(null);
    try {
      const key = await trigger({ name: trimmed });
      setCreated(key);
      setName('');
    } catch (err) {
      showToast({
        title: 'Key not created',
        description: errorDescription(err, 'Failed to create the API key'),
        type: 'error',
      });
    }
  }

  return (
    <Card.Root aria-labelledby="api-keys-title">
      <Card.Header>
        <HStack gap="2">
          <KeyIcon boxSize="5" color="blue.500" />
          <Card.Title id="api-keys-title">API keys</Card.Title>
        </HStack>
        <Card.Description>
          Send a key as <Code fontSize="xs">Authorization: Bearer &lt;key&gt;</Code> to use the CSV Mapper
          API.
        </Card.Description>
      </Card.Header>
      <Card.Body gap="5">
        {created ? (
          <SecretNotice
            title={<>Your new key “{created.name}”</>}
            secret={created.key}
            what="API key"
            testId="new-api-key"
            onDone={() => setCreated(null)}
          />
        ) : null}

        <Stack
          as="form"
          direction={{ base: 'column', sm: 'row' }}
          gap="3"
          align={{ sm: 'flex-end' }}
          onSubmit={onCreate}
        >
          <Field.Root invalid={Boolean(nameError)} flex="1">
            <Field.Label>Key name</Field.Label>
            <Input
              name="apiKeyName"
              placeholder="e.g. Nightly import"
              value={name}
              maxLength={NAME_MAX}
              onChange={(e) => {
                setName(e.target.value);
                if (nameError) setNameError(null);
              }}
            />
            {nameError ? <Field.ErrorText>{nameError}</Field.ErrorText> : null}
          </Field.Root>
          <Button
            type="submit"
            colorPalette="blue"
            loading={isMutating}
            loadingText="Creating..."
            flexShrink={0}
          >
            Create key
          </Button>
        </Stack>

        <Box>
          {isLoading && !keys ? (
            <Stack gap="3" aria-busy="true" aria-label="Loading API keys">
              <Skeleton h="10" />
              <Skeleton h="10" />
            </Stack>
          ) : error && !keys ? (
            <Text color="fg.muted" fontSize="sm">
              Unable to load API keys.
            </Text>
          ) : !keys || keys.length === 0 ? (
            <Text color="fg.muted" fontSize="sm">
              No API keys yet.
            </Text>
          ) : (
            <Box as="ul" listStyleType="none" aria-label="Your API keys">
              {keys.map((k) => (
                <KeyRow key={k.id} apiKey={k} />
              ))}
            </Box>
          )}
        </Box>
      </Card.Body>
    </Card.Root>
  );
}
