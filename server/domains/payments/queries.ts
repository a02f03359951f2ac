/**
 * The company's subscription (migration 0022) and the Stripe events handled. Not synced: Admins read it
 * online, and only Stripe's word changes it (a confirmed checkout, or a signed event).
 */
import { type Kysely, type Selectable, sql } from 'kysely';
import { CURRENT_SUBSCRIPTION_STATUSES, type Plan } from '../../../common/messages/payments';
import { isoTime } from '../../../common/schemas/answers';
import type { BillingSubscription } from '../../../common/schemas/payments';
import type { CompanySubscriptionsTable, DB } from '../../db/schema';

export type SubscriptionRow = Selectable<CompanySubscriptionsTable>;

/** A company's subscription as Stripe said it at `at`. */
export interface SubscriptionState {
  companyId: number;
  plan: Plan;
  status: string;
  customerId: string | null;
  subscriptionId: string | null;
  periodEnd: Date | null;
  /** When the server read this state from Stripe. */
  at: Date;
}

export const isCurrent = (status: string) => CURRENT_SUBSCRIPTION_STATUSES.includes(status);

export const subscriptionJson = (row: SubscriptionRow): BillingSubscription => ({
  plan: row.plan,
  status: row.status,
  renews_at: isoTime(row.current_period_end),
  current: isCurrent(row.status),
  updated_at: isoTime(row.updated_at),
});

export const paymentQueries = {
  byCompany: (db: Kysely<DB>, companyId: number) => db.selectFrom('company_subscriptions').selectAll().where('company_id', '=', companyId).executeTakeFirst(),

  bySubscription: (db: Kysely<DB>, subscriptionId: string) => db.selectFrom('company_subscriptions').selectAll().where('stripe_subscription_id', '=', subscriptionId).executeTakeFirst(),

  async companyIsLive(db: Kysely<DB>, companyId: number): Promise<boolean> {
    const company = await db.selectFrom('companies').select('id').where('id', '=', companyId).where('deleted_at', 'is', null).executeTakeFirst();
    return company !== undefined;
  },

  async emailOf(db: Kysely<DB>, userId: number): Promise<string | null> {
    const user = await db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst();
    return user?.email ?? null;
  },

  async eventHandled(db: Kysely<DB>, eventId: string): Promise<boolean> {
    return (await db.selectFrom('stripe_events').select('id').where('id', '=', eventId).executeTakeFirst()) !== undefined;
  },

  /**
   * Notes an event as handled; false when it was already (a delivery racing this one waits here on
   * PostgreSQL until the other's transaction ends, then finds it).
   */
  async claimEvent(db: Kysely<DB>, eventId: string, type: string): Promise<boolean> {
    const claimed = await db.insertInto('stripe_events').values({ id: eventId, type }).onConflict((conflict) => conflict.column('id').doNothing()).returning('id').executeTakeFirst();
    return claimed !== undefined;
  },

  /**
   * Writes a company's subscription as Stripe said it, unless the row already holds a state read later
   * (a slow read finishing after a quicker, newer one), or holds another subscription that still goes
   * on while this one does not (a cancelled earlier subscription's last event). Answers the row as it now is.
   */
  async save(db: Kysely<DB>, state: SubscriptionState): Promise<SubscriptionRow> {
    const current = [...CURRENT_SUBSCRIPTION_STATUSES];
    const saved = await db
      .insertInto('company_subscriptions')
      .values({
        company_id: state.companyId,
        plan: state.plan,
        status: state.status,
        stripe_customer_id: state.customerId,
        stripe_subscription_id: state.subscriptionId,
        current_period_end: state.periodEnd,
        stripe_state_at: state.at,
      })
      .onConflict((conflict) =>
        conflict
          .column('company_id')
          .doUpdateSet({
            plan: sql`excluded.plan`,
            status: sql`excluded.status`,
            stripe_customer_id: sql`COALESCE(excluded.stripe_customer_id, company_subscriptions.stripe_customer_id)`,
            stripe_subscription_id: sql`excluded.stripe_subscription_id`,
            current_period_end: sql`excluded.current_period_end`,
            stripe_state_at: sql`excluded.stripe_state_at`,
            updated_at: sql`now()`,
          })
          .where(
            sql<boolean>`company_subscriptions.stripe_state_at <= excluded.stripe_state_at
              AND (company_subscriptions.stripe_subscription_id IS NULL
                OR company_subscriptions.stripe_subscription_id = excluded.stripe_subscription_id
                OR NOT company_subscriptions.status = ANY(${current}::text[])
                OR excluded.status = ANY(${current}::text[]))`,
          ),
      )
      .returningAll()
      .executeTakeFirst();
    return saved ?? (await db.selectFrom('company_subscriptions').selectAll().where('company_id', '=', state.companyId).executeTakeFirstOrThrow());
  },

};
