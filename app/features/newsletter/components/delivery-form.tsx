import { Form } from 'react-router';
import type { Delivery } from '~/features/newsletter/newsletter.schema';
import { MESSAGES } from '~/lib/texts/messages';

/**
 * Per post or daily digest, for the newsletter or one followed writer: two radio buttons and a
 * save button in a plain form, so it works without JavaScript.
 */
export function DeliveryForm({ intent, delivery, label, hidden = {} }: { intent: string; delivery: Delivery; label: string; hidden?: Record<string, string> }) {
  const name = `delivery-${intent}-${Object.values(hidden).join('-')}`;
  return (
    <Form method="post" className="flex flex-wrap items-center gap-x-4 gap-y-2">
      <input type="hidden" name="intent" value={intent} />
      {Object.entries(hidden).map(([key, value]) => (
        <input key={key} type="hidden" name={key} value={value} />
      ))}
      <fieldset className="flex flex-wrap gap-x-4 gap-y-1">
        <legend className="sr-only">{label}</legend>
        {(['post', 'digest'] as const).map((value) => (
          <label key={value} className="label cursor-pointer gap-2 text-base-content">
            <input type="radio" className="radio radio-primary radio-sm" name="delivery" value={value} defaultChecked={delivery === value} id={`${name}-${value}`} />
            {value === 'post' ? MESSAGES.deliveryPost : MESSAGES.deliveryDigest}
          </label>
        ))}
      </fieldset>
      <button type="submit" className="btn btn-sm btn-primary">Save</button>
    </Form>
  );
}
