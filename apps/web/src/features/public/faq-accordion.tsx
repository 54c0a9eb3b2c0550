import { Accordion, Text } from '@chakra-ui/react';
import { useState } from 'react';
import type { Faq } from './seo-head';

/**
 * Spec §2/§9 FAQ: one answer open at a time, clicking the open question closes it. Built on Chakra's
 * accordion, so the questions are buttons with aria-expanded/aria-controls, operable with Tab, Enter and
 * Space (and the arrow keys between questions).
 */
export function FaqAccordion({ faqs, idPrefix = 'faq' }: { faqs: Faq[]; idPrefix?: string }) {
  const [open, setOpen] = useState<string[]>([]);
  return (
    <Accordion.Root
      collapsible
      value={open}
      onValueChange={(e) => setOpen(e.value)}
      maxW="3xl"
      mx="auto"
      variant="enclosed"
      bg="bg"
    >
      {faqs.map((f, i) => (
        <Accordion.Item key={f.q} value={`${idPrefix}-${i}`}>
          <Accordion.ItemTrigger>
            <Text as="span" flex="1" fontWeight="medium" textAlign="start">
              {f.q}
            </Text>
            <Accordion.ItemIndicator />
          </Accordion.ItemTrigger>
          <Accordion.ItemContent>
            <Accordion.ItemBody color="fg.muted">{f.a}</Accordion.ItemBody>
          </Accordion.ItemContent>
        </Accordion.Item>
      ))}
    </Accordion.Root>
  );
}
