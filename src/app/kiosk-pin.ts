/**
 * A kiosk pinned to one room (issue 19): an Admin pins a tablet mounted in a room to that room's screen
 * (settings screen, "This tablet"), and whoever signs in or switches user on it other than an Admin
 * lands on that room instead of the quick view; the top bar says the tablet is pinned. Growers may
 * still open the other screens (a form, a batch); the room is where the tablet starts and returns to.
 * Kept on the tablet, not the company: each kiosk is pinned to its own room.
 */
import { redirect } from '@tanstack/react-router';
import { useSyncExternalStore } from 'react';
import { readKept, writeKept } from './kept';
import { session } from './services';

const PIN_KEY = 'growroom-kiosk-room';

export interface PinnedRoom {
  /** The room's key in the local store (its route's id). */
  roomId: string;
  /** Its name when pinned, for the top bar before the store is read. */
  roomName: string;
}

const isPinnedRoom = (value: unknown): value is PinnedRoom =>
  typeof value === 'object' && value !== null && typeof (value as PinnedRoom).roomId === 'string' && typeof (value as PinnedRoom).roomName === 'string';

const listeners = new Set<() => void>();
let pinned: PinnedRoom | null = readKept(PIN_KEY, isPinnedRoom);

export function pinnedRoom(): PinnedRoom | null {
  return pinned;
}

/** Pins this tablet to a room, or (null) unpins it. */
export function pinRoom(room: PinnedRoom | null): void {
  if (room) writeKept(PIN_KEY, room);
  else localStorage.removeItem(PIN_KEY);
  pinned = room;
  listeners.forEach((listener) => listener());
}

export function usePinnedRoom(): PinnedRoom | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => pinned,
  );
}

/**
 * The landing screens' guard (the dashboard and the quick view): on a pinned kiosk, anyone but an
 * Admin is sent to the pinned room.
 */
export function landOnPinnedRoom(): void {
  const room = pinnedRoom();
  const role = session.role();
  if (!room || role === 'Admin' || role === 'SuperAdmin') return;
  throw redirect({ to: '/dashboard/rooms/$roomID', params: { roomID: room.roomId }, replace: true });
}
