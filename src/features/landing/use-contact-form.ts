import { useState, type FormEvent } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { contactSchema } from '../../../contract/schemas/contact';
import { sendContact, type ContactPayload, type ContactResult } from './send-contact';

type ContactFormInput = z.input<typeof contactSchema>;

export type ContactStatus =
  | { state: 'idle' }
  | { state: 'sent' }
  | { state: 'error'; reason: Extract<ContactResult, { ok: false }>['reason'] };

/** Empty fields; OPT_IN is left out so the checkbox starts (and resets to) unticked. */
const emptyForm = {
  EMAIL: '',
  MESSAGGIO: '',
  email_address_check: '',
  locale: 'it',
} satisfies Partial<ContactFormInput>;

/**
 * The landing contact form's controller: validation with the zod schema the server also uses,
 * submission, and the outcome the form shows. The component only renders what this returns.
 */
export function useContactForm() {
  const [status, setStatus] = useState<ContactStatus>({ state: 'idle' });
  const form = useForm<ContactFormInput, unknown, ContactPayload>({
    resolver: zodResolver(contactSchema),
    defaultValues: emptyForm,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });

  const submit = form.handleSubmit(
    async (values) => {
      setStatus({ state: 'idle' });
      const result = await sendContact(values);
      if (result.ok) {
        form.reset(emptyForm);
        setStatus({ state: 'sent' });
      } else {
        setStatus({ state: 'error', reason: result.reason });
      }
    },
    () => setStatus({ state: 'idle' }),
  );

  return {
    register: form.register,
    errors: form.formState.errors,
    isSubmitting: form.formState.isSubmitting,
    status,
    onSubmit: (event: FormEvent<HTMLFormElement>) => void submit(event),
  };
}
