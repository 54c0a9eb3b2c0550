import { IsNotEmpty, IsString, MaxLength, ValidateBy } from 'class-validator';
import { isValidEmail } from '@csv-mapper/domain';
import { Trim } from './common';

// Teams: the account holder invites by email; members share the team's saved mappings, usage, jobs, API
// keys and webhook endpoints. Owner ('account holder' in the UI) and member are the only roles.

export type TeamRoleName = 'owner' | 'member';

export class InviteMemberRequest {
  /** @example "colleague@example.com" */
  @Trim()
  @IsString({ message: 'Enter the email address to invite' })
  @IsNotEmpty({ message: 'Enter the email address to invite' })
  @MaxLength(254, { message: 'The email address must be at most 254 characters' })
  @ValidateBy(
    {
      name: 'isEmailAddress',
      validator: { validate: (v: unknown) => typeof v === 'string' && isValidEmail(v) },
    },
    { message: 'Enter a valid email address, e.g. name@example.com' },
  )
  email: string;
}

export class AcceptInvitationRequest {
  /** The token from the invitation link. */
  @IsString({ message: 'The invitation token is missing: open the link from the invitation email' })
  @IsNotEmpty({ message: 'The invitation token is missing: open the link from the invitation email' })
  @MaxLength(200)
  token: string;
}

export class TeamMemberView {
  userId: string;
  username: string;
  email: string;
  role: TeamRoleName;
  joinedAt: string;
  /** Beyond the plan's seats after a downgrade: can read the team's data, not change it. */
  readOnly: boolean;
}

export class TeamInvitationView {
  id: string;
  email: string;
  createdAt: string;
  expiresAt: string;
}

export class TeamView {
  id: string;
  /** The caller's role in this team. */
  role: TeamRoleName;
  /** The caller is beyond the plan's seats: the team is read-only for them. */
  readOnly: boolean;
  /** The team's plan (the account holder's). */
  plan: string;
  members: TeamMemberView[];
  /** Pending invitations (shown to the account holder only; empty for members). */
  invitations: TeamInvitationView[];
  seatsUsed: number;
  /** -1 = unlimited. */
  seatsAllowed: number;
}

export class AcceptedInvitationView {
  message: string;
  teamId: string;
}

/** Who ran a recorded run: a member of the team (or a former one). */
export class TeamUsageRunner {
  userId: string;
  /** Their username, as in the members list. */
  name: string;
}

/** One recorded run of the team (a sync process or a finished background job). */
export class TeamUsageRunView {
  /** The data file's name. */
  filename: string;
  rowsProcessed: number;
  fileSizeBytes: number;
  /** Who ran it; null once that account was deleted. */
  runBy: TeamUsageRunner | null;
  /** The background job's id; null for a sync run. */
  jobId: string | null;
  createdAt: string;
}

/** GET /api/team/usage: the team's 50 most recent runs, newest first. */
export class TeamUsageView {
  runs: TeamUsageRunView[];
}
