import { Link, Text } from '@chakra-ui/react';
import { PLANS, SUPPORT_EMAIL } from '@csv-mapper/domain';
import { PageLink as RouterLink } from '../../components/page-link';
import { ContentPage, LegalSection } from '../../features/public/content-page';

export function TermsPage() {
  return (
    <ContentPage
      seo={{
        title: 'Terms of Service',
        description:
          'The terms that apply when you use CSV Mapper to upload, map, convert and download CSV files.',
        path: '/terms',
      }}
      heading="Terms of Service"
      eyebrow="Last updated January 24, 2025"
    >
      <LegalSection n={1} title="Acceptance of these terms">
        <Text>
          By creating an account or using CSV Mapper you agree to these terms. If you use CSV Mapper for an
          organisation, you confirm you may accept them on its behalf. CSV Mapper is not for children under
          13.
        </Text>
      </LegalSection>
      <LegalSection n={2} title="The service">
        <Text>
          CSV Mapper lets you upload a template CSV and a data CSV, map data columns onto template columns,
          transform values (dates, numbers, amounts, booleans, debit and credit) and download a CSV shaped
          like the template. You can save mapping configurations and, on plans that include them, use an API,
          background jobs and webhooks.
        </Text>
      </LegalSection>
      <LegalSection n={3} title="Your account">
        <Text>
          You must give a valid e-mail address, keep your password and API keys secret, and tell us at once if
          you think someone else has used your account. You are responsible for activity under your account
          and your API keys.
        </Text>
      </LegalSection>
      <LegalSection n={4} title="Acceptable use">
        <Text>
          Do not upload data you have no right to process, try to break or overload the service, get around
          plan limits, probe other users’ data, or use CSV Mapper to send unlawful content. We may suspend
          accounts that do.
        </Text>
      </LegalSection>
      <LegalSection n={5} title="Your data and its processing">
        <Text>
          Your files stay yours. We process uploaded files only to produce your output: they are held in
          memory for at most one hour and never written to disk. We keep the mapping configurations you save
          until you delete them. The{' '}
          <Link asChild color="blue.700">
            <RouterLink to="/privacy">Privacy Policy</RouterLink>
          </Link>{' '}
          explains the details. Check the output before you import it into another system.
        </Text>
      </LegalSection>
      <LegalSection n={6} title="Subscriptions and billing">
        <Text>
          Paid plans ({PLANS.pro.name} {PLANS.pro.price} and {PLANS.business.name} {PLANS.business.price};
          {PLANS.enterprise.name} by agreement) are billed monthly in advance through our payment provider.
          You can cancel any time; cancellation takes effect at the end of the billing period and you keep
          paid features until then. If a paid plan ends, your account returns to Free and saved mappings above
          the Free allowance are locked, not deleted. Paid plans carry a 30-day money-back guarantee for the
          first payment.
        </Text>
      </LegalSection>
      <LegalSection n={7} title="Availability">
        <Text>
          We aim to keep CSV Mapper available at all times but do not guarantee uninterrupted service except
          where an Enterprise agreement sets a service level. Maintenance may briefly interrupt it.
        </Text>
      </LegalSection>
      <LegalSection n={8} title="Intellectual property">
        <Text>
          The service, its software and its design belong to CSV Mapper. You keep all rights to your files and
          mappings and give us only the permission needed to process them for you.
        </Text>
      </LegalSection>
      <LegalSection n={9} title="Limitation of liability">
        <Text>
          CSV Mapper is provided “as is”. To the extent the law allows, we are not liable for indirect or
          consequential loss, or for loss caused by importing output you did not check. Our total liability is
          limited to the fees you paid in the 12 months before the claim. Nothing here limits liability that
          cannot be limited by law.
        </Text>
      </LegalSection>
      <LegalSection n={10} title="Termination">
        <Text>
          You can delete your account at any time from your profile; this cancels active subscriptions and
          deletes your saved mappings and usage history. We may end accounts that breach these terms, with
          notice where reasonable.
        </Text>
      </LegalSection>
      <LegalSection n={11} title="Changes to these terms">
        <Text>
          We may update these terms. We will change the date above and, for material changes, e-mail account
          holders before the change takes effect. Continuing to use CSV Mapper after that means you accept the
          new terms.
        </Text>
      </LegalSection>
      <LegalSection n={12} title="Contact">
        <Text>
          Questions about these terms:{' '}
          <Link href={`mailto:${SUPPORT_EMAIL}`} color="blue.700">
            {SUPPORT_EMAIL}
          </Link>
          .
        </Text>
      </LegalSection>
    </ContentPage>
  );
}
