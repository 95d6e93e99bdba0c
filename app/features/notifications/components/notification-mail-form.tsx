import { Form } from 'react-router';
import type { NotificationDelivery, NotificationKind } from '~/db/schema';
import { NOTIFICATION_DELIVERIES, NOTIFICATION_DELIVERY_LABELS, NOTIFICATION_KIND_LABELS, NOTIFICATION_KINDS } from '~/features/notifications/notifications.schema';

/**
 * The preferences page's choice per notification kind: at once, daily digest or no mail. A
 * plain form (works without JavaScript); one Save for every kind.
 */
export function NotificationMailForm({ settings }: { settings: Record<NotificationKind, NotificationDelivery> }) {
  return (
    <Form method="post" className="flex flex-col gap-3" data-testid="notification-mail-form">
      <input type="hidden" name="intent" value="notification-mails" />
      {NOTIFICATION_KINDS.map((kind) => (
        <fieldset key={kind} className="flex flex-col gap-1 border-t border-base-300 pt-3 first-of-type:border-0 first-of-type:pt-0 sm:flex-row sm:items-center sm:justify-between">
          <legend className="float-left font-semibold sm:w-1/2">{NOTIFICATION_KIND_LABELS[kind]}</legend>
          <div className="flex flex-wrap gap-x-4 gap-y-1">
            {NOTIFICATION_DELIVERIES.map((value) => (
              <label key={value} className="label cursor-pointer gap-2 text-base-content">
                <input type="radio" className="radio radio-primary radio-sm" name={kind} value={value} defaultChecked={settings[kind] === value} />
                {NOTIFICATION_DELIVERY_LABELS[value]}
              </label>
            ))}
          </div>
        </fieldset>
      ))}
      <div>
        <button type="submit" className="btn btn-sm btn-primary" data-testid="notification-mail-save">Save</button>
      </div>
    </Form>
  );
}
