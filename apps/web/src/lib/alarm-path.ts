/** The alarms page's search parameter that opens one alarm's drawer (links in e-mails, the header, the overview). */
export const ALARM_PARAM = 'alarm';

export const alarmPath = (id: number) => `/alarms?${ALARM_PARAM}=${id}`;
