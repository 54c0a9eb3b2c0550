import { Link, Text } from '@chakra-ui/react';
import { SUPPORT_EMAIL } from '@csv-mapper/domain';
import { ContentPage, LegalSection } from '../../features/public/content-page';

export function PrivacyPage() {
  const mail = (
    <Link href={`mailto:${SUPPORT_EMAIL}`} color="blue.700">
      {SUPPORT_EMAIL}
    </Link>
  );
  return (
    <ContentPage
      seo={{
        title: 'Privacy Policy',
        description:
          'What CSV Mapper collects, why, how long it keeps it and your rights. Uploaded files are processed in memory and never written to disk.',
        path: '/privacy',
      }}
      heading="Privacy Policy"
      eyebrow="Last updated January 24, 2025"
    >
      <LegalSection n={1} title="Who we are">
        <Text>CSV Mapper is the controller of the personal data described here. Contact: {mail}.</Text>
      </LegalSection>
      <LegalSection n={2} title="What we collect">
        <Text>
          Account data (username, e-mail, optional first and last name, a password hash), your plan and
          subscription status, usage records (file name, size, rows processed, date), saved mapping
          configurations (names, descriptions, column headers and pairs), API key prefixes and hashes, and
          webhook endpoint settings.
        </Text>
      </LegalSection>
      <LegalSection n={3} title="Your uploaded files">
        <Text>
          Files you upload are processed in memory, held in a temporary cache for at most one hour so you can
          finish mapping and download the result, and then deleted. They are never written to disk or to our
          database. Background job records keep counts and state for up to 7 days, never file contents.
        </Text>
      </LegalSection>
      <LegalSection n={4} title="Why we use your data">
        <Text>
          To provide the service you signed up for (contract), to enforce plan limits and prevent abuse
          (legitimate interest), to take payments (contract) and to meet legal duties such as keeping invoices
          (legal obligation).
        </Text>
      </LegalSection>
      <LegalSection n={5} title="Cookies">
        <Text>
          We set one essential session cookie (HttpOnly, SameSite=Lax) to keep you signed in. It expires after
          30 minutes of inactivity and at most 12 hours after sign-in. We use no advertising or tracking
          cookies.
        </Text>
      </LegalSection>
      <LegalSection n={6} title="Payments">
        <Text>
          Card payments are handled by our payment provider (Stripe). We never see or store your card number;
          we keep the customer and subscription identifiers it returns.
        </Text>
      </LegalSection>
      <LegalSection n={7} title="E-mails">
        <Text>
          We send only account e-mails, such as password reset links (valid for 1 hour). No marketing without
          consent.
        </Text>
      </LegalSection>
      <LegalSection n={8} title="Who we share data with">
        <Text>
          Our hosting and e-mail providers and our payment provider, each only as needed to run the service
          and under a data processing agreement. We do not sell personal data.
        </Text>
      </LegalSection>
      <LegalSection n={9} title="How long we keep data">
        <Text>
          Uploaded files: at most 1 hour. Results: 1 hour. Job records: 24 hours (failed jobs 7 days).
          Account, usage history and saved mappings: until you delete them or your account. Password reset
          tokens: until used or expired.
        </Text>
      </LegalSection>
      <LegalSection n={10} title="Security">
        <Text>
          Passwords are hashed with Argon2id, API keys are stored only as SHA-256 hashes, webhooks are signed,
          and sessions are rotated at sign-in and destroyed at sign-out, password reset and account deletion.
        </Text>
      </LegalSection>
      <LegalSection n={11} title="Your rights">
        <Text>
          You may access, correct, export or delete your data, object to processing and complain to your data
          protection authority (in the UK, the ICO). Deleting your account from the profile page removes your
          account, saved mappings and usage history at once. For anything else write to {mail}.
        </Text>
      </LegalSection>
      <LegalSection n={12} title="Children">
        <Text>CSV Mapper is not for children under 13 and we do not knowingly collect their data.</Text>
      </LegalSection>
      <LegalSection n={13} title="Changes to this policy">
        <Text>
          We will update the date above when this policy changes and e-mail account holders about material
          changes.
        </Text>
      </LegalSection>
    </ContentPage>
  );
}
