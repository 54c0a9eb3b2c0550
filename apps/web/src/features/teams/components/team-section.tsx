import { Badge, Box, Button, Card, Field, HStack, Input, Skeleton, Stack, Text } from '@chakra-ui/react';
import type { TeamInvitationView, TeamMemberView, TeamView } from '@csv-mapper/contracts';
import { seatLimitMessage, type PlanKey } from '@csv-mapper/domain';
import { useState, type FormEvent } from 'react';
import { TrashIcon } from '../../../components/icons';
import { showToast } from '../../../components/toaster';
import { errorDescription } from '../../../lib/api-client';
import { useInviteMember, useLeaveTeam, useRemoveMember, useRevokeInvitation, useTeam } from '../api/team';
import { TeamRecentRuns } from './team-recent-runs';

const dateFormat = new Intl.DateTimeFormat('en-GB', { day: '2-digit', month: 'short', year: 'numeric' });
const formatDate = (iso: string) => dateFormat.format(new Date(iso));

function seatsText(team: TeamView): string {
  return team.seatsAllowed < 0
    ? `${team.seatsUsed} seat${team.seatsUsed === 1 ? '' : 's'} used (unlimited)`
    : `${team.seatsUsed} of ${team.seatsAllowed} seat${team.seatsAllowed === 1 ? '' : 's'} used`;
}

/** Every seat is taken by a member or a pending invitation: a new invitation would be refused. */
function seatsFull(team: TeamView): boolean {
  return team.seatsAllowed >= 0 && team.seatsUsed + team.invitations.length >= team.seatsAllowed;
}

function MemberRow({ member, canRemove }: { member: TeamMemberView; canRemove: boolean }) {
  const { trigger, isMutating } = useRemoveMember();
  async function remove() {
    if (!window.confirm(`Remove ${member.username} from the team? Their access ends immediately.`)) return;
    try {
      await trigger(member.userId);
      showToast({
        title: 'Member removed',
        description: `${member.username} no longer has access.`,
        type: 'success',
      });
    } catch (err) {
      showToast({
        title: 'Remove failed',
        description: errorDescription(err, 'Failed to remove'),
        type: 'error',
      });
    }
  }
  return (
    <HStack as="li" justify="space-between" gap="3" py="3" borderTopWidth="1px" align="flex-start">
      <Stack gap="0.5" minW="0">
        <HStack gap="2" wrap="wrap">
          <Text fontWeight="medium" truncate>
            {member.username}
          </Text>
          {member.role === 'owner' ? <Badge colorPalette="blue">Account holder</Badge> : null}
          {member.readOnly ? <Badge colorPalette="orange">Read-only</Badge> : null}
        </HStack>
        <Text fontSize="xs" color="fg.muted" truncate>
          {member.email} · joined {formatDate(member.joinedAt)}
        </Text>
      </Stack>
      {canRemove && member.role !== 'owner' ? (
        <Button
          size="xs"
          variant="outline"
          colorPalette="red"
          onClick={remove}
          loading={isMutating}
          aria-label={`Remove ${member.username}`}
        >
          <TrashIcon /> Remove
        </Button>
      ) : null}
    </HStack>
  );
}

function InvitationRow({ invitation }: { invitation: TeamInvitationView }) {
  const { trigger, isMutating } = useRevokeInvitation();
  async function revoke() {
    try {
      await trigger(invitation.id);
      showToast({
        title: 'Invitation revoked',
        description: `The link sent to ${invitation.email} no longer works.`,
        type: 'success',
      });
    } catch (err) {
      showToast({
        title: 'Revoke failed',
        description: errorDescription(err, 'Failed to revoke'),
        type: 'error',
      });
    }
  }
  return (
    <HStack as="li" justify="space-between" gap="3" py="3" borderTopWidth="1px" align="flex-start">
      <Stack gap="0.5" minW="0">
        <Text fontWeight="medium" truncate>
          {invitation.email}
        </Text>
        <Text fontSize="xs" color="fg.muted">
          Invited {formatDate(invitation.createdAt)} · link valid until {formatDate(invitation.expiresAt)}
        </Text>
      </Stack>
      <Button
        size="xs"
        variant="outline"
        onClick={revoke}
        loading={isMutating}
        aria-label={`Revoke the invitation to ${invitation.email}`}
      >
        Revoke
      </Button>
    </HStack>
  );
}

