import { Button, Card, Stack, Text } from '@chakra-ui/react';
import { SUPPORT_EMAIL } from '@csv-mapper/domain';
import { MailIcon } from '../../../components/icons';

/** Spec §2: the Need Help Choosing card with a contact-support mail link. */
export function NeedHelpChoosingCard() {
  return (
    <Card.Root variant="subtle" aria-labelledby="need-help-title">
      <Card.Body
        gap="4"
        flexDirection={{ base: 'column', md: 'row' }}
        alignItems={{ base: 'stretch', md: 'center' }}
      >
        <Stack gap="1" flex="1">
          <Text id="need-help-title" fontWeight="semibold" fontSize="lg">
            Need Help Choosing?
          </Text>
          <Text color="fg.muted" fontSize="sm">
            Not sure which plan fits your imports? Tell us about your files and volumes and we will recommend
            one.
          </Text>
        </Stack>
        <Button asChild variant="outline" flexShrink={0}>
          <a href={`mailto:${SUPPORT_EMAIL}?subject=${encodeURIComponent('Help choosing a plan')}`}>
            <MailIcon /> Contact Support
          </a>
        </Button>
      </Card.Body>
    </Card.Root>
  );
}
