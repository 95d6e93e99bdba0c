// The bell, /notifications and the notification mails (docs/decisions/062).
export const notificationsTitle = 'Notifications';
export const notificationsEmpty = 'Nothing yet. When someone comments on your blogs, replies to you, likes or follows you, you will find it here.';
export const markAllRead = 'Mark all read';
export const allMarkedRead = 'All notifications marked read.';
export const notificationNew = 'New';
export const notificationMailsTitle = 'Notifications by mail';
export const notificationMailsHint = 'Every notification is on your Notifications page; choose which of them also come by mail.';
export const unsubscribedNotice = 'You will no longer get these notifications by mail:';
export const unsubscribedNotices = 'You will no longer get notifications by mail.';
