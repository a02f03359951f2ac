/**
 * The shared setup of the client tests (tests/unit/api, tests/sync): each test file gets one real
 * server and one network proxy in front of it (started once, in beforeAll, as both are slow to start),
 * a company with signed-in users, and tablets that talk to the server through the proxy.
 *
 * Each test leaves the network as it found it: after each test the proxy is back online and every
 * tablet the test started is closed. Only one tablet is open at a time across tests because the
 * open-source RxDB stalls at a 14th collection in one process.
 */
import { afterAll, afterEach, beforeAll, expect, vi } from 'vitest';
import type { ServerConfig } from '../../server/config';
import { type ApiError, ValidationError } from '../../src/api/context';
import { startTablet, type Tablet } from './client';
import { clientIdOf, clientIdsOf, createBatch, createGrid, createRoom, createTenant, type SignedInUser, type Tenant } from './factories';
import { startProxy, type NetworkProxy } from './proxy';
import { startServer, type TestServer } from './server';

export interface FleetOptions {
  /** Server settings that differ from the test defaults (e.g. a known `jwtSecret` to sign tokens with). */
  server?: Partial<ServerConfig>;
  /** Also create a second company, `fleet.other`, for checks across companies. */
  otherTenant?: boolean;
  /** Also create a room of the farm up front, `fleet.roomId`. */
  room?: boolean;
  /** Also create a batch of the farm up front, `fleet.batchId`. */
  batch?: boolean;
  /** Whose tablet `tablet()` starts when no user is given: the farm's Regular user (the default) or its Admin. */
  defaultUser?: 'regular' | 'admin';
  /** Whether `tablet()` waits until a started tablet has synced (the default); a call's own `settle` wins. */
  settle?: boolean;
  /** Restore `vi` mocks and spies after each test (before the tablets close). */
  restoreMocks?: boolean;
}

export type FleetTabletOptions = NonNullable<Parameters<typeof startTablet>[2]> & {
  /** Wait until the tablet has sent and pulled everything (only if it was started). */
  settle?: boolean;
};

export interface Fleet {
  readonly server: TestServer;
  readonly proxy: NetworkProxy;
  /** The company the tests work in: a signed-in Admin and Regular user. */
  readonly farm: Tenant;
  /** A second company (option `otherTenant`). */
  readonly other: Tenant;
  /** A room of the farm (option `room`). */
  readonly roomId: number;
  /** A batch of the farm (option `batch`). */
  readonly batchId: number;
  /** The tablets open in the current test; each is closed after it. */
  readonly tablets: Tablet[];
  /** A tablet through the proxy; `start: false` keeps it from pulling, so reads go to the server. */
  tablet(user?: SignedInUser, options?: FleetTabletOptions): Promise<Tablet>;
  /** The same, for tests that mostly use its context: `{ device, context }`. */
  tabletAndContext(user?: SignedInUser, options?: FleetTabletOptions): Promise<{ device: Tablet; context: Tablet['context'] }>;
  /** Back online: the outbox reaches the server and the pull brings its documents. */
  reconnect(device: Tablet): Promise<void>;
  /** A room of the farm with a grid of `count` boxes in a row, made on the server and pulled by `device`: their ids and client ids. */
  pulledGrid(device: Tablet, count: number): Promise<PulledGrid>;
  /** Every document of every local collection of the tablet, as plain data. */
  localDocuments(device: Tablet): Promise<Array<Record<string, unknown>>>;
  /**
   * Local documents the server has not sent (no `serverId`: made here, their create not answered, or
   * an optimistic copy never replaced), as `collection/id`. Once a tablet has reconnected: none.
   */
  notFromServer(device: Tablet): Promise<string[]>;
}

export interface PulledGrid {
  roomId: number;
  roomKey: string;
  gridId: number;
  gridKey: string;
  boxIds: number[];
  boxKeys: string[];
}