function InviteForm() {
  const { trigger, isMutating } = useInviteMember();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const value = email.trim();
    if (!value) {
      setError('Enter the email address to invite');
      return;
    }
    setError(null);
    try {
      await trigger({ email: value });
      setEmail('');
      showToast({
        title: 'Invitation sent',
        description: `We emailed a link to ${value}. It works once, for 7 days.`,
        type: 'success',
      });
    } catch (err) {
      setError(errorDescription(err, 'Failed to send the invitation'));
    }
  }
  return (
    <Stack
      as="form"
      direction={{ base: 'column', sm: 'row' }}
      gap="3"
      align={{ sm: 'flex-start' }}
      onSubmit={onSubmit}
    >
      <Field.Root invalid={Boolean(error)} flex="1">
        <Field.Label>Invite by email</Field.Label>
        <Input
          name="inviteEmail"
          type="email"
          placeholder="colleague@example.com"
          value={email}
          maxLength={254}
          onChange={(e) => {
            setEmail(e.target.value);
            if (error) setError(null);
          }}
        />
        {error ? <Field.ErrorText>{error}</Field.ErrorText> : null}
      </Field.Root>
      <Button
        type="submit"
        colorPalette="blue"
        loading={isMutating}
        loadingText="Sending..."
        flexShrink={0}
        mt={{ sm: '6' }}
      >
        Send invitation
      </Button>
    </Stack>
  );
}

/** Profile → Team: seats, members, pending invitations; the account holder invites and removes, a member leaves. */
export function TeamSection({ currentUserId }: { currentUserId?: string }) {
  const { data: team, error, isLoading } = useTeam();
  const leave = useLeaveTeam();
  const owner = team?.role === 'owner';

  async function onLeave() {
    if (
      !window.confirm('Leave this team? You go back to your own account and lose access to the team’s data.')
    )
      return;
    try {
      await leave.trigger();
      showToast({ title: 'You left the team', type: 'success' });
    } catch (err) {
      showToast({
        title: 'Leave failed',
        description: errorDescription(err, 'Failed to leave the team'),
        type: 'error',
      });
    }
  }

  return (
    <Card.Root aria-labelledby="team-title" data-testid="team-section">
      <Card.Header>
        <HStack justify="space-between" gap="3" wrap="wrap">
          <Card.Title id="team-title">Team</Card.Title>
          {team ? (
            <Badge variant="subtle" data-testid="team-seats">
              {seatsText(team)}
            </Badge>
          ) : null}
        </HStack>
        <Card.Description>
          {owner
            ? 'Members share your saved mappings, jobs, monthly rows, API keys and webhooks. You are the account holder: billing stays with you.'
            : 'You are a member of this team: you share its saved mappings, jobs, monthly rows, API keys and webhooks. Billing is handled by the account holder.'}
        </Card.Description>
      </Card.Header>
      <Card.Body gap="5">
        {isLoading && !team ? (
          <Stack gap="3" aria-busy="true" aria-label="Loading the team">
            <Skeleton h="10" />
            <Skeleton h="10" />
          </Stack>
        ) : error && !team ? (
          <Text color="fg.muted" fontSize="sm">
            Unable to load the team.
          </Text>
        ) : team ? (
          <>
            {owner && seatsFull(team) ? (
              <Text
                fontSize="sm"
                p="3"
                borderWidth="1px"
                borderRadius="md"
                bg="bg.muted"
                data-testid="team-seats-full"
              >
                {seatLimitMessage(team.plan as PlanKey, team.seatsAllowed)}
              </Text>
            ) : owner ? (
              <InviteForm />
            ) : null}
            <Box>
              <Text fontWeight="semibold" fontSize="sm" mb="1">
                Members
              </Text>
              <Box as="ul" listStyleType="none" aria-label="Team members">
                {team.members.map((m) => (
                  <MemberRow key={m.userId} member={m} canRemove={owner} />
                ))}
              </Box>
            </Box>
            <TeamRecentRuns currentUserId={currentUserId} />
            {owner ? (
              <Box>
                <Text fontWeight="semibold" fontSize="sm" mb="1">
                  Pending invitations
                </Text>
                {team.invitations.length === 0 ? (
                  <Text color="fg.muted" fontSize="sm">
                    No pending invitations.
                  </Text>
                ) : (
                  <Box as="ul" listStyleType="none" aria-label="Pending invitations">
                    {team.invitations.map((i) => (
                      <InvitationRow key={i.id} invitation={i} />
                    ))}
                  </Box>
                )}
              </Box>
            ) : (
              <Button
                variant="outline"
                colorPalette="red"
                alignSelf="flex-start"
                onClick={onLeave}
                loading={leave.isMutating}
              >
                Leave team
              </Button>
            )}
          </>
        ) : null}
      </Card.Body>
    </Card.Root>
  );
}
