/**
 * The interface's texts by namespace, one namespace per feature folder (src/features/<feature>/locales/
 * en.json, es.json, nl.json), and the first page's few (src/app/locales): their English shapes type every `t()` key, so a key that does not exist
 * fails the typecheck. The spec's messages are not here: they are keyed by their English text
 * (src/i18n/messages.ts).
 */
import type app from '../app/locales/en.json';
import type audit from '../features/audit/locales/en.json';
import type automations from '../features/automations/locales/en.json';
import type batches from '../features/batches/locales/en.json';
import type cameras from '../features/cameras/locales/en.json';
import type commands from '../features/commands/locales/en.json';
import type company from '../features/company/locales/en.json';
import type consultants from '../features/consultants/locales/en.json';
import type forms from '../features/forms/locales/en.json';
import type gridTemplates from '../features/grid-templates/locales/en.json';
import type kiosk from '../features/kiosk/locales/en.json';
import type labelScan from '../features/label-scan/locales/en.json';
import type observations from '../features/observations/locales/en.json';
import type overview from '../features/overview/locales/en.json';
import type payments from '../features/payments/locales/en.json';
import type pestPressure from '../features/pest-pressure/locales/en.json';
import type plantMoves from '../features/plant-moves/locales/en.json';
import type plantProblems from '../features/plant-problems/locales/en.json';
import type profile from '../features/profile/locales/en.json';
import type reports from '../features/reports/locales/en.json';
import type rooms from '../features/rooms/locales/en.json';
import type scans from '../features/scans/locales/en.json';
import type session from '../features/session/locales/en.json';
import type settings from '../features/settings/locales/en.json';
import type shell from '../features/shell/locales/en.json';
import type tasks from '../features/tasks/locales/en.json';
import type trays from '../features/trays/locales/en.json';
import type treatments from '../features/treatments/locales/en.json';
import type videoCapture from '../features/video-capture/locales/en.json';
import type weather from '../features/weather/locales/en.json';

export interface Resources {
  'app': typeof app;
  'audit': typeof audit;
  'automations': typeof automations;
  'batches': typeof batches;
  'cameras': typeof cameras;
  'commands': typeof commands;
  'company': typeof company;
  'consultants': typeof consultants;
  'forms': typeof forms;
  'grid-templates': typeof gridTemplates;
  'kiosk': typeof kiosk;
  'label-scan': typeof labelScan;
  'observations': typeof observations;
  'overview': typeof overview;
  'payments': typeof payments;
  'pest-pressure': typeof pestPressure;
  'plant-moves': typeof plantMoves;
  'plant-problems': typeof plantProblems;
  'profile': typeof profile;
  'reports': typeof reports;
  'rooms': typeof rooms;
  'scans': typeof scans;
  'session': typeof session;
  'settings': typeof settings;
  'shell': typeof shell;
  'tasks': typeof tasks;
  'trays': typeof trays;
  'treatments': typeof treatments;
  'video-capture': typeof videoCapture;
  'weather': typeof weather;
}

export type Namespace = keyof Resources;

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'shell';
    resources: Resources;
  }
}
