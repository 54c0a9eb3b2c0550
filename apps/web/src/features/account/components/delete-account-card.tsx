import { Alert, Button, Card, Field, HStack, List, Stack, Text } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { TrashIcon } from '../../../components/icons';
import { PasswordInput } from '../../../components/password-input';
import { showToast } from '../../../components/toaster';
import { errorDescription } from '../../../lib/api-client';
import { useDeleteAccount } from '../api/delete-account';
import { useProfile } from '../api/get-profile';

const CONSEQUENCES = [
  'Your account and profile will be deleted',
  'Any active subscription will be cancelled',
  'All your saved mappings will be removed',
  'Your usage history will be deleted',
  'This action cannot be undone',
];

const CONFIRM_TEXT =
  'Are you absolutely sure? This will permanently delete your account and cannot be undone.';

/** Spec §4/§5: reveal panel, consequences, password with show/hide, browser confirmation, then '/'. */
export function DeleteAccountCard() {
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const { trigger, isMutating } = useDeleteAccount();
  const navigate = useNavigate();
  const { data: profile } = useProfile();
  // An account holder's team goes with the account: its members lose access (the api asks for the count).
  const membersLosingAccess = profile?.team?.role === 'owner' ? Math.max(0, profile.team.members - 1) : 0;

  function cancel() {
    setOpen(false);
    setPassword('');
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!password.trim()) {
      showToast({
        title: 'Password Required',
        description: 'Please enter your password to confirm account deletion.',
        type: 'error',
      });
      return;
    }
    if (!window.confirm(CONFIRM_TEXT)) return;
    try {
      await trigger(
        membersLosingAccess > 0
          ? { password, confirmMembersLosingAccess: membersLosingAccess }
          : { password },
      );
      showToast({
        title: 'Account Deleted',
        description: 'Your account has been permanently deleted.',
        type: 'success',
      });
      navigate('/', { replace: true });
    } catch (err) {
      showToast({
        title: 'Deletion Failed',
        description: errorDescription(err, 'Failed to delete account'),
        type: 'error',
      });
    }
  }

  return (
    <Card.Root
      aria-labelledby="delete-account-title"
      borderColor="red.200"
      _dark={{ borderColor: 'red.800' }}
    >
      <Card.Header>
        <Card.Title as="h2" id="delete-account-title" color="red.600" _dark={{ color: 'red.400' }}>
          Delete Account
        </Card.Title>
        <Card.Description>Permanently remove your account and all of its data.</Card.Description>
      </Card.Header>
      <Card.Body>
        {!open ? (
          <Button colorPalette="red" variant="outline" alignSelf="flex-start" onClick={() => setOpen(true)}>
            <TrashIcon /> Delete Account
          </Button>
        ) : (
          <Stack as="form" gap="4" onSubmit={onSubmit} aria-label="Confirm account deletion">
            <Alert.Root status="error" variant="subtle">
              <Alert.Indicator />
              <Alert.Content>
                <Alert.Title>Deleting your account will:</Alert.Title>
                <Alert.Description>
                  <List.Root ps="4" mt="1" gap="0.5">
                    {membersLosingAccess > 0 ? (
                      <List.Item fontWeight="semibold" data-testid="members-losing-access">
                        {membersLosingAccess} team member{membersLosingAccess === 1 ? '' : 's'} will lose
                        access to the team’s saved mappings, jobs and settings
                      </List.Item>
                    ) : null}
                    {CONSEQUENCES.map((c) => (
                      <List.Item key={c}>{c}</List.Item>
                    ))}
                  </List.Root>
                </Alert.Description>
              </Alert.Content>
            </Alert.Root>
            <Field.Root required>
              <Field.Label>Enter your password to confirm</Field.Label>
              <PasswordInput
                name="password"
                autoComplete="current-password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                placeholder="Your password"
                autoFocus
              />
            </Field.Root>
            <HStack gap="3" wrap="wrap">
              <Button
                type="submit"
                colorPalette="red"
                disabled={password.length === 0 || isMutating}
                loading={isMutating}
                loadingText="Deleting..."
              >
                Permanently Delete Account
              </Button>
              <Button variant="ghost" onClick={cancel} disabled={isMutating}>
                Cancel
              </Button>
            </HStack>
            <Text fontSize="xs" color="fg.muted">
              You will be asked to confirm once more.
            </Text>
          </Stack>
        )}
      </Card.Body>
    </Card.Root>
  );
}