/** Registers the file's hooks (beforeAll, afterEach, afterAll) and answers the fleet; read its values inside tests and hooks. */
export function useFleet(options: FleetOptions = {}): Fleet {
  let server: TestServer | undefined;
  let proxy: NetworkProxy | undefined;
  let farm: Tenant | undefined;
  let other: Tenant | undefined;
  let roomId: number | undefined;
  let batchId: number | undefined;
  const tablets: Tablet[] = [];

  beforeAll(async () => {
    server = await startServer(options.server);
    proxy = await startProxy(server.url);
    farm = await createTenant(server);
    if (options.otherTenant) other = await createTenant(server);
    if (options.room) roomId = await createRoom(server, farm.companyId);
    if (options.batch) batchId = await createBatch(server, farm.companyId);
  });
  afterEach(async () => {
    if (options.restoreMocks) vi.restoreAllMocks();
    proxy?.setOnline(true);
    while (tablets.length) await tablets.pop()?.close();
  });
  afterAll(async () => {
    await proxy?.close();
    await server?.close();
  });

  const ready = <T>(value: T | undefined, name: string, option?: keyof FleetOptions): T => {
    if (value !== undefined) return value;
    throw new Error(option ? `fleet.${name} needs useFleet({ ${option}: true })` : `fleet.${name} is set in beforeAll: read it inside a test or hook`);
  };

  const fleet: Fleet = {
    get server() {
      return ready(server, 'server');
    },
    get proxy() {
      return ready(proxy, 'proxy');
    },
    get farm() {
      return ready(farm, 'farm');
    },
    get other() {
      return ready(other, 'other', 'otherTenant');
    },
    get roomId() {
      return ready(roomId, 'roomId', 'room');
    },
    get batchId() {
      return ready(batchId, 'batchId', 'batch');
    },
    tablets,
    async tablet(user, { settle = options.settle ?? true, ...start } = {}) {
      const owner = user ?? (options.defaultUser === 'admin' ? fleet.farm.admin : fleet.farm.regular);
      const started = await startTablet(`${fleet.proxy.url}/api`, owner, start);
      tablets.push(started);
      if (settle && start.start !== false) await started.engine.settle();
      return started;
    },
    async tabletAndContext(user, tabletOptions) {
      const device = await fleet.tablet(user, tabletOptions);
      return { device, context: device.context };
    },
    async reconnect(device) {
      fleet.proxy.setOnline(true);
      await device.engine.syncNow();
      await device.engine.settle();
    },
    async pulledGrid(device, count) {
      const roomId = await createRoom(fleet.server, fleet.farm.companyId);
      const grid = await createGrid(fleet.server, fleet.farm.companyId, roomId, count, 1);
      await device.engine.syncNow();
      await device.engine.settle();
      return {
        roomId,
        roomKey: await clientIdOf(fleet.server, 'rooms', roomId),
        gridId: grid.id,
        gridKey: await clientIdOf(fleet.server, 'grids', grid.id),
        boxIds: grid.boxIds,
        boxKeys: await clientIdsOf(fleet.server, 'grid_boxes', grid.boxIds),
      };
    },
    async localDocuments(device) {
      const all: Array<Record<string, unknown>> = [];
      for (const collection of Object.values(device.database.collections)) {
        for (const document of await collection.find().exec()) all.push(document.toMutableJSON());
      }
      return all;
    },
    async notFromServer(device) {
      const found: string[] = [];
      for (const [name, collection] of Object.entries(device.database.collections)) {
        // The company's document names itself by the server's id: only the server makes companies.
        if (name === 'company') continue;
        for (const document of await collection.find().exec()) if (typeof document.get('serverId') !== 'number') found.push(`${name}/${document.primary}`);
      }
      return found;
    },
  };
  return fleet;
}

/** Expects `promise` to fail with an error of `type` (a ValidationError unless told) and exactly `message`. */
export async function rejects(promise: Promise<unknown>, message: string, type: typeof ValidationError | typeof ApiError = ValidationError) {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(type);
  expect((error as Error).message).toBe(message);
}
